#include "lakeqa/eval/score.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"

#include "eval/run_fixture.h"
#include "lakeqa/common/build_paths.h"

namespace lakeqa::eval {
namespace {

using testing::Event;
using testing::MakeTask;
using testing::PredSpec;
using testing::WriteRun;

class RunDir : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-score");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string dir_;
};

TEST_F(RunDir, OracleRunScoresPerfectly) {
  std::vector<Task> tasks = {MakeTask("o1", "Pittsburgh", {"datagov/a", "wikipedia/P"}),
                             MakeTask("o2", 1046, {"datagov/b"}), MakeTask("o3", 3.5, {"wikipedia/C"})};
  std::vector<PredSpec> preds;
  for (const Task& t : tasks) {
    PredSpec p;
    p.task_id = t.id;
    p.answer = PythonStr(t.answer);
    p.events.push_back(Event(1, "search_keyword", GoldDatasets(t), {}));
    for (const auto& g : GoldDatasets(t)) p.events.push_back(Event(2, "inspect_file", {}, {g}));
    preds.push_back(p);
  }
  WriteRun(dir_, preds);
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(run->warnings.empty());
  RunScore s = ScoreRun(*run, tasks);
  ASSERT_EQ(s.tasks.size(), 3u);
  EXPECT_DOUBLE_EQ(s.em, 1.0);
  EXPECT_DOUBLE_EQ(s.dret.precision, 1.0);
  EXPECT_DOUBLE_EQ(s.dret.recall, 1.0);
  EXPECT_DOUBLE_EQ(s.dacc.f1, 1.0);
  EXPECT_EQ(s.funnel[FunnelStage::kCorrect], 3u);
  EXPECT_TRUE(s.not_run.empty());
}

// A task id that is not a file name ("Georgia (country)", "21 June 2018") has its trace under
// TraceFileName(id); the scorer finds it there, so D_ret/D_acc and the funnel see the trace.
TEST_F(RunDir, TracesOfIdsThatAreNotFileNamesAreFound) {
  std::vector<Task> tasks = {MakeTask("d-Georgia_(country)", "x", {"wikipedia/Georgia_(country)"}),
                             MakeTask("g 21 June 2018", "y", {"cmdbench/graph_nodes_Player"})};
  std::vector<PredSpec> preds;
  for (const Task& t : tasks) {
    PredSpec p;
    p.task_id = t.id;
    p.answer = PythonStr(t.answer);
    p.events.push_back(Event(1, "inspect_file", GoldDatasets(t), GoldDatasets(t)));
    preds.push_back(p);
  }
  WriteRun(dir_, preds);
  ASSERT_TRUE(PathExists(dir_ + "/traces/g_21_June_2018.jsonl"));
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  RunScore s = ScoreRun(*run, tasks);
  ASSERT_EQ(s.tasks.size(), 2u);
  for (const TaskScore& t : s.tasks) {
    EXPECT_TRUE(t.has_trace) << t.task_id;
    EXPECT_DOUBLE_EQ(t.dacc.recall, 1.0) << t.task_id;
  }
}

TEST_F(RunDir, WeakAgentNumbers) {
  WriteRun(dir_, testing::WeakRun());
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  ASSERT_EQ(s.tasks.size(), 6u);
  EXPECT_NEAR(s.em, 1.0 / 6, 1e-12);
  EXPECT_EQ(s.funnel[FunnelStage::kCorrect], 1u);
  EXPECT_EQ(s.funnel[FunnelStage::kSearchMissing], 2u);  // t2 (only distractors) and t6 (timeout, no trace)
  EXPECT_EQ(s.funnel[FunnelStage::kRetrievedNotSelected], 1u);
  EXPECT_EQ(s.funnel[FunnelStage::kRetrievedNotAnalyzed], 1u);
  EXPECT_EQ(s.funnel[FunnelStage::kWrongAfterAnalysis], 1u);
  EXPECT_EQ(s.tasks[2].stage, FunnelStage::kRetrievedNotSelected);
  EXPECT_EQ(s.tasks[3].stage, FunnelStage::kRetrievedNotAnalyzed);
  EXPECT_EQ(s.tasks[4].stage, FunnelStage::kWrongAfterAnalysis);
  // D_ret per task: P = .5, 0, .5, 1, 1, 0; R = 1, 0, 1/3, 1, 1, 0; F1 = 2/3, 0, .4, 1, 1, 0.
  EXPECT_NEAR(s.dret.precision, 3.0 / 6, 1e-12);
  EXPECT_NEAR(s.dret.recall, (1 + 1.0 / 3 + 2) / 6, 1e-12);
  EXPECT_NEAR(s.dret.f1, (2.0 / 3 + 0.4 + 2) / 6, 1e-12);
  // D_acc per task: P = 1, 0, .5, 1, 1, 0; R = 1, 0, 1/3, 1, 1, 0; F1 = 1, 0, .4, 1, 1, 0.
  EXPECT_NEAR(s.dacc.precision, 3.5 / 6, 1e-12);
  EXPECT_NEAR(s.dacc.recall, (1 + 1.0 / 3 + 2) / 6, 1e-12);
  EXPECT_NEAR(s.dacc.f1, 3.4 / 6, 1e-12);
  EXPECT_NEAR(s.runtime.mean, 250.0 / 6, 1e-9);
  EXPECT_NEAR(s.runtime.median, 35, 1e-9);
  EXPECT_NEAR(s.runtime.p90, 75, 1e-9);
  ASSERT_TRUE(s.cost_usd.has_value());
  EXPECT_NEAR(*s.cost_usd, 2.5 / 6, 1e-12);
  EXPECT_EQ(s.cost_unknown, 0u);
  EXPECT_EQ(s.status_counts["timeout"], 1u);
  EXPECT_FALSE(s.tasks[5].answer.em);  // "Yes" equals the gold, but the task timed out
  EXPECT_EQ(s.by_hops[1].tasks, 4u);
  EXPECT_EQ(s.by_hops[2].em, 1u);
  EXPECT_EQ(s.by_hops[3].tasks, 1u);
  EXPECT_EQ(s.by_documents["1-8"].tasks, 4u);
  EXPECT_EQ(s.by_documents["9-13"].tasks, 1u);
  EXPECT_EQ(s.by_documents["14-18"].tasks, 1u);
  EXPECT_EQ(s.by_namespace_mix["datagov+wikipedia"].tasks, 2u);
  EXPECT_EQ(s.by_namespace_mix["wikipedia"].tasks, 1u);
  EXPECT_EQ(s.tool_call_totals["search_keyword"], 4u);
  EXPECT_EQ(s.tool_call_totals["download"], 4u);
  EXPECT_EQ(s.tool_calls.sum, 14);
  EXPECT_EQ(s.tasks[2].sets.failed_calls, 1u);
  size_t by_type = 0;
  for (const auto& [k, b] : s.by_answer_type) by_type += b.tasks;
  EXPECT_EQ(by_type, 6u);
  Json j = s.ToJson();
  for (const char* key :
       {"em", "runtime_s", "cost_usd", "dacc_p", "dacc_r", "dacc_f1", "dret_p", "dret_r", "dret_f1"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["per_task"].size(), 6u);
  EXPECT_EQ(j["funnel"]["retrieved_not_selected"], 1);
}

TEST_F(RunDir, NotRunUnknownAndMalformedLines) {
  std::string lines = R"({"task_id": "t1", "answer": "Pittsburgh", "status": "ok"})"
                      "\n"
                      "{broken\n"
                      R"({"task_id": "zz", "answer": "x", "status": "ok"})"
                      "\n"
                      R"({"task_id": "t2", "answer": "x", "status": "exploded"})"
                      "\n"
                      R"({"task_id": "t1", "answer": "dup"})"
                      "\n";
  ASSERT_TRUE(MakeDirs(dir_ + "/traces").ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/predictions.jsonl", lines).ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/traces/t1.jsonl", "{\"tool\": 5}\n").ok());
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->warnings.size(), 3u);
  EXPECT_NE(run->warnings[0].find("predictions.jsonl:2"), std::string::npos) << run->warnings[0];
  EXPECT_NE(run->warnings[1].find("predictions.jsonl:4: field \"status\""), std::string::npos)
      << run->warnings[1];
  EXPECT_NE(run->warnings[2].find("t1.jsonl:1: field \"tool\""), std::string::npos) << run->warnings[2];
  // A second line for t1 is a resumed attempt, not an error: the last final line counts.
  ASSERT_EQ(run->superseded.size(), 1u);
  EXPECT_EQ(run->superseded[0].line, 1u);
  EXPECT_EQ(run->superseded[0].by_line, 5u);
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  EXPECT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.not_run.size(), 5u);
  ASSERT_EQ(s.unknown_predictions.size(), 1u);
  EXPECT_EQ(s.unknown_predictions[0], "zz");
}

// Issue 14, defect 6: a task whose model had no price has an unknown cost: null in report.json, left out
// of every cost statistic (and counted), never added as $0.
TEST_F(RunDir, UnknownCostIsLeftOutOfSums) {
  testing::WriteRun(dir_, testing::WeakRun());
  std::string text = *ReadFile(dir_ + "/predictions.jsonl");
  std::string lines;
  size_t n = 0;
  for (std::string_view line : Split(text, '\n')) {
    if (line.empty()) continue;
    Json j = Json::parse(line);
    if (n++ == 0) j["cost_usd"] = nullptr;  // t1: an unpriced model
    lines += j.dump() + "\n";
  }
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/predictions.jsonl", lines).ok());
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok());
  RunScore s = ScoreRun(*run, testing::WeakTasks());
  EXPECT_FALSE(s.tasks[0].cost_usd.has_value());
  EXPECT_EQ(s.cost.n, 5u);
  EXPECT_EQ(s.cost_unknown, 1u);
  EXPECT_NEAR(s.cost.sum, 2.4, 1e-12);
  ASSERT_TRUE(s.cost_usd.has_value());
  EXPECT_NEAR(*s.cost_usd, 2.4 / 5, 1e-12);
  Json j = s.ToJson();
  EXPECT_TRUE(j["per_task"][0]["cost_usd"].is_null());
  EXPECT_EQ(j["cost"]["unknown"], 1);
  EXPECT_NEAR(j["cost_usd"].get<double>(), 2.4 / 5, 1e-12);
}

TEST_F(RunDir, MissingPredictionsIsNotFound) {
  auto run = LoadRun(dir_);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(run.status().message().find("predictions.jsonl"), std::string::npos);
}

// ---- brute-force references ----

std::set<std::string> RandomSet(std::mt19937& rng, int universe, int max_size) {
  std::set<std::string> s;
  for (int i = static_cast<int>(rng() % (max_size + 1)); i > 0; --i)
    s.insert("ns/d" + std::to_string(rng() % universe));
  return s;
}

TEST(SetPrf, MatchesBruteForce) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    auto found = RandomSet(rng, 8, 6), gold = RandomSet(rng, 8, 4);
    std::vector<std::string> fv(found.begin(), found.end()), gv(gold.begin(), gold.end());
    int hit = 0;
    for (const auto& f : fv) {
      for (const auto& g : gv) hit += f == g;
    }
    double p = fv.empty() || gv.empty() ? 0 : double(hit) / fv.size();
    double r = fv.empty() || gv.empty() ? 0 : double(hit) / gv.size();
    double f1 = p + r == 0 ? 0 : 2 * p * r / (p + r);
    Prf got = SetPrf(found, gold);
    EXPECT_NEAR(got.precision, p, 1e-12);
    EXPECT_NEAR(got.recall, r, 1e-12);
    EXPECT_NEAR(got.f1, f1, 1e-12);
  }
}

TEST(Funnel, MatchesStageRankBruteForce) {
  std::mt19937 rng(5);
  const char* tools[] = {"search", "search_keyword", "list_files",  "download",       "inspect_file",
                         "query",  "execute_code",   "graph_query", "graph_neighbors"};
  for (int trial = 0; trial < 2000; ++trial) {
    auto gold = RandomSet(rng, 6, 3);
    std::vector<TraceEvent> events;
    for (int i = static_cast<int>(rng() % 6); i > 0; --i) {
      TraceEvent e;
      e.tool = tools[rng() % 9];
      e.status = "ok";
      auto ids = RandomSet(rng, 6, 2);
      if (e.tool.rfind("search", 0) == 0) {
        e.returned.assign(ids.begin(), ids.end());
      } else {
        e.accessed.assign(ids.begin(), ids.end());
      }
      events.push_back(e);
    }
    bool correct = rng() % 4 == 0;
    // Rank of the furthest stage any gold dataset reached, tool by tool.
    int rank = 0;
    for (const auto& e : events) {
      for (const auto& id : e.returned) {
        if (gold.count(id)) rank = std::max(rank, 1);
      }
      for (const auto& id : e.accessed) {
        if (!gold.count(id)) continue;
        int r = e.tool == "list_files" ? 1 : e.tool == "download" ? 2 : 3;
        rank = std::max(rank, r);
      }
    }
    FunnelStage want = correct     ? FunnelStage::kCorrect
                       : rank == 3 ? FunnelStage::kWrongAfterAnalysis
                       : rank == 2 ? FunnelStage::kRetrievedNotAnalyzed
                       : rank == 1 ? FunnelStage::kRetrievedNotSelected
                                   : FunnelStage::kSearchMissing;
    EXPECT_EQ(Classify(correct, gold, CollectTraceSets(events)), want);
  }
}

// Issue 30, item 8: one count of tool calls (submit_answer and turns without a tool call are not calls, as
// in predictions.jsonl); a lenient-correct answer is its own funnel stage, not wrong_after_analysis; a line
// without a runtime has an unknown runtime, not 0 s.
TEST_F(RunDir, ToolCallsLenientStageAndUnknownRuntime) {
  std::vector<Task> tasks = {MakeTask("n1", "3.50", {"datagov/a"}), MakeTask("n2", "Boston", {"datagov/b"})};
  ASSERT_TRUE(MakeDirs(dir_ + "/traces").ok());
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/predictions.jsonl",
                              "{\"task_id\": \"n1\", \"status\": \"answered\", \"raw_answer\": \"[3.5]\", "
                              "\"tool_calls\": 2}\n"
                              "{\"task_id\": \"n2\", \"status\": \"answered\", \"answer\": \"Boston\", "
                              "\"elapsed_s\": 4}\n")
                  .ok());
  Json nudged = {{"turn", 2}, {"tool", nullptr}, {"status", "no_tool_call"}};
  std::string trace = Event(1, "search_keyword", {"datagov/a"}, {}).dump() + "\n" + nudged.dump() + "\n" +
                      Event(3, "query", {}, {"datagov/a"}).dump() + "\n" +
                      Event(4, "submit_answer", {}, {}).dump() + "\n";
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/traces/n1.jsonl", trace).ok());
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(run->warnings.empty()) << run->warnings[0];
  RunScore s = ScoreRun(*run, tasks);
  ASSERT_EQ(s.tasks.size(), 2u);
  const TaskScore& n1 = s.tasks[0];
  EXPECT_FALSE(n1.answer.em);
  EXPECT_TRUE(n1.answer.lenient());
  EXPECT_EQ(n1.stage, FunnelStage::kLenientCorrect);
  EXPECT_EQ(s.funnel[FunnelStage::kLenientCorrect], 1u);
  EXPECT_EQ(s.funnel[FunnelStage::kWrongAfterAnalysis], 0u);
  EXPECT_EQ(n1.sets.calls, 2u);  // search_keyword and query, as the prediction's tool_calls
  EXPECT_EQ(n1.sets.tool_calls.count("submit_answer"), 0u);
  EXPECT_FALSE(n1.runtime_s.has_value());
  EXPECT_TRUE(n1.ToJson()["runtime_s"].is_null());
  EXPECT_EQ(s.tasks[1].runtime_s, 4.0);
  EXPECT_EQ(s.runtime.n, 1u);
  EXPECT_EQ(s.runtime_unknown, 1u);
  EXPECT_EQ(s.runtime_s, 4.0);
  Json j = s.ToJson();
  EXPECT_EQ(j["funnel"]["correct_lenient"], 1);
  EXPECT_EQ(j["runtime"]["unknown"], 1);
  // Nothing known: unknown, never 0.
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/predictions.jsonl",
                              "{\"task_id\": \"n2\", \"status\": \"answered\", \"answer\": \"Boston\"}\n")
                  .ok());
  auto none = LoadRun(dir_);
  ASSERT_TRUE(none.ok());
  RunScore u = ScoreRun(*none, tasks);
  EXPECT_FALSE(u.runtime_s.has_value());
  EXPECT_TRUE(u.ToJson()["runtime_s"].is_null());
}

TEST(Summarize, MatchesOrderStatistics) {
  std::mt19937 rng(3);
  for (size_t n : {1u, 2u, 5u, 11u, 21u, 101u}) {
    std::vector<double> v;
    for (size_t i = 0; i < n; ++i) v.push_back(static_cast<double>(rng() % 1000) / 10);
    Distribution d = Summarize(v);
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    double median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    EXPECT_NEAR(d.median, median, 1e-9) << n;
    if ((n - 1) % 10 == 0) {
      EXPECT_NEAR(d.p90, s[(n - 1) * 9 / 10], 1e-9) << n;
    }
    double sum = 0;
    for (double x : v) sum += x;
    EXPECT_NEAR(d.mean, sum / n, 1e-9);
    EXPECT_EQ(d.max, s.back());
  }
  EXPECT_EQ(Summarize({}).n, 0u);
}

TEST(DocumentsBucket, FigureFiveEdges) {
  EXPECT_EQ(DocumentsBucket(1), "1-8");
  EXPECT_EQ(DocumentsBucket(8), "1-8");
  EXPECT_EQ(DocumentsBucket(9), "9-13");
  EXPECT_EQ(DocumentsBucket(13), "9-13");
  EXPECT_EQ(DocumentsBucket(14), "14-18");
  EXPECT_EQ(DocumentsBucket(18), "14-18");
  EXPECT_EQ(DocumentsBucket(19), ">18");
}

}  // namespace
}  // namespace lakeqa::eval

namespace lakeqa::eval {
namespace {

// On the released tasks: an oracle that submits each gold answer as Python prints it finds every gold
// dataset, and scores EM 1 except where the harness's single-number rule cuts the gold itself down
// ("Ward 5" → "5", "PS 056 Lewis H. Latimer" → "056"): the LakeQA harness gives those two tasks of
// lakeqa_mini EM 0 too (checked by running its _clean_answer and compute_exact_match on the same rows).
TEST_F(RunDir, OracleOverRealTasks) {
  std::string path = lakeqa::build_paths::SourceDir() + "/../shared/data/lakeqa-tasks/lakeqa_mini";
  if (const char* d = std::getenv("LAKEQA_SHARED_DATA"); d != nullptr && *d) {
    path = std::string(d) + "/lakeqa-tasks/lakeqa_mini";
  }
  if (!PathExists(path)) GTEST_SKIP() << path << " absent (shared data not available)";
  LoadResult loaded = LoadTasks({path});
  ASSERT_GT(loaded.tasks.size(), 100u);
  std::vector<PredSpec> preds;
  size_t truthy = 0;
  for (const Task& t : loaded.tasks) {
    PredSpec p;
    p.task_id = t.id;
    p.answer = PythonStr(t.answer);
    p.events.push_back(Event(1, "search_keyword", GoldDatasets(t), {}));
    p.events.push_back(Event(2, "query", {}, GoldDatasets(t)));
    preds.push_back(p);
    truthy += PythonTruthy(t.answer);
  }
  WriteRun(dir_, preds);
  auto run = LoadRun(dir_);
  ASSERT_TRUE(run.ok());
  RunScore s = ScoreRun(*run, loaded.tasks);
  EXPECT_EQ(s.tasks.size(), loaded.tasks.size());
  const std::set<std::string> harness_misses = {"EQA000444", "EQA000312"};
  for (const TaskScore& t : s.tasks) EXPECT_EQ(t.answer.em, !harness_misses.count(t.task_id)) << t.task_id;
  EXPECT_EQ(truthy, loaded.tasks.size());
  EXPECT_NEAR(s.dret.recall, 1.0, 1e-12);
  EXPECT_NEAR(s.dacc.precision, 1.0, 1e-12);
  EXPECT_EQ(s.funnel[FunnelStage::kCorrect], truthy - harness_misses.size());
  // The harness's two exact-match misses are right under the lenient match (the gold read at its own
  // precision), so the funnel puts them in its lenient stage, not among the wrong answers.
  EXPECT_EQ(s.funnel[FunnelStage::kLenientCorrect], harness_misses.size());
  EXPECT_EQ(s.funnel[FunnelStage::kWrongAfterAnalysis], 0u);
}

}  // namespace
}  // namespace lakeqa::eval
