#include "exec/file_sniff.h"

#include <gtest/gtest.h>

namespace lakeqa::exec {
namespace {

DataFormat F(std::string_view s) { return SniffContent(s).format; }

TEST(FileSniffTest, FormatsFromContent) {
  EXPECT_EQ(F("a,b\n1,2\n3,4\n"), DataFormat::kCsv);
  EXPECT_EQ(F("\xEF\xBB\xBF"
              "a\tb\n1\t2\n"),
            DataFormat::kCsv);
  EXPECT_EQ(F("a;b\r\n1;2\r\n"), DataFormat::kCsv);
  EXPECT_EQ(F("name,notes\nx,\"multi\nline, with commas\"\ny,plain\n"), DataFormat::kCsv);
  EXPECT_EQ(F("a|b|c\n"), DataFormat::kCsv);                // header only
  EXPECT_EQ(F("Sector\nAdam\nBaker\n"), DataFormat::kCsv);  // one column
  EXPECT_EQ(F("  [{\"a\": 1}]"), DataFormat::kJson);
  EXPECT_EQ(F("{\"a\": 1}\n{\"a\": 2}\n"), DataFormat::kJson);
  EXPECT_EQ(F("{\"type\": \"FeatureCollection\", \"features\": []}"), DataFormat::kGeoJson);
  EXPECT_EQ(F("PAR1\x15\x04"), DataFormat::kParquet);
}

TEST(FileSniffTest, NonTablesSayWhy) {
  EXPECT_EQ(SniffContent("").reason, "empty");
  EXPECT_EQ(SniffContent("  \n\n").reason, "blank");
  EXPECT_EQ(SniffContent("<!DOCTYPE html><html>").reason, "HTML");
  EXPECT_EQ(SniffContent("<?xml version=\"1.0\"?><a/>").reason, "XML");
  EXPECT_EQ(SniffContent("%PDF-1.7\n").reason, "PDF");
  EXPECT_EQ(SniffContent(std::string_view("PK\x03\x04rest", 8)).reason, "zip (xlsx/docx)");
  EXPECT_EQ(SniffContent(std::string_view("a\0b\0", 4)).reason, "binary or UTF-16");
  EXPECT_EQ(F("Austin is the capital of Texas, and the seat of Travis County.\n"
              "It is known for live music. The city, founded in 1839, grew fast.\n"
              "Another sentence without commas follows here to make it prose.\n"),
            DataFormat::kNone);
}

// The SQL sandbox follows the one content sniffer (lakeqa/common/sniff.h), so a file the catalog calls CSV
// gets a view, and text only as a single column; the cases are those where exec's former sniffer disagreed.
TEST(FileSniffTest, FollowsTheOneSniffer) {
  // Text of one column: the catalog calls it text, the sandbox still gives it a view (IsSingleColumnText).
  EXPECT_EQ(SniffContent("Sector\nAdam\nBaker\n", "sectors.txt").format, DataFormat::kCsv);
  EXPECT_EQ(SniffContent("Sector\nAdam\nBaker\n", "sectors.csv").format, DataFormat::kCsv);
  EXPECT_EQ(F("# Data source: example\nDate,A,B\n1990-01-01,1,2\n1990-02-01,3,4\n"), DataFormat::kCsv);
  EXPECT_EQ(F("[![Build status](https://example.org/badge.svg)](https://example.org)\n"), DataFormat::kNone);
  EXPECT_EQ(F("[[Category:Stars]]\nAlpha Centauri, the closest star system, has three stars.\n"),
            DataFormat::kNone);
  // DuckDB reads UTF-8 only: UTF-16 text is refused even where the sniffer (converting it) sees a table.
  std::string utf16 = std::string("\xFF\xFE", 2);
  for (char c : std::string("a,b\n1,2\n3,4\n")) utf16 += std::string{c, '\0'};
  EXPECT_EQ(SniffContent(utf16).reason, "binary or UTF-16");
}

TEST(FileSniffTest, ViewNames) {
  EXPECT_EQ(AssignViewNames({"ds/files/rows.txt"}, {}), (std::vector<std::string>{"rows"}));
  EXPECT_EQ(AssignViewNames({"a/files/rows.txt", "b/files/rows.txt", "c/data.csv"}, {}),
            (std::vector<std::string>{"a_files_rows", "b_files_rows", "data"}));
  // Case-insensitive SQL identifiers collide too; names that stay equal get numbers.
  EXPECT_EQ(AssignViewNames({"x/Rows.csv", "x/rows.CSV"}, {}),
            (std::vector<std::string>{"x_rows", "x_rows_2"}));
  EXPECT_EQ(AssignViewNames({"1999 Crime (final).csv", "über.csv", ".csv"}, {}),
            (std::vector<std::string>{"t_1999_crime_final", "ber", "csv"}));
  EXPECT_EQ(AssignViewNames({"d/sandbox_files.csv"}, {"sandbox_files"}),
            (std::vector<std::string>{"d_sandbox_files"}));
  EXPECT_EQ(AssignViewNames({"sandbox_files.csv"}, {"sandbox_files"}),
            (std::vector<std::string>{"sandbox_files_2"}));
}

}  // namespace
}  // namespace lakeqa::exec
