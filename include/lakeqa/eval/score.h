// Scoring a run directory (docs/formats-run.md) against its tasks: the answer metrics of em.h, the
// discovery metrics of the LakeQA paper (precision/recall/F1 of the retrieved set D_ret and the accessed
// set D_acc against the gold set D*), the trajectory-level failure funnel (the paper's Table 6), the
// breakdowns by hops, gold documents (Figure 5's buckets), namespace mix and answer type, and runtime,
// cost, token and tool-call statistics. docs/scoring.md states every convention.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/em.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {

// ---- the run directory -------------------------------------------------------------------------------

struct TraceEvent {
  int turn = 0;
  std::string tool;
  Json arguments;
  std::string status;  // "ok" or an error code
  double elapsed_ms = 0;
  std::string summary;
  std::vector<std::string> returned;  // dataset ids "<namespace>/<dataset_id>" a search returned
  std::vector<std::string> accessed;  // dataset ids a tool listed, downloaded, inspected, queried, read
  // For the report's trace view (all optional in the trace file): what the tool returned as the agent saw
  // it, the model's own text on that turn, and the model call's time and tokens (-1 when not recorded).
  std::string result;
  std::string content;
  double model_ms = -1;
  int64_t input_tokens = -1, output_tokens = -1;
};

struct Prediction {
  std::string task_id;
  Json answer;         // raw model text as submitted (null when nothing was submitted)
  std::string status;  // ok | timeout | crashed | turn_limit | token_limit | cost_limit | error
  double runtime_s = 0;
  double cost_usd = 0;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;
  int turns = 0;
  size_t line = 0;  // 1-based line in predictions.jsonl
};

struct RunData {
  std::string dir;
  Json run_json;  // run.json (an empty object when missing)
  std::vector<Prediction> predictions;
  std::map<std::string, std::vector<TraceEvent>> traces;  // task id → events in file order
  std::vector<std::string> warnings;                      // skipped lines and files, "<file>:<line>: <what>"
};

// Reads predictions.jsonl (required), run.json and traces/*.jsonl (optional). Malformed lines become
// warnings and are skipped; a missing or unreadable predictions.jsonl is an error.
Result<RunData> LoadRun(const std::string& dir);
Result<Prediction> PredictionFromJson(const Json& j, std::string_view where);
Result<TraceEvent> TraceEventFromJson(const Json& j, std::string_view where);

// ---- per-task metrics --------------------------------------------------------------------------------

struct Prf {
  double precision = 0;
  double recall = 0;
  double f1 = 0;
};
// Set precision/recall/F1 of `found` against `gold`. Convention: an empty `found` scores 0/0/0; the
// caller leaves tasks with an empty gold set out of the averages.
Prf SetPrf(const std::set<std::string>& found, const std::set<std::string>& gold);

// The furthest stage a trajectory reached (mutually exclusive, the paper's Table 6).
enum class FunnelStage {
  kCorrect,
  kSearchMissing,
  kRetrievedNotSelected,
  kRetrievedNotAnalyzed,
  kWrongAfterAnalysis
};
std::string_view FunnelStageName(FunnelStage s);
const std::vector<FunnelStage>& AllFunnelStages();

// The sets a trace induces.
struct TraceSets {
  std::set<std::string> retrieved;  // D_ret: ids in `returned`
  std::set<std::string> accessed;   // D_acc: ids in `accessed`, any tool
  std::set<std::string> selected;   // ids accessed at file level: download, inspect_file, query, execute_code
  std::set<std::string>
      analyzed;  // ids inspected, queried or read in code: inspect_file, query, execute_code
  std::map<std::string, size_t> tool_calls;  // tool name → calls
  size_t calls = 0;
  size_t failed_calls = 0;  // status other than "ok"
};
TraceSets CollectTraceSets(const std::vector<TraceEvent>& events);

FunnelStage Classify(bool correct, const std::set<std::string>& gold, const TraceSets& sets);

// An LLM judge's verdict on one answer (judge.h produces them).
struct JudgeVerdict {
  bool correct = false;
  std::string rationale;
  double cost_usd = 0;
  bool cached = false;
};

struct TaskScore {
  std::string task_id;
  std::string question;
  Json gold;
  Json raw_answer;
  std::string status;  // prediction status, or "missing" when the run has no line for the task
  AnswerScore answer;
  int hops = 0;          // k of AnalyzeHops
  size_t documents = 0;  // datasets_used entries
  std::string documents_bucket;
  std::string namespace_mix;  // "datagov", "wikipedia", "datagov+wikipedia", ...
  std::string answer_type;
  std::vector<std::string> gold_datasets;  // D*
  TraceSets sets;
  bool has_trace = false;
  Prf dret;
  Prf dacc;
  FunnelStage stage = FunnelStage::kSearchMissing;
  double runtime_s = 0;
  double cost_usd = 0;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;
  int turns = 0;
  std::optional<JudgeVerdict> judge;

  Json ToJson() const;
};

// Figure 5's buckets of gold documents per task: "1-8", "9-13", "14-18", ">18".
std::string DocumentsBucket(size_t documents);

// ---- aggregates --------------------------------------------------------------------------------------

struct Distribution {
  size_t n = 0;
  double mean = 0;
  double median = 0;
  double p90 = 0;  // linear interpolation between closest ranks (numpy's default)
  double min = 0;
  double max = 0;
  double sum = 0;
  Json ToJson() const;
};
Distribution Summarize(std::vector<double> values);

struct Bucket {
  size_t tasks = 0;
  size_t em = 0;
  size_t lenient = 0;
  double em_rate() const { return tasks ? static_cast<double>(em) / static_cast<double>(tasks) : 0; }
  Json ToJson() const;
};

struct RunScore {
  std::string run_dir;
  std::vector<TaskScore> tasks;                  // in task-file order
  std::vector<std::string> not_run;              // tasks given with no prediction line
  std::vector<std::string> unknown_predictions;  // prediction task ids not among the tasks
  std::vector<std::string> warnings;

  // Leaderboard fields (fractions in [0, 1]; runtime and cost are per-task means).
  double em = 0;
  double runtime_s = 0;
  double cost_usd = 0;
  Prf dacc;  // macro average over tasks with a non-empty D*
  Prf dret;
  size_t discovery_tasks = 0;

  double lenient = 0;
  double numeric_match = 0;
  double date_match = 0;
  double token_f1 = 0;
  std::map<std::string, size_t> status_counts;
  std::map<FunnelStage, size_t> funnel;
  std::map<int, Bucket> by_hops;
  std::map<std::string, Bucket> by_documents;
  std::map<std::string, Bucket> by_namespace_mix;
  std::map<std::string, Bucket> by_answer_type;
  Distribution runtime;
  Distribution cost;
  Distribution turns;
  Distribution tool_calls;
  std::map<std::string, size_t> tool_call_totals;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;

  // Judge (only when every scored task has a verdict): accuracy and agreement with EM.
  bool judged = false;
  double judge_accuracy = 0;
  double judge_agreement = 0;
  size_t judge_em_disagreements = 0;
  double judge_cost_usd = 0;
  std::string judge_model;

  Json ToJson() const;
};

// Scores every task that has a prediction line; tasks without one are listed in not_run.
RunScore ScoreRun(const RunData& run, const std::vector<Task>& tasks);
// Recomputes the aggregates from `tasks` (after judge verdicts are attached, say).
void Aggregate(RunScore& score);

}  // namespace lakeqa::eval
