// `query` through the ToolSet with the columnar cache: the first session imports a downloaded file into the
// shared cache, a second session with the same download reuses the entry, and the trace says which.
#include <filesystem>

#include <gtest/gtest.h>

#include "fixture.h"

namespace lakeqa::tools::testing {
namespace {

class ColumnarQueryTest : public ToolsFixture {};

TEST_F(ColumnarQueryTest, SecondSessionQueriesTheCachedImport) {
  SessionLimits lim;
  lim.columnar_min_bytes = 0;  // the fixture's files are tiny; cache them anyway
  NewSession(lim, "first");
  const Json dl = {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}};
  const std::string sql =
      "SELECT Sector, \"Occurred Year\" AS y, count(*) AS n FROM rows GROUP BY ALL ORDER BY Sector, y";
  ASSERT_EQ(Code(Call("download", dl)), "");
  Json first = Call("query", {{"sql", sql}});
  ASSERT_EQ(Code(first), "") << first.dump();
  ASSERT_EQ(first["columnar_cache"].size(), 1u) << first.dump();
  EXPECT_EQ(first["columnar_cache"][0]["state"], "imported");
  EXPECT_EQ(first["columnar_cache"][0]["path"], "datagov/apd-searches-by-type/files/rows.txt");
  auto trace = *session_->ReadTrace();
  EXPECT_NE(trace.back()["summary"].get<std::string>().find("rows.txt: imported"), std::string::npos)
      << trace.back().dump();

  // The entry lives in the shared download cache, beside the downloaded objects.
  size_t entries = 0;
  for (auto& e : std::filesystem::recursive_directory_iterator(root_ + "/cache/columnar"))
    entries += e.path().extension() == ".parquet" ? 1 : 0;
  EXPECT_EQ(entries, 1u);

  NewSession(lim, "second");
  ASSERT_EQ(Code(Call("download", dl)), "");
  Json second = Call("query", {{"sql", sql}});
  ASSERT_EQ(Code(second), "") << second.dump();
  EXPECT_EQ(second["columnar_cache"][0]["state"], "cached");
  EXPECT_EQ(second["rows"], first["rows"]);
  EXPECT_EQ(second["types"], first["types"]);
  trace = *session_->ReadTrace();
  EXPECT_NE(trace.back()["summary"].get<std::string>().find("rows.txt: cached"), std::string::npos);

  // A session with the default threshold keeps such a small file on the direct path.
  NewSession(SessionLimits{}, "third");
  ASSERT_EQ(Code(Call("download", dl)), "");
  Json third = Call("query", {{"sql", sql}});
  ASSERT_EQ(Code(third), "") << third.dump();
  EXPECT_EQ(third["columnar_cache"][0]["state"], "direct");
  EXPECT_EQ(third["rows"], first["rows"]);
}

}  // namespace
}  // namespace lakeqa::tools::testing
