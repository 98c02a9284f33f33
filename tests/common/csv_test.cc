// The one CSV record reader and writer (lakeqa/common/csv.h), round trips included.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lakeqa/common/csv.h"

namespace lakeqa {
namespace {

TEST(CsvRecords, QuotedFieldsHoldCommasQuotesAndNewlinesAndLinesAreCounted) {
  CsvRecords r("\xEF\xBB\xBFid,name\r\n1,\"a, \"\"b\"\"\nc\"\n\n2,\n");
  std::vector<std::string> f;
  uint64_t line = 0;
  ASSERT_TRUE(r.Next(f, line));
  EXPECT_EQ(f, (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(line, 1u);
  ASSERT_TRUE(r.Next(f, line));
  EXPECT_EQ(f, (std::vector<std::string>{"1", "a, \"b\"\nc"}));
  EXPECT_EQ(line, 2u);
  ASSERT_TRUE(r.Next(f, line));  // the blank line 4 is skipped
  EXPECT_EQ(f, (std::vector<std::string>{"2", ""}));
  EXPECT_EQ(line, 5u);
  EXPECT_FALSE(r.Next(f, line));
}

TEST(CsvRecords, FirstRecordOfAHeaderLine) {
  EXPECT_EQ(CsvFirstRecord("a,\"b,c\"\nx,y\n"), (std::vector<std::string>{"a", "b,c"}));
  EXPECT_TRUE(CsvFirstRecord("").empty());
}

TEST(AppendCsvField, QuotesWhenNeededOrEveryNonEmptyFieldAndReadsBack) {
  std::string out;
  AppendCsvField("plain", out);
  out += ',';
  AppendCsvField("a,\"b\"", out);
  out += ',';
  AppendCsvField(" pad", out);
  out += ',';
  AppendCsvField("", out);
  EXPECT_EQ(out, "plain,\"a,\"\"b\"\"\",\" pad\",");
  std::string always;
  AppendCsvField("x", always, CsvQuote::kNonEmpty);
  always += ',';
  AppendCsvField("", always, CsvQuote::kNonEmpty);
  EXPECT_EQ(always, "\"x\",");
  EXPECT_EQ(CsvFirstRecord(out), (std::vector<std::string>{"plain", "a,\"b\"", " pad", ""}));
}

}  // namespace
}  // namespace lakeqa
