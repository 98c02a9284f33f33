// Discovery metrics against a brute-force reference: R@k and friends from their set definitions, and
// the random-tie R@1 by enumerating every ordering of the tied hits.
#include "lakeqa/eval/discovery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "eval/test_util.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::eval {
namespace {

std::vector<ScoredId> Ranked(std::vector<std::pair<std::string, double>> v) {
  std::vector<ScoredId> out;
  for (auto& [id, s] : v) out.push_back({id, s});
  return out;
}

// Reference: recall from the definition.
double RecallAt(const std::vector<ScoredId>& r, const std::set<std::string>& gold, size_t j, size_t k) {
  std::set<std::string> top;
  for (size_t i = 0; i < std::min({j, k, r.size()}); ++i) top.insert(r[i].id);
  size_t n = 0;
  for (const auto& g : gold) n += top.count(g);
  return static_cast<double>(n) / static_cast<double>(gold.size());
}

// Reference: R@1 averaged over every permutation of the top tie group.
double RandomTieR1(const std::vector<ScoredId>& r, const std::set<std::string>& gold) {
  if (r.empty()) return 0;
  std::vector<std::string> tied;
  for (const auto& s : r) {
    if (s.score == r[0].score) tied.push_back(s.id);
  }
  std::sort(tied.begin(), tied.end());
  double sum = 0;
  size_t perms = 0;
  do {
    sum += gold.count(tied[0]) ? 1.0 / static_cast<double>(gold.size()) : 0.0;
    ++perms;
  } while (std::next_permutation(tied.begin(), tied.end()));
  return sum / static_cast<double>(perms);
}

TEST(DiscoveryMetricsTest, MatchBruteForceOnHandCases) {
  struct Case {
    std::vector<ScoredId> ranked;
    std::vector<std::string> gold;
    size_t k;
  };
  std::vector<Case> cases = {
      {Ranked({{"a", 3}, {"b", 2}, {"c", 1}}), {"a"}, 10},
      {Ranked({{"a", 3}, {"b", 2}, {"c", 1}}), {"c"}, 10},
      {Ranked({{"a", 3}, {"b", 2}, {"c", 1}}), {"c"}, 2},  // gold beyond the depth
      {Ranked({{"a", 3}, {"b", 2}, {"c", 1}}), {"z"}, 10},
      {Ranked({}), {"a"}, 10},
      {Ranked({{"a", 2}, {"b", 2}, {"c", 2}, {"d", 1}}), {"c"}, 10},  // three-way tie at the top
      {Ranked({{"a", 2}, {"b", 2}, {"c", 1}, {"d", 1}}), {"b", "d"}, 10},
      {Ranked({{"x", 5}, {"g1", 4}, {"y", 3}, {"g2", 2}, {"z", 1}, {"g3", 1}}), {"g1", "g2", "g3"}, 10},
      {Ranked({{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", 1}}), {"a", "e"}, 3},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    std::set<std::string> gold(c.gold.begin(), c.gold.end());
    DiscoveryMetrics m = ComputeDiscoveryMetrics(c.ranked, c.gold, c.k);
    SCOPED_TRACE("case " + std::to_string(i));
    EXPECT_DOUBLE_EQ(m.r_at_1, RecallAt(c.ranked, gold, 1, c.k));
    EXPECT_DOUBLE_EQ(m.r_at_3, RecallAt(c.ranked, gold, 3, c.k));
    EXPECT_DOUBLE_EQ(m.r_at_5, RecallAt(c.ranked, gold, 5, c.k));
    EXPECT_DOUBLE_EQ(m.r_at_10, RecallAt(c.ranked, gold, 10, c.k));
    EXPECT_DOUBLE_EQ(m.r_precision, RecallAt(c.ranked, gold, gold.size(), c.k));
    double p1 = !c.ranked.empty() && c.k > 0 && gold.count(c.ranked[0].id) ? 1.0 : 0.0;
    EXPECT_DOUBLE_EQ(m.p_at_1, p1);
    double rr = 0;
    for (size_t j = 0; j < std::min(c.k, c.ranked.size()); ++j) {
      if (gold.count(c.ranked[j].id)) {
        rr = 1.0 / static_cast<double>(j + 1);
        break;
      }
    }
    EXPECT_DOUBLE_EQ(m.mrr, rr);
    EXPECT_NEAR(m.r_at_1_random, RandomTieR1(c.ranked, gold), 1e-12);
  }
  // Spot values, so the reference itself is pinned.
  DiscoveryMetrics tie = ComputeDiscoveryMetrics(cases[5].ranked, cases[5].gold, 10);
  EXPECT_DOUBLE_EQ(tie.r_at_1, 0.0);
  EXPECT_NEAR(tie.r_at_1_random, 1.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(tie.mrr, 1.0 / 3.0);
  DiscoveryMetrics three = ComputeDiscoveryMetrics(cases[7].ranked, cases[7].gold, 10);
  EXPECT_DOUBLE_EQ(three.r_precision, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(three.r_at_5, 2.0 / 3.0);
}

TEST(DiscoveryQuestionsTest, MapsTablesToCmdbenchDatasetIds) {
  EXPECT_EQ(CmdbenchTableDatasetId("t_1_13619135_7"), "cmdbench/t_1_13619135_7");
  auto dir = MakeTempDir("lakeqa-discovery-");
  ASSERT_TRUE(dir.ok());
  std::string good = *dir + "/q.json", bad = *dir + "/bad.json";
  ASSERT_TRUE(WriteFileAtomic(good, R"([{"qid": "a", "question": "Who?", "provenance_table": {"table": "t_1_2_3"}},
    {"qid": 7, "question": "Which?", "provenance_table": {"table": ["t_1", "t_2", "t_1"]}}])").ok());
  auto qs = LoadCmdbenchQuestions(good);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_EQ(qs->size(), 2u);
  EXPECT_EQ((*qs)[0].gold, std::vector<std::string>{"cmdbench/t_1_2_3"});
  EXPECT_EQ((*qs)[1].qid, "7");
  EXPECT_EQ((*qs)[1].gold, (std::vector<std::string>{"cmdbench/t_1", "cmdbench/t_2"}));
  ASSERT_TRUE(WriteFileAtomic(bad, R"([{"qid": "x", "question": "Who?"}])").ok());
  auto b = LoadCmdbenchQuestions(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("bad.json: item 0 (x)"), std::string::npos) << b.status().message();
  EXPECT_FALSE(LoadCmdbenchQuestions(*dir + "/missing.json").ok());
  (void)RemoveAll(*dir);
}

TEST(DiscoveryQuestionsTest, ReadsTheSharedExamples) {
  std::string path = testing::SharedData() + "/cmdbench-nba/examples/q_table_examples.json";
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
}  // namespace lakeqa::eval
