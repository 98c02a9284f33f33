// Typed reads of real tool results, full and compact, as the agents use them (tools/results.h).
#include "lakeqa/tools/results.h"

#include "tools/fixture.h"

namespace lakeqa::tools::testing {
namespace {

using ResultsTest = ToolsFixture;

std::vector<std::string> Qualified(const std::vector<ResultDataset>& v) {
  std::vector<std::string> out;
  for (const auto& d : v) out.push_back(d.Qualified());
  return out;
}

TEST_F(ResultsTest, SearchHitsInBothViews) {
  Json full = Call("search", {{"prefixes", {"apd", "Austin"}}});
  ASSERT_EQ(Code(full), "") << full.dump();
  std::vector<std::string> expected = {"datagov/apd-searches-by-type", "wikipedia/apd-searches-by-type",
                                       "wikipedia/Austin,_Texas"};
  EXPECT_EQ(Qualified(SearchHits(full)), expected);
  EXPECT_EQ(SearchHits(full)[0].ns, "datagov");
  EXPECT_EQ(SearchHits(full)[0].id, "apd-searches-by-type");
  Json compact = Call("search", {{"prefixes", {"apd", "Austin"}}, {"view", "compact"}});
  ASSERT_EQ(Code(compact), "") << compact.dump();
  EXPECT_EQ(Qualified(SearchHits(compact)), expected);
  Json error = Call("search", {{"nonesuch", 1}});
  EXPECT_NE(Code(error), "");
  EXPECT_TRUE(SearchHits(error).empty());
}

TEST_F(ResultsTest, DownloadedFiles) {
  Json r = Call("download",
                {{"files", {{{"dataset_id", "datagov/austin-water"}, {"file_path", "files/data.csv"}}}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  auto files = DownloadedFiles(r);
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].dataset.Qualified(), "datagov/austin-water");
  EXPECT_EQ((*files)[0].local_path, r["downloaded"][0]["local_path"]);
  EXPECT_FALSE(
      DownloadedFiles(Call("download", {{"files", {{{"dataset_id", "nonesuch"}, {"file_path", "x"}}}}})));
  EXPECT_FALSE(DownloadedFiles(Json::array()));
}

}  // namespace
}  // namespace lakeqa::tools::testing
