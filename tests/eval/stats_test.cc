#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "eval/test_util.h"
#include "lakeqa/eval/answer_type.h"
#include "lakeqa/eval/stats.h"

namespace lakeqa::eval {
namespace {

TEST(AnswerTypeTest, Classifies) {
  auto c = [](const Json& a, std::string_view q = "How many?") {
    return AnswerTypeName(ClassifyAnswer(a, q));
  };
  EXPECT_EQ(c(2643), "numeric");
  EXPECT_EQ(c(26010.5), "numeric");
  EXPECT_EQ(c("1,046"), "numeric");
  EXPECT_EQ(c("-0.61"), "numeric");
  EXPECT_EQ(c("16.7%"), "numeric");
  EXPECT_EQ(c("$1.2 million"), "numeric");
  EXPECT_EQ(c("1,04"), "entity");
  EXPECT_EQ(c("01/13/1892"), "temporal");
  EXPECT_EQ(c("2019-03-01"), "temporal");
  EXPECT_EQ(c("February 25, 1881"), "temporal");
  EXPECT_EQ(c("1990s"), "temporal");
  EXPECT_EQ(c("1881", "In what year was it incorporated?"), "temporal");
  EXPECT_EQ(c(1881, "When was it founded?"), "temporal");
  EXPECT_EQ(c("1881", "How many residents?"), "numeric");
  EXPECT_EQ(c("Montpelier"), "entity");
  EXPECT_EQ(c("Yes"), "entity");
  EXPECT_EQ(c("May Day Parade"), "entity");
  EXPECT_EQ(c(Json::array({"a", "b"})), "entity");
}

TEST(StatsTest, SmallSet) {
  const text::Cl100kTokenizer* tok = testing::SharedTokenizer();
  if (tok == nullptr) GTEST_SKIP() << "no cl100k ranks at " << testing::RanksPath();
  Task a;
  a.question = "hello world";
  a.answer = 3;
  a.datasets_used = {"wikipedia/A/content.txt", "datagov/b/files/rows.txt", "datagov/b/signed-metadata.txt"};
  a.nodes = {Node{"1", "wikipedia/A/content.txt", "", "", "x", {}},
             Node{"2", "datagov/b/files/rows.txt", "", "", 3, {}}};
  a.hops = {Hop{1, {"1", "2"}, {}, Json()}};
  Task b = a;
  b.question = "The quick brown fox.";
  b.answer = "Fox";
  b.datasets_used = {"datagov/c/files/x.csv"};
  b.nodes = {Node{"1", "datagov/c/files/x.csv", "", "", "Fox", {}}};
  b.hops = {Hop{1, {"1"}, {}, Json()}};
  TaskSetStats s = ComputeStats({a, b}, *tok, "small");
  EXPECT_EQ(s.tasks, 2u);
  EXPECT_EQ(s.question_tokens_max, 5u);
  EXPECT_DOUBLE_EQ(s.question_tokens_avg, 3.5);
  EXPECT_DOUBLE_EQ(s.AvgDocuments("wikipedia"), 0.5);
  EXPECT_DOUBLE_EQ(s.AvgDocuments("datagov"), 1.5);
  EXPECT_EQ(s.namespaces["datagov"].datasets, 2u);  // b and c
  EXPECT_EQ(s.namespaces["datagov"].tasks, 2u);
  EXPECT_EQ(s.hops, (std::map<int, size_t>{{1, 2}}));
  EXPECT_EQ(s.in_degree, (std::map<int, size_t>{{1, 1}, {2, 1}}));
  EXPECT_EQ(s.answer_types["numeric"], 1u);
  EXPECT_EQ(s.answer_types["entity"], 1u);
  EXPECT_EQ(s.answer_types["temporal"], 0u);
  std::string table = FormatStatsTable({s});
  EXPECT_NE(table.find("Avg. Data.gov docs/task"), std::string::npos) << table;
  EXPECT_NE(table.find("1.50"), std::string::npos) << table;
  Json j = s.ToJson();
  EXPECT_EQ(j["question_tokens_max"], 5);
  EXPECT_EQ(j["in_degree"]["2"], 1);
}

// The paper's Table 2 (full / mini): tasks 1007 / 135, Wikipedia docs 2.06 / 2.40, Data.gov docs
// 11.06 / 12.27, question tokens max 255 / 220, avg 101.06 / 93.04. The full set here has 1006 tasks
// because task_37 is malformed; counted with its "upstream" side its question has 167 tokens, which
// brings the average to exactly 101.06 (docs/tasks.md).
TEST(StatsTest, ReproducesTable2) {
  const text::Cl100kTokenizer* tok = testing::SharedTokenizer();
  if (tok == nullptr) GTEST_SKIP() << "no cl100k ranks at " << testing::RanksPath();
  std::string root = testing::SharedData() + "/lakeqa-tasks";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "shared data not found: " << root;
  auto round2 = [](double v) { return std::round(v * 100) / 100; };

  TaskSetStats full = ComputeStats(LoadTasks({root + "/lakeqa-full"}).tasks, *tok, "full");
  EXPECT_EQ(full.tasks, 1006u);
  EXPECT_EQ(full.question_tokens_max, 255u);
  EXPECT_DOUBLE_EQ(round2(full.question_tokens_avg), 101.0);  // 101605 / 1006
  EXPECT_EQ(full.namespaces["wikipedia"].documents, 2076u);
  EXPECT_EQ(full.namespaces["datagov"].documents, 11113u);
  EXPECT_DOUBLE_EQ(round2(full.AvgDocuments("wikipedia")), 2.06);
  EXPECT_DOUBLE_EQ(round2(full.AvgDocuments("datagov")), 11.05);

  TaskSetStats mini = ComputeStats(LoadTasks({root + "/lakeqa_mini"}).tasks, *tok, "mini");
  EXPECT_EQ(mini.tasks, 135u);
  EXPECT_EQ(mini.question_tokens_max, 220u);
  EXPECT_DOUBLE_EQ(round2(mini.question_tokens_avg), 93.04);
  EXPECT_DOUBLE_EQ(round2(mini.AvgDocuments("wikipedia")), 2.40);
  EXPECT_DOUBLE_EQ(round2(mini.AvgDocuments("datagov")), 12.25);

  size_t by_type = 0;
  for (const auto& [t, n] : full.answer_types) by_type += n;
  EXPECT_EQ(by_type, 1006u);
  size_t by_k = 0;
  for (const auto& [k, n] : full.hops) by_k += n;
  EXPECT_EQ(by_k, 1006u);
}

}  // namespace
}  // namespace lakeqa::eval
