// Discovery metrics against a brute-force reference: R@k and friends from their set definitions, and
// the random-tie R@1 by enumerating every ordering of the tied hits.
#include "lakeqa/eval/discovery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "eval/test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task.h"

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

TEST(DiscoveryMetricsTest, TwinOkCountsACopyOfTheGoldOnce) {
  // t_1_X and t_2_X are copies of one table; u_1 / u_2 another pair none of which is gold.
  std::map<std::string, std::vector<std::string>> groups = {
      {"t_1", {"t_1", "t_2"}}, {"t_2", {"t_1", "t_2"}}, {"u_1", {"u_1", "u_2"}}, {"u_2", {"u_1", "u_2"}}};
  auto twins = [&](const std::string& id) {
    auto it = groups.find(id);
    return it == groups.end() ? std::vector<std::string>{} : it->second;
  };
  // The copy ranks first, the gold second: strict P@1 0, twin-ok P@1 1; the gold itself at rank 2 is then
  // a second copy and no hit, so twin-ok R@3 stays 1 (not 2).
  auto ranked = Ranked({{"t_1", 3}, {"t_2", 3}, {"u_1", 2}, {"x", 1}});
  DiscoveryMetrics strict = ComputeDiscoveryMetrics(ranked, {"t_2"}, 10);
  auto twin = TwinOkRanking(ranked, {"t_2"}, twins);
  ASSERT_EQ(twin.size(), ranked.size());
  EXPECT_EQ(twin[0].id, "t_2");
  EXPECT_NE(twin[1].id, "t_2");
  EXPECT_EQ(twin[2].id, "u_1");  // not a copy of a gold dataset: unchanged
  DiscoveryMetrics ok = ComputeDiscoveryMetrics(twin, {"t_2"}, 10);
  EXPECT_DOUBLE_EQ(strict.p_at_1, 0.0);
  EXPECT_DOUBLE_EQ(strict.mrr, 0.5);
  EXPECT_DOUBLE_EQ(ok.p_at_1, 1.0);
  EXPECT_DOUBLE_EQ(ok.mrr, 1.0);
  EXPECT_DOUBLE_EQ(ok.r_at_3, 1.0);
  // Both copies gold: each counts as itself.
  auto both = TwinOkRanking(ranked, {"t_1", "t_2"}, twins);
  EXPECT_EQ(both[0].id, "t_1");
  EXPECT_EQ(both[1].id, "t_2");
  // No groups: the ranking is unchanged.
  auto none = TwinOkRanking(ranked, {"t_2"}, [](const std::string&) { return std::vector<std::string>{}; });
  for (size_t i = 0; i < ranked.size(); ++i) EXPECT_EQ(none[i].id, ranked[i].id);
}

// nDCG@10 from its definition, with graded relevance.
double ReferenceNdcg(const std::vector<ScoredId>& r, const std::map<std::string, int>& grade, size_t k) {
  auto gain = [&](const std::string& id) {
    auto it = grade.find(id);
    return it == grade.end() ? 0.0 : std::pow(2.0, it->second) - 1.0;
  };
  double dcg = 0;
  for (size_t i = 0; i < std::min({r.size(), k, size_t{10}}); ++i) dcg += gain(r[i].id) / std::log2(i + 2.0);
  std::vector<double> g;
  for (const auto& [id, x] : grade) g.push_back(std::pow(2.0, x) - 1.0);
  std::sort(g.rbegin(), g.rend());
  double ideal = 0;
  for (size_t i = 0; i < std::min({g.size(), k, size_t{10}}); ++i) ideal += g[i] / std::log2(i + 2.0);
  return ideal > 0 ? dcg / ideal : 0;
}

TEST(DiscoveryMetricsTest, NdcgMatchesItsDefinition) {
  std::vector<ScoredId> r = Ranked({{"a", 9},
                                    {"b", 8},
                                    {"c", 7},
                                    {"d", 6},
                                    {"e", 5},
                                    {"f", 4},
                                    {"g", 3},
                                    {"h", 2},
                                    {"i", 1},
                                    {"j", 0.5},
                                    {"k", 0.2}});
  const std::map<std::string, int> grades[] = {
      {{"a", 1}}, {{"c", 3}, {"k", 1}}, {{"z", 2}}, {{"b", 1}, {"j", 2}, {"e", 3}}};
  for (const auto& grade : grades) {
    std::vector<std::string> gold;
    for (const auto& [id, x] : grade) gold.push_back(id);
    for (size_t k : {size_t{3}, size_t{10}}) {
      DiscoveryMetrics m = ComputeDiscoveryMetrics(r, gold, k, grade);
      EXPECT_NEAR(m.ndcg_at_10, ReferenceNdcg(r, grade, k), 1e-12);
    }
  }
  EXPECT_DOUBLE_EQ(ComputeDiscoveryMetrics(r, {"a"}, 10).ndcg_at_10, 1.0);
  EXPECT_NEAR(ComputeDiscoveryMetrics(r, {"b"}, 10).ndcg_at_10, 1.0 / std::log2(3.0), 1e-12);
}

TEST(DiscoveryQuestionsTest, LakeQaTasksGiveTheirDistinctDatasets) {
  auto dir = MakeTempDir("lakeqa-discovery-");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(MakeDirs(*dir + "/k-1-d-1").ok());
  // A valid one-hop task: its node reads the first dataset of datasets_used.
  auto task = [](const std::string& id, const std::string& q, const std::string& used) {
    std::string first = used.substr(0, used.find(','));
    return "{\"question_id\": \"" + id + "\", \"question\": \"" + q +
           "\", \"answer\": \"1\", \"nodes\": {\"1\": "
           "{\"source\": " +
           first + ", \"fact\": \"answer = 1\", \"subquestion\": \"" + q +
           "\", \"answer\": \"1\"}}, "
           "\"datasets_used\": [" +
           used +
           "], \"reasoning_hops\": [{\"hop\": 1, \"node_ids\": [1], "
           "\"reasoning\": [\"Node 1.\"], \"answer\": \"1\"}]}";
  };
  ASSERT_TRUE(WriteFileAtomic(*dir + "/k-1-d-1/task_1.json",
                              task("T1", "How many airports in Austin?",
                                   "\"wikipedia/Texas/content.txt\", \"datagov/airports/files/rows.txt\", "
                                   "\"datagov/airports/files/other.csv\""))
                  .ok());
  ASSERT_TRUE(
      WriteFileAtomic(*dir + "/k-1-d-1/task_2.json", task("T2", "Which park?", "\"datagov/parks/a.csv\""))
          .ok());
  auto qs = LoadLakeQaQuestions({*dir});
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_EQ(qs->size(), 2u);
  EXPECT_EQ((*qs)[0].qid, "T1");
  EXPECT_EQ((*qs)[0].gold, (std::vector<std::string>{"wikipedia/Texas", "datagov/airports"}));
  // A malformed task file is an error naming file:line:column, unless asked to skip it.
  ASSERT_TRUE(
      WriteFileAtomic(*dir + "/k-1-d-1/task_3.json", "{\"question_id\": \"T3\",\n \"question\": }").ok());
  auto bad = LoadLakeQaQuestions({*dir});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("task_3.json:2:"), std::string::npos) << bad.status().message();
  std::vector<std::string> skipped;
  auto some = LoadLakeQaQuestions({*dir}, /*skip_bad=*/true, &skipped);
  ASSERT_TRUE(some.ok());
  EXPECT_EQ(some->size(), 2u);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("task_3.json"), std::string::npos);
  (void)RemoveAll(*dir);
}

TEST(DiscoveryQuestionsTest, TrecTopicsAndQrels) {
  auto dir = MakeTempDir("lakeqa-discovery-");
  ASSERT_TRUE(dir.ok());
  std::string topics = *dir + "/topics.tsv", qrels = *dir + "/qrels.txt", sgml = *dir + "/topics.sgml";
  ASSERT_TRUE(WriteFileAtomic(topics, "1\traptors game log\n\n2\tjazz roster\n").ok());
  ASSERT_TRUE(
      WriteFileAtomic(qrels, "1 0 cmdbench/a 1\n1 0 cmdbench/b 2\n1 0 cmdbench/c 0\n2\t0\tcmdbench/d\t1\n")
          .ok());
  auto qs = LoadTrecQuestions(topics, qrels);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_EQ(qs->size(), 2u);
  EXPECT_EQ((*qs)[0].question, "raptors game log");
  EXPECT_EQ((*qs)[0].gold,
            (std::vector<std::string>{"cmdbench/a", "cmdbench/b"}));  // relevance 0 is not relevant
  EXPECT_EQ((*qs)[0].grade.at("cmdbench/b"), 2);
  EXPECT_EQ((*qs)[1].where, topics + ":3");
  ASSERT_TRUE(WriteFileAtomic(sgml,
                              "<top>\n<num> Number: 301\n<title> raptors\ngame log\n<desc> ...\n</top>\n"
                              "<top>\n<num> Number: 302\n<title> jazz\n</top>\n")
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(qrels, "301 0 x 1\n302 0 y 1\n").ok());
  qs = LoadTrecQuestions(sgml, qrels);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  EXPECT_EQ((*qs)[0].qid, "301");
  EXPECT_EQ((*qs)[0].question, "raptors game log");
  struct Bad {
    std::string topics, qrels, says;
  };
  const Bad cases[] = {
      {"1\tq\n", "1 0 x\n", "qrels.txt:1: expected"},
      {"1\tq\n", "1 0 x one\n", "qrels.txt:1: relevance 'one'"},
      {"1\tq\n", "1 0 x 1\n9 0 y 1\n", "qrels.txt:2: qrels for topic '9'"},
      {"1\tq\n2\tr\n", "1 0 x 1\n", "topics.tsv:2: topic 2 has no relevant"},
      {"1 q\n", "1 0 x 1\n", "topics.tsv:1: expected <qid><TAB>"},
      {"1\tq\n1\tr\n", "1 0 x 1\n", "topics.tsv:2: topic 1 appears twice"},
  };
  for (const Bad& c : cases) {
    ASSERT_TRUE(WriteFileAtomic(topics, c.topics).ok());
    ASSERT_TRUE(WriteFileAtomic(qrels, c.qrels).ok());
    auto r = LoadTrecQuestions(topics, qrels);
    ASSERT_FALSE(r.ok()) << c.says;
    EXPECT_NE(r.status().message().find(c.says), std::string::npos) << r.status().message();
  }
  (void)RemoveAll(*dir);
}

TEST(DiscoveryReportTest, TrecRunExpectationsAndGrid) {
  DiscoveryReport r;
  QuestionResult q;
  q.question.qid = "7";
  q.top = Ranked({{"cmdbench/a", 2.5}, {"cmdbench/b", 1}});
  r.questions.push_back(q);
  EXPECT_EQ(r.TrecRun("lq"), "7 Q0 cmdbench/a 1 2.500000 lq\n7 Q0 cmdbench/b 2 1.000000 lq\n");

  DiscoveryMetrics got;
  got.p_at_1 = 0.80;
  got.r_at_5 = 0.90;
  Json expected = {{"tolerance", 0.02}, {"modes", {{"bm25", {{"p@1", 0.81}, {"r@5", 0.95}}}}}};
  auto c = CheckExpectedMetrics(expected, "bm25", got);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->size(), 1u);  // p@1 is within the tolerance, r@5 is not
  EXPECT_NE((*c)[0].find("r@5 0.900 < expected 0.950"), std::string::npos) << (*c)[0];
  EXPECT_FALSE(CheckExpectedMetrics(expected, "hybrid", got).ok());
  EXPECT_FALSE(CheckExpectedMetrics(Json{{"metrics", {{"precision", 1}}}}, "bm25", got).ok());

  auto g = ParseTuneGrid("k1=0.6, 1.2; title.weight=2,3");
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(g->size(), 2u);
  EXPECT_EQ((*g)[0].second, (std::vector<double>{0.6, 1.2}));
  EXPECT_FALSE(ParseTuneGrid("k1").ok());
  EXPECT_FALSE(ParseTuneGrid("k1=high").ok());
  EXPECT_FALSE(ParseTuneGrid("").ok());
}

}  // namespace
}  // namespace lakeqa::eval
