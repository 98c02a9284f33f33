// Hand-made tasks and run directories for the scoring, report and compare tests: the run directory is
// written in the format docs/formats-run.md specifies (predictions.jsonl, traces/<task>.jsonl, run.json).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/eval/trace_file.h"

namespace lakeqa::eval::testing {

// A task whose gold datasets are `gold` ("<ns>/<id>"), one node and one hop per dataset, chained, so
// k = gold.size(). `extra_files` adds datasets_used entries (files of the first dataset) to reach a
// documents bucket.
inline Json TaskJson(const std::string& id, const Json& answer, const std::vector<std::string>& gold,
                     size_t extra_files = 0, const std::string& question = "What is it?") {
  Json nodes = Json::object();
  Json used = Json::array();
  Json hops = Json::array();
  for (size_t i = 0; i < gold.size(); ++i) {
    std::string n = std::to_string(i + 1);
    std::string src = gold[i] + "/files/data.csv";
    nodes[n] = {{"source", src}, {"fact", "f"}, {"subquestion", "q" + n}, {"answer", "a" + n}};
    used.push_back(src);
    hops.push_back({{"hop", i + 1}, {"node_ids", {i + 1}}, {"reasoning", "r"}, {"answer", "a" + n}});
  }
  for (size_t i = 0; i < extra_files; ++i)
    used.push_back(gold[0] + "/files/extra" + std::to_string(i) + ".csv");
  return {{"question_id", id}, {"question", question},  {"answer", answer},
          {"nodes", nodes},    {"datasets_used", used}, {"reasoning_hops", hops}};
}

inline Task MakeTask(const std::string& id, const Json& answer, const std::vector<std::string>& gold,
                     size_t extra_files = 0) {
  auto t = TaskFromJson(TaskJson(id, answer, gold, extra_files), id);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Task{};
}

inline Json Event(int turn, const std::string& tool, std::vector<std::string> returned,
                  std::vector<std::string> accessed, const std::string& status = "ok") {
  return {{"turn", turn},         {"tool", tool},        {"arguments", Json::object()},
          {"status", status},     {"elapsed_ms", 12.5},  {"summary", tool + " result"},
          {"returned", returned}, {"accessed", accessed}};
}

struct PredSpec {
  std::string task_id;
  Json answer;
  std::string status = "ok";
  double runtime_s = 10;
  double cost_usd = 0.1;
  int turns = 3;
  std::vector<Json> events;
};

inline void WriteRun(const std::string& dir, const std::vector<PredSpec>& preds,
                     const Json& run_json = Json()) {
  ASSERT_TRUE(MakeDirs(dir + "/traces").ok());
  std::string lines;
  for (const PredSpec& p : preds) {
    Json j = {{"task_id", p.task_id},   {"answer", p.answer},
              {"status", p.status},     {"runtime_s", p.runtime_s},
              {"cost_usd", p.cost_usd}, {"tokens", {{"input", 1000}, {"output", 100}, {"cache_read", 500}}},
              {"turns", p.turns}};
    lines += j.dump() + "\n";
    std::string trace;
    for (const Json& e : p.events) trace += e.dump() + "\n";
    if (!p.events.empty()) {
      ASSERT_TRUE(WriteFileAtomic(dir + "/traces/" + TraceFileName(p.task_id) + ".jsonl", trace).ok());
    }
  }
  ASSERT_TRUE(WriteFileAtomic(dir + "/predictions.jsonl", lines).ok());
  Json rj = run_json.is_null() ? Json{{"agent", "scripted"}, {"model", "none"}} : run_json;
  ASSERT_TRUE(WriteFileAtomic(dir + "/run.json", rj.dump(2)).ok());
}

// The five-task "weak agent" of the tests: one task per funnel stage, plus a timeout.
inline std::vector<Task> WeakTasks() {
  return {MakeTask("t1", "Pittsburgh", {"datagov/a", "wikipedia/P"}),
          MakeTask("t2", 42, {"datagov/b"}),
          MakeTask("t3", "1990", {"datagov/c", "datagov/d", "wikipedia/Q"}, 8),
          MakeTask("t4", "Boston", {"wikipedia/B"}),
          MakeTask("t5", "03/01", {"datagov/e"}, 14),
          MakeTask("t6", "Yes", {"datagov/f"})};
}

inline std::vector<PredSpec> WeakRun() {
  return {
      {"t1",
       "Final answer: [Pittsburgh]",
       "ok",
       10,
       0.10,
       4,
       {Event(1, "search_keyword", {"datagov/a", "datagov/x", "wikipedia/P", "wikipedia/Z"}, {}),
        Event(2, "download", {}, {"datagov/a"}), Event(3, "query", {}, {"datagov/a"}),
        Event(4, "inspect_file", {}, {"wikipedia/P"})}},
      {"t2",
       "41",
       "ok",
       20,
       0.20,
       2,
       {Event(1, "search_keyword", {"datagov/x", "datagov/y"}, {}),
        Event(2, "list_files", {}, {"datagov/x"})}},
      {"t3",
       "1989",
       "ok",
       30,
       0.30,
       3,
       {Event(1, "search", {"datagov/c", "datagov/x"}, {}), Event(2, "list_files", {}, {"datagov/c"}),
        Event(3, "download", {}, {"datagov/x"}, "not_found")}},
      {"t4",
       "Cambridge",
       "ok",
       40,
       0.40,
       3,
       {Event(1, "search_keyword", {"wikipedia/B"}, {}), Event(2, "download", {}, {"wikipedia/B"})}},
      {"t5",
       "March 2",
       "ok",
       50,
       0.50,
       5,
       {Event(1, "search_keyword", {"datagov/e"}, {}), Event(2, "download", {}, {"datagov/e"}),
        Event(3, "execute_code", {}, {"datagov/e"})}},
      {"t6", "Yes", "timeout", 100, 1.00, 30, {}},
  };
}

}  // namespace lakeqa::eval::testing
