// graph::BuildIndex, the `index build` pipeline, called directly on a small local lake: every step's
// report, an incremental second build, and the failures that must leave no index behind.
#include "lakeqa/graph/index_pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lakeqa/common/fs.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::graph {
namespace {

class IndexPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-index-pipeline-");
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    root_ = *d;
    lake_ = root_ + "/lake";
    index_ = root_ + "/index";
    Put("datagov/parks/files/rows.csv", "name,acres\nA,10\nB,32\n");
    Put("datagov/parks/metadata.json", R"({"title": "City Parks Inventory"})");
    Put("datagov/libraries/files/rows.csv", "branch,books\nNorth,1200\n");
    Put("datagov/libraries/metadata.json", R"({"title": "Public Library Branches"})");
    Put("cmdbench/graph_nodes_Player/Player.csv",
        "wikidata_id:ID(Player),name\nP1,Dennis Rodman\nP2,Tall Guy\n");
    Put("cmdbench/graph_nodes_Team/Team.csv", "wikidata_id:ID(Team),name\nT1,Detroit Pistons\n");
    Put("cmdbench/graph_relation_playsFor/relation_playsFor.csv",
        ":START_ID(Player),:END_ID(Team)\nP1,T1\nP2,T1\n");
  }
  void TearDown() override {
    if (!root_.empty()) (void)RemoveAll(root_);
  }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(WriteFileAtomic(lake_ + "/" + key, data).ok());
  }
  IndexBuildOptions Options() const {
    IndexBuildOptions o;
    o.index_dir = index_;
    o.jobs = 1;
    o.progress = false;
    return o;
  }

  std::string root_, lake_, index_;
};

TEST_F(IndexPipelineTest, BuildsEveryIndexThenUpdatesIncrementally) {
  lake::LocalStore store(lake_);
  IndexBuildOptions o = Options();
  std::vector<Json> estimates;
  o.on_estimate = [&](const Json& e) { estimates.push_back(e); };
  auto r = BuildIndex(store, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(estimates.size(), 1u);
  EXPECT_EQ(estimates[0]["mode"], "full");  // auto on a local lake
  EXPECT_EQ(r->catalog.datasets, 5u);
  ASSERT_TRUE(r->text.has_value());
  EXPECT_EQ(r->text->datasets, 5u);
  EXPECT_EQ(r->text->added, 5u);
  EXPECT_EQ(r->graph.nodes, 3u);
  EXPECT_EQ(r->graph.edges, 2u);
  EXPECT_EQ(r->graph.node_files, 2u);
  EXPECT_EQ(r->graph.relation_files, 1u);
  ASSERT_NE(r->sources.Find("graph"), nullptr);
  EXPECT_EQ(r->sources.Find("graph")->datasets, 3u);
  EXPECT_TRUE(r->paragraphs.has_value());
  EXPECT_FALSE(r->vectors.has_value());
  EXPECT_TRUE(PathExists(index_ + "/catalog.sqlite"));
  EXPECT_TRUE(PathExists(index_ + "/text"));
  EXPECT_TRUE(PathExists(index_ + "/sources.json"));
  EXPECT_TRUE(PathExists(index_ + "/graph"));
  Json j = r->ToJson();
  EXPECT_EQ(j["index"], index_);
  EXPECT_EQ(j["lake"], store.Uri());
  EXPECT_EQ(j["sources"]["graph"], 3);
  EXPECT_EQ(j["graph"]["nodes"], 3);
  EXPECT_EQ(j["text"]["datasets"], 5);
  EXPECT_FALSE(j.contains("vectors"));

  // Nothing changed: the text index keeps every dataset.
  Put("datagov/parks/files/rows.csv", "name,acres\nA,10\nB,32\nC,7\n");
  auto again = BuildIndex(store, Options());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->text->added, 0u);
  EXPECT_EQ(again->text->updated, 1u);
  EXPECT_EQ(again->text->unchanged, 4u);
}

TEST_F(IndexPipelineTest, CatalogOnlyBuildsNoTextIndexAndNoParagraphs) {
  lake::LocalStore store(lake_);
  IndexBuildOptions o = Options();
  o.text = false;
  auto r = BuildIndex(store, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->text.has_value());
  EXPECT_FALSE(r->paragraphs.has_value());
  EXPECT_FALSE(PathExists(index_ + "/text"));
  EXPECT_EQ(r->graph.nodes, 3u);  // the graph is built all the same
  EXPECT_FALSE(r->ToJson().contains("text"));
}

TEST_F(IndexPipelineTest, BadOptionsFailBeforeAnIndexIsWritten) {
  lake::LocalStore store(lake_);
  IndexBuildOptions o = Options();
  o.vectors = "word2vec";
  auto r = BuildIndex(store, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("--vectors"), std::string::npos) << r.status().ToString();
  EXPECT_FALSE(PathExists(index_ + "/catalog.sqlite"));

  o = Options();
  o.profile = "everything";
  r = BuildIndex(store, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(PathExists(index_ + "/catalog.sqlite"));

  o = Options();
  o.chunks = true;
  o.chunk.window = 0;
  r = BuildIndex(store, o);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(PathExists(index_ + "/catalog.sqlite"));
}

TEST_F(IndexPipelineTest, AnotherLakesIndexIsRefusedUnlessForcedAndTheWarningIsReported) {
  lake::LocalStore store(lake_);
  ASSERT_TRUE(BuildIndex(store, Options()).ok());
  const std::string other = root_ + "/other";
  ASSERT_TRUE(WriteFileAtomic(other + "/datagov/zoo/files/rows.csv", "animal,n\nlion,2\n").ok());
  lake::LocalStore other_store(other);
  auto refused = BuildIndex(other_store, Options());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("force"), std::string::npos) << refused.status().ToString();

  IndexBuildOptions o = Options();
  o.force_other_lake = true;
  std::vector<std::string> warnings;
  o.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  auto forced = BuildIndex(other_store, o);
  ASSERT_TRUE(forced.ok()) << forced.status().ToString();
  EXPECT_EQ(warnings, forced->catalog.warnings);
  EXPECT_FALSE(warnings.empty());
  EXPECT_EQ(forced->catalog.datasets, 1u);
}

}  // namespace
}  // namespace lakeqa::graph
