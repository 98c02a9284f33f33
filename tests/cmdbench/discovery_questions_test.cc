// CMDBench's table-discovery questions as a relevance collection (moved from tests/eval/discovery_test.cc).
#include <gtest/gtest.h>

#include "eval/test_util.h"
#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::cmdbench {
namespace {

using namespace eval;

TEST(DiscoveryQuestionsTest, MapsTablesToCmdbenchDatasetIds) {
  EXPECT_EQ(CmdbenchTableDatasetId("t_1_13619135_7"), "cmdbench/t_1_13619135_7");
  auto dir = MakeTempDir("lakeqa-discovery-");
  ASSERT_TRUE(dir.ok());
  std::string good = *dir + "/q.json", bad = *dir + "/bad.json";
  ASSERT_TRUE(
      WriteFileAtomic(good, R"([{"qid": "a", "question": "Who?", "provenance_table": {"table": "t_1_2_3"}},
    {"qid": 7, "question": "Which?", "provenance_table": {"table": ["t_1", "t_2", "t_1"]}}])")
          .ok());
  auto qs = LoadCmdbenchQuestions(good);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_EQ(qs->size(), 2u);
  EXPECT_EQ((*qs)[0].gold, std::vector<std::string>{"cmdbench/t_1_2_3"});
  EXPECT_EQ((*qs)[1].qid, "7");
  EXPECT_EQ((*qs)[1].gold, (std::vector<std::string>{"cmdbench/t_1", "cmdbench/t_2"}));
  ASSERT_TRUE(WriteFileAtomic(
                  bad,
                  "[\n  {\"qid\": \"w\", \"question\": \"Who?\", \"provenance_table\": {\"table\": \"t\"}},\n"
                  "  {\"qid\": \"x\", \"question\": \"Who?\"}\n]")
                  .ok());
  auto b = LoadCmdbenchQuestions(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("bad.json:3: item 1 (x)"), std::string::npos) << b.status().message();
  ASSERT_TRUE(WriteFileAtomic(bad, "[\n{\"qid\": 1,\n \"question\": }]").ok());
  b = LoadCmdbenchQuestions(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("bad.json:3:"), std::string::npos) << b.status().message();
  EXPECT_FALSE(LoadCmdbenchQuestions(*dir + "/missing.json").ok());
  (void)RemoveAll(*dir);
}

// Issue 30, item 12: --questions takes a folder of question files (qids unique across them), and says what
// it expects when the folder holds none.
TEST(DiscoveryQuestionsTest, AFolderOfQuestionFilesIsOneCollection) {
  auto dir = MakeTempDir("lakeqa-discovery-dir-");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(MakeDirs(*dir + "/qs").ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/qs/b.json",
                              R"([{"qid": "b1", "question": "Who?", "provenance_table": {"table": "t_2"}}])")
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/qs/a.json",
                              R"([{"qid": "a1", "question": "What?", "provenance_table": {"table": "t_1"}}])")
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/qs/notes.txt", "not a question file").ok());
  auto qs = LoadCmdbenchQuestions(*dir + "/qs");
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_EQ(qs->size(), 2u);
  EXPECT_EQ((*qs)[0].qid, "a1");
  EXPECT_EQ((*qs)[1].gold, std::vector<std::string>{"cmdbench/t_2"});
  ASSERT_TRUE(
      WriteFileAtomic(*dir + "/qs/c.json",
                      R"([{"qid": "a1", "question": "Again?", "provenance_table": {"table": "t_3"}}])")
          .ok());
  auto dup = LoadCmdbenchQuestions(*dir + "/qs");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("qid 'a1' appears twice (first at " + *dir + "/qs/a.json:1)"),
            std::string::npos)
      << dup.status().message();
  ASSERT_TRUE(MakeDirs(*dir + "/empty").ok());
  auto empty = LoadCmdbenchQuestions(*dir + "/empty");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(empty.status().message().find("--questions takes a CMDBench table-discovery question file"),
            std::string::npos)
      << empty.status().message();
  (void)RemoveAll(*dir);
}

TEST(DiscoveryQuestionsTest, ReadsTheSharedExamples) {
  std::string path = eval::testing::SharedData() + "/cmdbench-nba/examples/q_table_examples.json";
  if (!PathExists(path)) GTEST_SKIP() << "no " << path << " (shared data absent)";
  auto qs = LoadCmdbenchQuestions(path);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_FALSE(qs->empty());
  for (const auto& q : *qs) {
    ASSERT_EQ(q.gold.size(), 1u);
    EXPECT_EQ(q.gold[0].rfind("cmdbench/t_", 0), 0u) << q.qid;
  }
}

}  // namespace
}  // namespace lakeqa::cmdbench
