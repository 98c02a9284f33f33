// The one content sniffer (lakeqa/common/sniff.h). Its answers on the usual formats are tested through
// ingest's name for it (tests/ingest/profile_test.cc, Sniff.ByContentNotExtension); here are the inputs on
// which ingest's and exec's former sniffers disagreed (found by running both over the 4,181 data and text
// files of a Debian machine: 151 disagreed), with the answer the one sniffer keeps.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "lakeqa/common/sniff.h"

namespace lakeqa {
namespace {

// exec's sniffer took any short lines without a delimiter for a one-column table, ingest's only when the name
// said so. By content alone a column of names and short lines of prose look the same: the sniffer lets the
// name decide, as ingest's did (the catalog must not call a README a table), and IsSingleColumnText tells
// the SQL sandbox that DuckDB can still read it as one column (exec keeps those views).
TEST(SniffDisagreements, OneColumnIsATableOnlyWhenTheNameSaysSo) {
  EXPECT_EQ(SniffFormat("Sector\nAdam\nBaker\n", "sectors.txt"), FileFormat::kText);
  EXPECT_EQ(SniffFormat("Sector\nAdam\nBaker\n", "sectors.csv"), FileFormat::kCsv);
  EXPECT_EQ(SniffFormat("Sector\nAdam\nBaker\n", "sectors.TSV"), FileFormat::kCsv);
  EXPECT_EQ(
      SniffFormat("Release notes\n=============\n\nThis release merges the fixes of v2.3.\n", "notes.txt"),
      FileFormat::kText);
  EXPECT_TRUE(IsSingleColumnText("Sector\nAdam\nBaker\n"));
  EXPECT_TRUE(
      IsSingleColumnText("\xEF\xBB\xBFname\n\"Smith, John\"\nDoe\n"));  // a quoted comma is no delimiter
  EXPECT_FALSE(IsSingleColumnText("Sector\n"));                         // one line: no evidence
  EXPECT_FALSE(IsSingleColumnText("a,b\n1,2\n"));
  EXPECT_FALSE(IsSingleColumnText("Short line\n" + std::string(65, 'x') + "\n"));  // a line of prose
}

// exec's sniffer compared every record's delimiter count with the first line's, so a comment line above the
// header, or rows that drop their trailing empty fields, made a table "text". The modal field count (what
// DuckDB's own sniffer also goes by) sees the table.
TEST(SniffDisagreements, ATableWithACommentLineOrRaggedRowsIsCsv) {
  std::optional<CsvShape> shape;
  EXPECT_EQ(
      SniffFormat("# Data source: example\nDate,A,B\n1990-01-01,1,2\n1990-02-01,3,4\n", "stocks.csv", &shape),
      FileFormat::kCsv);
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->delimiter, ',');
  EXPECT_EQ(shape->columns, 3u);
  EXPECT_DOUBLE_EQ(shape->consistency, 0.75);
  EXPECT_EQ(SniffFormat("version,codename,created,release,eol\n1.1,Buzz,1993,1996,1997\n"
                        "1.2,Rex,1996,1996,1998\n2.0,Hamm,1996,1997\n",
                        "debian.txt"),
            FileFormat::kCsv);
}

// exec's sniffer called anything opening with a bracket JSON; Markdown and wikitext open with brackets too.
TEST(SniffDisagreements, BracketsThatJsonCannotOpenWithAreText) {
  EXPECT_EQ(SniffFormat("[![Build status](https://example.org/badge.svg)](https://example.org)\n\nA tool.\n",
                        "README.md"),
            FileFormat::kText);
  EXPECT_EQ(SniffFormat("[[Category:Stars]]\nAlpha Centauri, the closest star system, has three stars.\n",
                        "content.txt"),
            FileFormat::kText);
  EXPECT_EQ(SniffFormat("[project]\nname = x\n", "pyproject.toml"), FileFormat::kText);
}

TEST(Sniff, Utf16IsSniffedOnceConvertedAndParquetIsBinary) {
  std::string utf16 = std::string("\xFF\xFE", 2);
  for (char c : std::string("a,b\n1,2\n3,4\n")) utf16 += std::string{c, '\0'};
  std::optional<CsvShape> shape;
  EXPECT_EQ(SniffFormat(utf16, "x.txt", &shape), FileFormat::kCsv);
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->columns, 2u);
  EXPECT_EQ(SniffFormat(std::string("PAR1\x15\x04", 6), "x.parquet"), FileFormat::kBinary);
  EXPECT_TRUE(IsParquet(std::string("PAR1\x15\x04", 6)));
  EXPECT_FALSE(IsParquet("PAR"));
}

TEST(Sniff, FormatNamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(FileFormat::kBinary); ++i) {
    auto f = static_cast<FileFormat>(i);
    EXPECT_EQ(FormatFromName(FormatName(f)), f) << FormatName(f);
  }
  EXPECT_EQ(FormatFromName("tsv"), FileFormat::kUnknown);
}

}  // namespace
}  // namespace lakeqa
