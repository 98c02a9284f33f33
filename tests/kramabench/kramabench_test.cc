// KramaBench workloads, metrics and aggregation. Bad input first; then data_sources resolution against a
// checkout laid out in a temp folder (data written here, in KramaBench's layout); then the metrics against
// values KramaBench's own metrics.py computed (tests/kramabench/metrics_cases.py prints them) and, for
// BLEU and ROUGE, which need nltk/rouge_score, values worked out by hand.
#include "lakeqa/kramabench/kramabench.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/discovery.h"
#include "lakeqa/eval/em.h"
#include "lakeqa/eval/validate.h"

namespace lakeqa::kramabench {
namespace {

using namespace eval;

class Checkout : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-kb-eval");
    ASSERT_TRUE(d.ok());
    root_ = *d;
  }
  void TearDown() override { (void)RemoveAll(root_); }
  void Put(const std::string& rel, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root_ + "/" + rel).parent_path());
    ASSERT_TRUE(WriteFileAtomic(root_ + "/" + rel, text).ok());
  }
  LoadResult Load(const std::string& workload_json) {
    Put("workload/fire.json", workload_json);
    return LoadTasks({root_ + "/workload/fire.json"});
  }
  std::string root_;
};

// ---- bad input -----------------------------------------------------------------------------------------

TEST_F(Checkout, MalformedTasksAreReportedPerTaskAndTheRestLoads) {
  auto r = Load(R"([
    {"id": "fire-easy-1", "query": "q", "answer": 1, "answer_type": "numeric_exact", "data_sources": []},
    {"query": "q", "answer": 1, "answer_type": "numeric_exact"},
    {"id": "fire-easy-3", "answer": 1, "answer_type": "numeric_exact"},
    {"id": "fire-easy-4", "query": "q", "answer_type": "numeric_exact"},
    {"id": "fire-easy-5", "query": "q", "answer": 1, "answer_type": 7},
    "not a task"
  ])");
  ASSERT_EQ(r.tasks.size(), 1u);
  ASSERT_EQ(r.errors.size(), 5u);
  EXPECT_NE(r.errors[0].status.message().find("fire.json[1]: \"id\" is missing"), std::string::npos)
      << r.errors[0].status.message();
  EXPECT_NE(r.errors[1].status.message().find("[2] (fire-easy-3): \"query\""), std::string::npos);
  EXPECT_NE(r.errors[2].status.message().find("(fire-easy-4): \"answer\" is missing"), std::string::npos);
  EXPECT_NE(r.errors[3].status.message().find("(fire-easy-5): \"answer_type\""), std::string::npos);
  EXPECT_NE(r.errors[4].status.message().find("[5]: a KramaBench task must be a JSON object"),
            std::string::npos);
}

TEST_F(Checkout, UnknownAnswerTypeAndMissingSourceAreReportedPerTask) {
  Put("data/fire/input/a.csv", "x\n1\n");
  auto r = Load(R"([
    {"id": "fire-hard-1", "query": "q", "answer": "x", "answer_type": "fuzzy_text", "data_sources": ["a.csv"]},
    {"id": "fire-easy-2", "query": "q", "answer": 2, "answer_type": "numeric_exact",
     "data_sources": ["a.csv", "gone.gpkg"]}
  ])");
  ASSERT_EQ(r.tasks.size(), 2u);
  ValidationReport v = Validate(r);
  EXPECT_EQ(v.tasks_valid, 1u);
  EXPECT_EQ(v.errors, 1u);
  ASSERT_GE(v.issues.size(), 2u);
  EXPECT_EQ(v.issues[0].task_id, "fire-hard-1");
  EXPECT_NE(v.issues[0].message.find("unknown answer_type 'fuzzy_text'"), std::string::npos)
      << v.issues[0].message;
  EXPECT_EQ(v.issues[1].task_id, "fire-easy-2");
  EXPECT_NE(v.issues[1].message.find("data source 'gone.gpkg' names no file"), std::string::npos);
  // Scoring refuses the unknown type with the reason; the known one scores.
  auto bad = KramaBenchMetrics("fuzzy_text", Json("x"), Json("x"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown KramaBench answer_type 'fuzzy_text'"), std::string::npos);
  EXPECT_TRUE(KramaBenchMetrics("numeric_exact", Json("2"), Json(2)).ok());
}

TEST(KramaBenchMetrics, UnparsableNumbersAreUnknownNotZero) {
  auto m = KramaBenchMetrics("numeric_approximate", Json("about twelve"), Json(12.0));
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE((*m)["mean_absolute_error"].has_value());  // None in metrics.py
  EXPECT_FALSE((*m)["mean_squared_error"].has_value());
  EXPECT_EQ((*m)["mean_relative_absolute_error"], 1.0);  // metrics.py's fallback
  EXPECT_DOUBLE_EQ(*(*m)["rae_score"], 0.5);
}

// ---- loading and data_sources ------------------------------------------------------------------------

TEST_F(Checkout, DataSourcesResolveToFilesAtTheLevelKramaBenchNames) {
  Put("data/fire/input/top.csv", "a\n");
  Put("data/fire/input/deep/CSVs/State Data/Ohio.csv", "a\n");
  Put("data/fire/input/deep/CSVs/State Data/Iowa.csv", "a\n");
  Put("data/fire/input/deep/CSVs/State Data/notes.txt", "a\n");
  Put("data/fire/input/deep/CSVs/Book.csv", "a\n");
  Put("data/fire/input/sat/swarma-2015a.csv", "a\n");
  Put("data/fire/input/sat/swarma-2016a.csv", "a\n");
  Put("data/fire/input/.DS_Store", "junk");
  auto r = Load(R"([{"id": "fire-hard-7", "query": "q", "answer": [1, 2], "answer_type": "list_exact",
    "data_sources": ["./top.csv", "Book.csv", "State Data/*.csv", "state data/", "sat/swarma-*2015*.csv",
                     "all csv in State Data/"],
    "subtasks": [{"id": "fire-hard-7-1", "query": "s", "answer": 3, "answer_type": "numeric_exact",
                  "data_sources": "State Data/Ohio.csv"}]}])");
  ASSERT_EQ(r.tasks.size(), 1u) << (r.errors.empty() ? "" : r.errors[0].status.message());
  const Task& t = r.tasks[0];
  ASSERT_TRUE(Of(t));
  const KramaBenchTask& kb = *Of(t);
  EXPECT_EQ(kb.domain, "fire");
  EXPECT_EQ(kb.difficulty, "hard");
  EXPECT_EQ(kb.ns, "kramabench-fire");
  ASSERT_EQ(kb.sources.size(), 6u);
  EXPECT_EQ(kb.sources[0].files, (std::vector<std::string>{"top.csv"}));
  EXPECT_EQ(kb.sources[1].files, (std::vector<std::string>{"deep/CSVs/Book.csv"}));
  EXPECT_EQ(kb.sources[2].files,
            (std::vector<std::string>{"deep/CSVs/State Data/Iowa.csv", "deep/CSVs/State Data/Ohio.csv"}));
  EXPECT_EQ(kb.sources[3].files.size(), 3u);  // a folder, case folded: every file under it
  EXPECT_EQ(kb.sources[4].files, (std::vector<std::string>{"sat/swarma-2015a.csv"}));
  EXPECT_TRUE(kb.sources[5].files.empty());  // prose, not a path
  ASSERT_EQ(kb.subtasks.size(), 1u);
  EXPECT_EQ(kb.subtasks[0].sources[0].files, (std::vector<std::string>{"deep/CSVs/State Data/Ohio.csv"}));
  // Gold datasets: one per file, in the domain's namespace, folder = the path with '/' encoded.
  auto gold = GoldDatasets(t);
  EXPECT_EQ(gold.size(), 6u);
  EXPECT_EQ(gold[0], "kramabench-fire/top.csv");
  EXPECT_EQ(gold[1], "kramabench-fire/deep%2FCSVs%2FBook.csv");
  // eval discovery reads the same gold set.
  auto qs = LoadLakeQaQuestions({root_ + "/workload/fire.json"});
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  ASSERT_EQ(qs->size(), 1u);
  EXPECT_EQ((*qs)[0].gold, gold);
}

TEST_F(Checkout, WithoutDataBesideTheWorkloadPlainPathsAreTakenAsWritten) {
  auto r = Load(R"([{"id": "fire-easy-1", "query": "q", "answer": 1, "answer_type": "numeric_exact",
                     "data_sources": ["a/b.csv", "c/*.csv"]}])");
  ASSERT_EQ(r.tasks.size(), 1u);
  EXPECT_EQ(r.tasks[0].datasets_used, (std::vector<std::string>{"kramabench-fire/a%2Fb.csv/b.csv"}));
  EXPECT_TRUE(Of(r.tasks[0])->sources[1].files.empty());
}

TEST_F(Checkout, StatsCountDomainsAnswerTypesAndDifficulty) {
  auto r = Load(R"([
    {"id": "fire-easy-1", "query": "q", "answer": 1, "answer_type": "numeric_exact", "data_sources": [],
     "subtasks": [{"id": "fire-easy-1-1", "query": "s", "answer": "x", "answer_type": "string_exact"}]},
    {"id": "fire-hard-2", "query": "q", "answer": [1], "answer_type": "list_exact", "data_sources": []},
    {"id": "fire-hard-3", "query": "q", "answer": 1.5, "answer_type": "numeric_exact", "data_sources": []}])");
  Json s = KramaBenchStats(r.tasks);
  EXPECT_EQ(s["tasks"], 3);
  EXPECT_EQ(s["subtasks"], 1);
  EXPECT_EQ(s["domains"]["fire"]["hard"], 2);
  EXPECT_EQ(s["answer_types"]["numeric_exact"], 2);
  EXPECT_EQ(s["difficulty"]["easy"], 1);
  EXPECT_EQ(s["subtask_answer_types"]["string_exact"], 1);
  EXPECT_NE(FormatKramaBenchStats(s).find("fire                3         1     67%"), std::string::npos)
      << FormatKramaBenchStats(s);
}

// ---- metrics -----------------------------------------------------------------------------------------

struct Case {
  const char* metric;
  const char* target;     // the workload's answer, as JSON
  const char* predicted;  // the system's answer (a string)
  std::optional<double> expected;
};

const Case kFromPython[] = {
    {"success", R"J(13427.5676)J", R"P(13427.5676)P", 1.0},
    {"success", R"J(5)J", R"P(5.0)P", 0.0},
    {"success", R"J("  Rome ")J", R"P(rome)P", 1.0},
    {"success", R"J(0.5)J", R"P(50%)P", 0.0},
    {"success", R"J([2001, 2002])J", R"P([2001, 2002])P", 1.0},
    {"success", R"J(true)J", R"P(true)P", 1.0},
    {"success", R"J(null)J", R"P(None)P", 1.0},
    {"success", R"J(1e-05)J", R"P(1e-05)P", 1.0},
    {"mean_absolute_error", R"J(10.0)J", R"P(12)P", 2.0},
    {"mean_absolute_error", R"J(0.25)J", R"P(30%)P", 0.04999999999999999},
    {"mean_absolute_error", R"J(3)J", R"P(abc)P", std::nullopt},
    {"mean_absolute_error", R"J(1000)J", R"P(1_000.5)P", 0.5},
    {"mean_squared_error", R"J(2.5)J", R"P( 4 )P", 2.25},
    {"mean_squared_error", R"J(2.5)J", R"P(x)P", std::nullopt},
    {"mean_relative_absolute_error", R"J(10.0)J", R"P(12)P", 0.2},
    {"mean_relative_absolute_error", R"J(0)J", R"P(3)P", 1.0},
    {"mean_relative_absolute_error", R"J(4)J", R"P(n/a)P", 1.0},
    {"mean_relative_absolute_error", R"J(-2.0)J", R"P(-2.5)P", 0.25},
    {"mean_relative_absolute_error", R"J(0.1)J", R"P(10 %)P", 0.0},
    {"f1", R"J(["Boston", "Salem"])J", R"P(['Boston', 'Salem'])P", 0.8484848484848484},
    {"f1", R"J(["Boston", "Salem"])J", R"P(Boston, Salem)P", 0.7566137566137566},
    {"f1", R"J([1, 2, 3])J", R"P([3, 2, 1])P", 0.8750000000000001},
    {"f1", R"J(["a b"])J", R"P()P", 0.0},
    {"f1", R"J("")J", R"P()P", 1.0},
    {"f1", R"J(["x"])J", R"P([])P", 0.5714285714285715},
    {"f1_approximate", R"J([0.0193, -0.002])J", R"P([0.0193, -0.002])P", 0.0},
    {"f1_approximate", R"J([0.0193, -0.002])J", R"P([1.0, 2.0])P", 0.0},
    {"f1_approximate", R"J([1.0, 2.0])J", R"P([100, 200])P", 0.0},
    {"f1_approximate", R"J([0, 1])J", R"P([5])P", 0.0},
    {"f1_approximate", R"J([1.5])J", R"P(7)P", 0.0},
    {"f1_approximate", R"J([1.5])J", R"P((30, 40))P", 0.0},
    {"f1_approximate", R"J([1.5])J", R"P(oops)P", 0.0},
    {"f1_approximate", R"J([])J", R"P([])P", 0.0},
};

TEST(KramaBenchMetrics, MatchKramaBenchsPythonOnEveryCase) {
  for (const Case& c : kFromPython) {
    std::string type;
    for (const auto& t : KramaBenchAnswerTypes()) {
      const auto& ms = KramaBenchMetricsFor(t);
      if (std::find(ms.begin(), ms.end(), c.metric) != ms.end()) type = t;
    }
    ASSERT_FALSE(type.empty()) << c.metric;
    auto m = KramaBenchMetrics(type, Json(std::string(c.predicted)), Json::parse(c.target));
    ASSERT_TRUE(m.ok());
    std::optional<double> got = (*m)[c.metric];
    SCOPED_TRACE(std::string(c.metric) + " target " + c.target + " predicted '" + c.predicted + "'");
    ASSERT_EQ(got.has_value(), c.expected.has_value());
    if (got) {
      EXPECT_DOUBLE_EQ(*got, *c.expected);
    }
  }
}

TEST(KramaBenchMetrics, AnswersAreCastWithPythonsStr) {
  const std::pair<const char*, const char*> kRepr[] = {
      {R"J(13427.5676)J", R"P(13427.5676)P"},
      {R"J(1e-05)J", R"P(1e-05)P"},
      {R"J(0.0001)J", R"P(0.0001)P"},
      {R"J(1e+16)J", R"P(1e+16)P"},
      {R"J(1234567890123456.0)J", R"P(1234567890123456.0)P"},
      {R"J(1.0)J", R"P(1.0)P"},
      {R"J(-0.0)J", R"P(-0.0)P"},
      {R"J(7.95e-13)J", R"P(7.95e-13)P"},
      {R"J(66822738.84)J", R"P(66822738.84)P"},
      {R"J(2.5e+300)J", R"P(2.5e+300)P"},
      {R"J(100.0)J", R"P(100.0)P"},
      {R"J(0.30000000000000004)J", R"P(0.30000000000000004)P"},
      {R"J([1, "a", 2.5, null, true])J", R"P([1, 'a', 2.5, None, True])P"},
      {R"J(["it's", "say \"hi\"", "tab\there", "back\\slash", "é "])J",
       R"P(["it's", 'say "hi"', 'tab\there', 'back\\slash', 'é\xa0'])P"},
      {R"J({"k": [1, {"n": null}]})J", R"P({'k': [1, {'n': None}]})P"},
  };
  for (const auto& [json, str] : kRepr) EXPECT_EQ(PythonStr(Json::parse(json)), str) << json;
}

TEST(KramaBenchMetrics, RougeOneByHand) {
  // target tokens: the average period is 11 years (6); predicted: average period 11 yrs (4); overlap 3.
  RougeOne r = KbRouge1("Average period: 11 yrs", "The average period is 11 years");
  EXPECT_DOUBLE_EQ(r.precision, 0.75);
  EXPECT_DOUBLE_EQ(r.recall, 0.5);
  EXPECT_DOUBLE_EQ(r.fmeasure, 0.6);
  EXPECT_DOUBLE_EQ(KbRouge1("", "x").fmeasure, 0.0);
  // list_exact's precision and recall are ROUGE-1 over the str() of the lists.
  auto m = KramaBenchMetrics("list_exact", Json("Boston, Salem"), Json::parse(R"(["Boston", "Salem"])"));
  EXPECT_DOUBLE_EQ(*(*m)["precision"], 1.0);
  EXPECT_DOUBLE_EQ(*(*m)["recall"], 1.0);
}

TEST(KramaBenchMetrics, BleuOfCharactersByHand) {
  EXPECT_DOUBLE_EQ(KbBleu("abcd", "abcd"), 1.0);
  // p1..p4 = 4/5, 3/4, 2/3, 1/2; longer than the reference, so no brevity penalty: (1/5)^(1/4).
  EXPECT_NEAR(KbBleu("abcde", "abcd"), std::pow(0.2, 0.25), 1e-12);
  // No 4-gram matches: method0 puts sys.float_info.min in its place, so BLEU is tiny but not 0.
  double tiny = KbBleu("abc", "abcd");
  EXPECT_GT(tiny, 0.0);
  EXPECT_LT(tiny, 1e-70);
  EXPECT_EQ(KbBleu("xyz", "abcd"), 0.0);  // no unigram match: 0
  EXPECT_EQ(KbBleu("", "abc"), 0.0);
}

TEST(KramaBenchMetrics, StringBootstrapNeedsTheParaphraseVerdict) {
  Json gold = "The average period is 11 years";
  auto none = KramaBenchMetrics("string_approximate", Json("The average period is 11 years long"), gold);
  EXPECT_FALSE((*none)["llm_paraphrase"].has_value());
  EXPECT_FALSE((*none)["string_bootstrap"].has_value());
  auto no = KramaBenchMetrics("string_approximate", Json("The average period is 11 years long"), gold, false);
  EXPECT_GT(*(*no)["bleu"], 0.2);
  EXPECT_DOUBLE_EQ(*(*no)["string_bootstrap"], *(*no)["rouge"]);  // bleu > 0.2: rouge
  auto yes = KramaBenchMetrics("string_approximate", Json("eleven"), gold, true);
  EXPECT_EQ((*yes)["string_bootstrap"], 1.0);
}

TEST(KramaBenchMetrics, PythonFloatSyntax) {
  EXPECT_EQ(PyFloat(" 1_000.5 "), 1000.5);
  EXPECT_EQ(PyFloat("-.5e1"), -5.0);
  EXPECT_TRUE(std::isinf(*PyFloat("Infinity")));
  EXPECT_FALSE(PyFloat("1__0").has_value());
  EXPECT_FALSE(PyFloat("1,000").has_value());
  EXPECT_FALSE(PyFloat("_1").has_value());
  EXPECT_FALSE(PyFloat(".").has_value());
  EXPECT_FALSE(PyFloat("1e").has_value());
}

// ---- aggregation ---------------------------------------------------------------------------------------

TEST(KramaBenchAggregate, TotalScoreAsEvaluatePyComputesIt) {
  auto row = [](std::string id, std::string domain, std::string type,
                std::map<std::string, std::optional<double>> m) {
    return KramaBenchRow{std::move(id), std::move(domain), std::move(type), false, std::move(m)};
  };
  std::vector<KramaBenchRow> rows = {
      row("a1", "a", "numeric_exact", {{"success", 1.0}}),
      row("a2", "a", "string_exact", {{"success", 0.0}}),
      row("a3", "a", "list_exact", {{"f1", 0.5}, {"precision", 1.0}, {"recall", 0.25}}),
      row("b1", "b", "numeric_approximate", {{"mean_relative_absolute_error", 0.25}, {"rae_score", 0.8}}),
      row("b2", "b", "string_approximate",
          {{"bleu", 0.1},
           {"rouge", 0.3},
           {"llm_paraphrase", std::nullopt},
           {"string_bootstrap", std::nullopt}}),
      row("b3", "b", "list_approximate", {{"f1_approximate", 0.0}}),
  };
  KramaBenchTable t = AggregateKramaBench(rows);
  EXPECT_DOUBLE_EQ(*t.score["a"], 0.5);  // (2 * 0.5 + 1 * 0.5) / 3
  EXPECT_DOUBLE_EQ(*t.score["b"],
                   0.4);  // 0.8 / 2: the unknown bootstrap counts in the support, as a NaN does
  EXPECT_DOUBLE_EQ(*t.score["overall"], (1.0 + 0.5 + 0.8) / 5);
  EXPECT_EQ(t.unknown["b"], 1u);
  EXPECT_EQ(t.metrics["a"]["success"].support, 2u);
  EXPECT_DOUBLE_EQ(t.metrics["a"]["success"].std, std::sqrt(0.5));  // pandas: ddof 1
  EXPECT_EQ(t.metrics["b"]["string_bootstrap"].support, 0u);
  EXPECT_EQ(t.metrics["b"]["string_bootstrap"].total, 1u);
  Json j = t.ToJson();
  EXPECT_TRUE(j["b"]["metrics"]["string_bootstrap"]["mean"].is_null());
  std::string text = FormatKramaBenchLeaderboard(j, "t");
  EXPECT_NE(text.find("overall"), std::string::npos);
  EXPECT_NE(text.find("46.00%"), std::string::npos) << text;
}

TEST(KramaBenchAggregate, RunReportScoresTasksAndAnsweredSubtasks) {
  Task t;
  t.id = "fire-easy-1";
  t.answer = 12;
  t.format = std::string(kFormat);
  auto kb = std::make_shared<KramaBenchTask>();
  kb->domain = "fire";
  kb->answer_type = "numeric_exact";
  kb->subtasks.push_back({"fire-easy-1-1", "s", Json("Ohio"), "string_exact", {}});
  kb->subtasks.push_back({"fire-easy-1-2", "s", Json(3), "numeric_exact", {}});
  t.extension = kb;
  Task bad = t;
  bad.id = "fire-easy-2";
  auto kb2 = std::make_shared<KramaBenchTask>(*kb);
  kb2->answer_type = "vibes";
  kb2->subtasks.clear();
  bad.extension = kb2;
  RunData run;
  auto pred = [](std::string id, Json answer) {
    Prediction p;
    p.task_id = std::move(id);
    p.answer = std::move(answer);
    p.status = "ok";
    return p;
  };
  run.predictions = {pred("fire-easy-1", "12"), pred("fire-easy-1-1", " ohio "), pred("fire-easy-2", "x")};
  RunScore score;
  score.tasks.resize(2);
  score.tasks[0].task_id = "fire-easy-1";
  score.tasks[0].status = "ok";
  score.tasks[0].raw_answer = "12";
  score.tasks[1].task_id = "fire-easy-2";
  score.tasks[1].status = "ok";
  score.tasks[1].raw_answer = "x";
  Json r = KramaBenchRunReport(score, run, {t, bad});
  ASSERT_EQ(r["tasks"].size(), 1u);
  EXPECT_EQ(r["tasks"][0]["score"], 1.0);
  ASSERT_EQ(r["unscored"].size(), 1u);
  EXPECT_EQ(r["unscored"][0]["task_id"], "fire-easy-2");
  ASSERT_EQ(r["subtasks"].size(), 1u);  // only the answered subtask
  EXPECT_EQ(r["subtasks"][0]["score"], 1.0);
  EXPECT_EQ(r["leaderboard"]["overall"]["score"], 1.0);
  EXPECT_EQ(r["llm_paraphrase"], "unknown (no --judge)");
  EXPECT_NE(FormatKramaBenchRunReport(r).find("unscored fire-easy-2: unknown KramaBench answer_type 'vibes'"),
            std::string::npos);
  EXPECT_TRUE(KramaBenchRunReport(score, run, {}).is_null());
}

}  // namespace
}  // namespace lakeqa::kramabench
