// The PostgreSQL pg_dump text reader (ingest/sources.h; CMDBench ships its tables that way): COPY
// escapes and NULL, rows and bad rows (moved from the CMDBench source tests; the reader is ingest's).
#include <gtest/gtest.h>

#include "ingest/build_test_util.h"
#include "ingest/pg_dump_fixture.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
namespace {

using namespace testing;

TEST(PgUnescape, EscapesAndNull) {
  EXPECT_TRUE(PgUnescape("\\N").null);
  EXPECT_EQ(PgUnescape("a\\tb\\nc\\\\d\\r").value, "a\tb\nc\\d\r");
  EXPECT_EQ(PgUnescape("\\101\\x42\\7").value, "AB\x07");
  EXPECT_EQ(PgUnescape("\\N\\N").value, "NN");  // only a whole field "\N" is NULL
  EXPECT_EQ(PgUnescape("trailing\\").value, "trailing\\");
}

TEST(ReadPgDump, CopyBlocksRowsAndBadRows) {
  TempDir t;
  WriteBytes(t.path() + "/d.sql", kSql);
  std::vector<std::string> tables, errors;
  std::vector<std::vector<PgField>> rows;
  PgDumpCallbacks cb;
  cb.on_table = [&](const PgTable& tb) {
    tables.push_back(tb.schema + "." + tb.name + ":" + std::to_string(tb.columns.size()) + ":" +
                     tb.columns.back());
    return Status::Ok();
  };
  cb.on_row = [&](const PgTable&, std::vector<PgField>&& f) {
    rows.push_back(std::move(f));
    return Status::Ok();
  };
  cb.on_error = [&](const PgTable&, const Status& s) { errors.push_back(s.ToString()); };
  ASSERT_TRUE(ReadPgDump(t.path() + "/d.sql", cb).ok());
  EXPECT_EQ(tables, (std::vector<std::string>{"nba_wikisql.t_1_1_1:2:no.", "nba_wikisql.t_2_2_2:2:b"}));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[1][1].null);
  EXPECT_EQ(rows[2][0].value, "Tab\tName");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("d.sql:14: row has 1 fields"), std::string::npos) << errors[0];

  WriteBytes(t.path() + "/cut.sql", "COPY s.t (a) FROM stdin;\nrow\n");
  Status s = ReadPgDump(t.path() + "/cut.sql", {});
  EXPECT_EQ(s.code(), ErrorCode::kParseError);
  EXPECT_NE(s.message().find("input ended inside the COPY block of t"), std::string::npos);
}

}  // namespace
}  // namespace lakeqa::ingest
