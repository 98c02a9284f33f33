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
#include "lakeqa/eval/epochs.h"
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
  Json answer;  // raw model text as submitted (null when nothing was submitted)
  std::string
      status;  // ok | timeout | crashed | turn_limit | token_limit | cost_limit | not_applicable | error
  std::optional<double> runtime_s;  // unknown (absent: no runtime_s nor elapsed_s) is not 0 s
  std::optional<double> cost_usd;   // unknown (null or absent: an unpriced model) is not 0
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;
  int turns = 0;
  size_t line = 0;  // 1-based line in predictions.jsonl
  int epoch = 1;    // "epoch" (absent: 1)
};

// ---- which line of a task counts -----------------------------------------------------------------------
// A resumed run appends one line per attempt, so predictions.jsonl may hold several lines for a task. One
// rule, used by `lakeqa run` (what to skip on resume) and `lakeqa eval` (what to score): the last line with
// a final status wins; when no line is final, the last line. Every other line is superseded.

// Final statuses end a task for good: ok/answered, timeout, turn_limit/max_turns, token_limit, cost_limit
// (both the scorer's and `lakeqa run`'s names). error, crashed and anything else can be run again.
bool IsFinalStatus(std::string_view status);

struct PredictionLine {
  std::string task_id;
  std::string status;  // as written
  size_t line = 0;     // 1-based line in predictions.jsonl
  int epoch = 1;       // "epoch" of a repeated run (lakeqa run --epochs); each epoch is its own attempt
};

struct SupersededLine {
  std::string task_id;
  size_t line = 0;
  std::string status;
  size_t by_line = 0;  // the line that counts for the task
  Json ToJson() const;
};

// The index into `lines` of the line that counts for each (task, epoch), in the order they first appear;
// the other lines go to `superseded` (in file order) when it is given.
std::vector<size_t> CurrentLines(const std::vector<PredictionLine>& lines,
                                 std::vector<SupersededLine>* superseded = nullptr);

struct RunData {
  std::string dir;
  Json run_json;                           // run.json (an empty object when missing)
  std::vector<Prediction> predictions;     // the line that counts for each task (CurrentLines), epoch 1
  std::vector<SupersededLine> superseded;  // earlier attempts a resumed run replaced
  std::map<std::string, std::vector<TraceEvent>> traces;  // task id → events in file order
  std::vector<std::string> warnings;                      // skipped lines and files, "<file>:<line>: <what>"
  // Epochs after the first of a repeated run (lakeqa run --epochs): epoch → its predictions and traces
  // (traces/epoch-<e>/). EpochView turns one into a RunData the scorer takes as it is.
  std::map<int, std::vector<Prediction>> later_predictions;
  std::map<int, std::map<std::string, std::vector<TraceEvent>>> later_traces;
  // 1 + the highest later epoch.
  int Epochs() const { return later_predictions.empty() ? 1 : later_predictions.rbegin()->first; }
};

// One epoch of a run as a RunData of its own (epoch 1: `run` itself without the later epochs).
RunData EpochView(const RunData& run, int epoch);

// run.json's format tag: `lakeqa run` writes it, `lakeqa eval` reads it (docs/formats-run.md).
inline constexpr const char* kRunFormat = "lakeqa-run/1";

// The task files and folders a run.json names: "tasks" (the union over the run's invocations) in the
// versioned format; in a run.json written before the format was versioned, "config.tasks", else "tasks"
// as a path or a list of paths. Empty when it names none; unsupported for a format this lakeqa does not
// know (a newer one).
Result<std::vector<std::string>> RunTaskPaths(const Json& run_json, std::string_view where);

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
  kLenientCorrect,  // EM 0 but the lenient match holds (a number at the gold's precision, a date)
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
  // Tool calls are the calls an agent made to the tools of its environment, refused ones (an unknown
  // tool, arguments that are not an object) included; submit_answer ends the episode and is not one, and
  // a turn without a tool call is not one. predictions.jsonl's tool_calls counts the same.
  std::map<std::string, size_t> tool_calls;  // tool name → calls
  size_t calls = 0;
  size_t failed_calls = 0;  // status other than "ok"
};
TraceSets CollectTraceSets(const std::vector<TraceEvent>& events);

// `lenient_correct`: the answer is not an exact match but the lenient one holds; such an answer is not a
// failure of analysis, so it has its own stage.
FunnelStage Classify(bool correct, const std::set<std::string>& gold, const TraceSets& sets,
                     bool lenient_correct = false);

// An LLM judge's verdict on one answer (judge.h produces them).
struct JudgeVerdict {
  bool correct = false;
  std::string rationale;
  std::optional<double> cost_usd;  // unknown for an unpriced judge model
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
  std::vector<std::string> gold_datasets;  // D* (or the gold labels: TaskExtension::GoldLabels)
  std::string kind_key;  // the task format's TaskFormatSpec::kind_key, when its tasks have kinds
  std::string kind;      // the task's kind there (TaskExtension::Kind)
  TraceSets sets;
  bool has_trace = false;
  Prf dret;
  Prf dacc;
  FunnelStage stage = FunnelStage::kSearchMissing;
  std::optional<double> runtime_s;  // unknown when the prediction line has none
  std::optional<double> cost_usd;   // unknown stays unknown: null in JSON, left out of sums
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;
  int turns = 0;
  std::optional<JudgeVerdict> judge;
  std::string judge_error;  // the judge's reply stayed unreadable: no verdict (never cached)

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
  // Every statistic is null when n is 0 (an average of nothing is not 0).
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

// One question kind's slice of a run (report.json's "by_" + the format's kind_key; a benchmark's report
// section): answers and discovery per kind, for a benchmark that reports its question kinds apart.
struct KindScore {
  size_t tasks = 0, em = 0, lenient = 0;
  size_t judged = 0, judge_correct = 0;  // tasks with a verdict, and those the judge called correct
  Prf dret, dacc;                        // macro over the kind's tasks
  Json ToJson() const;
};

struct RunScore {
  std::string run_dir;
  std::vector<TaskScore> tasks;                  // in task-file order
  std::vector<std::string> not_run;              // tasks given with no prediction line
  std::vector<std::string> unknown_predictions;  // prediction task ids not among the tasks
  std::vector<SupersededLine> superseded;        // prediction lines replaced by a later attempt
  std::vector<std::string> warnings;

  // Leaderboard fields (fractions in [0, 1]; runtime and cost are per-task means). cost_usd is the mean
  // over the tasks whose cost is known, unknown when none is.
  double em = 0;
  std::optional<double> runtime_s;  // mean over the tasks whose runtime is known; unknown when none is
  size_t runtime_unknown = 0;       // tasks without a runtime, left out of `runtime`
  std::optional<double> cost_usd;
  size_t cost_unknown = 0;  // tasks of unknown cost, left out of `cost`
  Prf dacc;                 // macro average over tasks with a non-empty D*
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
  // Per task format with kinds (its kind_key): kind → slice; empty unless some task has a kind.
  std::map<std::string, std::map<std::string, KindScore>> by_kind;
  Distribution runtime;
  Distribution cost;
  Distribution turns;
  Distribution tool_calls;
  std::map<std::string, size_t> tool_call_totals;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;

  // Judge (after JudgeRun): accuracy and agreement with EM over the tasks with a verdict; tasks whose judge
  // reply stayed unreadable have none and are counted in judge_failed.
  bool judged = false;
  size_t judge_verdicts = 0;
  size_t judge_failed = 0;
  std::vector<std::string> judge_failed_tasks;
  double judge_accuracy = 0;
  double judge_agreement = 0;
  size_t judge_em_disagreements = 0;
  double judge_cost_usd = 0;      // over verdicts of known cost
  size_t judge_cost_unknown = 0;  // verdicts of an unpriced judge model
  std::string judge_model;

  // A repeated run (lakeqa run --epochs K > 1): pass@k, pass^k and the spread across epochs (epochs.h).
  // Everything above describes epoch 1.
  std::optional<EpochStats> epochs;

  // The registered report sections' parts (report_section.h), by section name (report.json's key); a
  // section with nothing to say about the run has no entry.
  std::map<std::string, Json> sections;

  Json ToJson() const;
};

// Scores every task that has a prediction line; tasks without one are listed in not_run.
RunScore ScoreRun(const RunData& run, const std::vector<Task>& tasks);
// Recomputes the aggregates from `tasks` (after judge verdicts are attached, say).
void Aggregate(RunScore& score);

}  // namespace lakeqa::eval
