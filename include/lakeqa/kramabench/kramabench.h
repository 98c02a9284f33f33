// KramaBench (github.com/mitdbg/Kramabench) tasks and scoring. Workloads (workload/<domain>.json: a list
// of tasks with id, query, answer, answer_type, data_sources and subtasks) load into Task (eval/task.h) with
// this record attached; scoring ports KramaBench's benchmark/metrics.py and the aggregation of its
// evaluate.py exactly, including the evaluator's cast of both answers to str before any metric runs.
// docs/kramabench.md states every rule and where lakeqa's numbers can differ from a Python run.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/score.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::kramabench {

// The six answer types of KramaBench's answer_type_fixtures.json, in its order.
const std::vector<std::string>& KramaBenchAnswerTypes();
bool IsKramaBenchAnswerType(std::string_view type);
// The metrics KramaBench computes for an answer type (answer_type_fixtures.json); empty when unknown.
const std::vector<std::string>& KramaBenchMetricsFor(std::string_view answer_type);

struct KramaBenchSource {
  std::string entry;               // as written in data_sources
  std::vector<std::string> files;  // paths under data/<domain>/input/ it names (empty: none found)
};

struct KramaBenchSubtask {
  std::string id;
  std::string query;
  Json answer;
  std::string answer_type;
  std::vector<KramaBenchSource> sources;
};

// Task::format of KramaBench's tasks.
inline constexpr std::string_view kFormat = "kramabench";

struct KramaBenchTask : eval::TaskExtension {
  std::string domain;       // "legal" (from the id, else the workload file name)
  std::string difficulty;   // "easy" | "hard" (from the id), "" when the id has neither
  std::string answer_type;  // as written; may be unknown (validation reports it)
  std::vector<KramaBenchSource> sources;
  std::vector<KramaBenchSubtask> subtasks;
  // Where data_sources were resolved: data/<domain>/input/ beside the workload's folder, or "" when the
  // workload is not in a checkout (then only plain paths count, taken as written).
  std::string input_dir;
  std::string ns;  // the lake namespace of the domain (kramabench-<domain>)

  std::optional<std::string> AnswerType() const override { return answer_type; }
  bool HasHopGraph() const override { return false; }  // subtasks, not a hop graph: CheckKramaBenchTask
  std::string OracleNotApplicable() const override;
};

// The task's KramaBench record, or nullptr when it is not a KramaBench task.
const KramaBenchTask* Of(const eval::Task& task);

// Whether a parsed JSON document is a KramaBench workload (a list of objects with "query" and
// "answer_type").
bool IsKramaBenchWorkload(const Json& doc);
// Loads one workload document: every task, or a per-task error naming the task and the field.
eval::LoadResult LoadKramaBenchWorkload(const Json& doc, const std::string& file);

// In a workload/ folder given whole: a workload file that is not a domain's own (`legal-tiny.json`,
// `quick-start-questions.json`: its stem is not the domain of its tasks) and reuses task ids of the domain's
// file in the same folder (`legal.json`) is left out, since the same id names another version of the task
// there. Per file to leave out, the note saying why.
std::map<std::string, std::string> WorkloadFolderExtras(
    const std::vector<std::pair<std::string, eval::LoadResult>>& parts);

// Per-task problems `tasks validate` reports: unknown answer types (errors), data sources that name no
// file (warnings: the task can still run, its gold set is smaller).
void CheckKramaBenchTask(const eval::Task& task, std::vector<std::string>& errors,
                         std::vector<std::string>& warnings);

// ---- metrics (benchmark/metrics.py) ------------------------------------------------------------------

// Python's float() of a string (whitespace, underscores, inf/nan, exponents); nullopt where Python raises.
std::optional<double> PyFloat(std::string_view s);

// Each returns nullopt where KramaBench's metric returns None (an unknown value, left out of means) or
// needs an LLM (llm_paraphrase; f1_approximate on string items). All take the str()-cast answers.
double KbSuccess(std::string_view predicted, std::string_view target);
std::optional<double> KbMeanAbsoluteError(std::string_view predicted, std::string_view target);
std::optional<double> KbMeanSquaredError(std::string_view predicted, std::string_view target);
double KbMeanRelativeAbsoluteError(std::string_view predicted, std::string_view target);
double KbBleu(std::string_view predicted, std::string_view target);  // nltk sentence_bleu, per character
struct RougeOne {
  double precision = 0, recall = 0, fmeasure = 0;
};
RougeOne KbRouge1(std::string_view predicted, std::string_view target);  // rouge_score rouge1, no stemmer
double KbF1(std::string_view predicted, std::string_view target);        // metrics.F1 on two strings
std::optional<double> KbF1Approximate(std::string_view predicted, std::string_view target);

// Every metric of the answer type for one answer, as Evaluator.evaluate_response_with_metric computes
// it: both answers cast to str and stripped first. `paraphrase` is the llm_paraphrase verdict when a judge
// gave one. A metric without a value is null. Unknown answer type: an error.
Result<std::map<std::string, std::optional<double>>> KramaBenchMetrics(std::string_view answer_type,
                                                                       const Json& predicted,
                                                                       const Json& target,
                                                                       std::optional<bool> paraphrase = {});

// The one score evaluate.py's total uses for a task: success, f1, rae_score (1/(1+mrae)) or
// string_bootstrap (1 if paraphrase, else rouge when bleu > 0.2, else 0); the metric's name in `name`.
// nullopt for list_approximate (not in the total) and for string_bootstrap without a paraphrase verdict.
std::optional<double> KramaBenchMainScore(std::string_view answer_type,
                                          const std::map<std::string, std::optional<double>>& metrics,
                                          std::string* name);

// ---- aggregation (evaluate.py aggregate_results) -----------------------------------------------------

struct KramaBenchRow {
  std::string task_id;
  std::string domain;
  std::string answer_type;
  bool subtask = false;
  std::map<std::string, std::optional<double>> metrics;  // including the derived rae_score/string_bootstrap
};

struct KramaBenchMetricSummary {
  double mean = 0;     // over values present (NaN-free), like pandas mean after dropna
  double std = 0;      // sample standard deviation (ddof 1), 0 for fewer than two values
  size_t support = 0;  // values present
  size_t total = 0;    // rows
  Json ToJson() const;
};

struct KramaBenchTable {
  // domain → metric → summary; "overall" pools every domain.
  std::map<std::string, std::map<std::string, KramaBenchMetricSummary>> metrics;
  // domain → evaluate.py's "Total score": Σ support·mean / Σ total over success, f1, rae_score,
  // string_bootstrap (a row without a value counts in the total, as a NaN does there).
  std::map<std::string, std::optional<double>> score;
  std::map<std::string, size_t> unknown;  // rows whose main score is unknown, per domain
  Json ToJson() const;
};

KramaBenchTable AggregateKramaBench(const std::vector<KramaBenchRow>& rows);

// ---- a run over KramaBench tasks (`lakeqa eval`) ------------------------------------------------------

// KramaBench's metrics for every scored KramaBench task of `score` (the judge's verdict, when the run was
// judged, is llm_paraphrase), the leaderboard table, the tasks left unscored with the reason (unknown
// answer type), and the subtasks the run answered (prediction lines whose task_id is a subtask id).
// Null when no task is a KramaBench task.
Json KramaBenchRunReport(const eval::RunScore& score, const eval::RunData& run,
                         const std::vector<eval::Task>& tasks);
// A leaderboard (KramaBenchTable::ToJson) as text: one row per domain, then overall.
std::string FormatKramaBenchLeaderboard(const Json& leaderboard, std::string_view title);
// The leaderboard tables of a report (main tasks, then subtasks when any) and the unscored tasks, as text.
std::string FormatKramaBenchRunReport(const Json& report);
// report.html's KramaBench section (leaderboards, per-task main metric and score, unscored tasks) from the
// same object; "" when `report` is null.
std::string KramaBenchHtmlSection(const Json& report);

// Per-task statistics for `tasks stats`: counts per domain, answer type, difficulty; subtasks.
Json KramaBenchStats(const std::vector<eval::Task>& tasks);
std::string FormatKramaBenchStats(const Json& stats);

// ---- registration -------------------------------------------------------------------------------------

// Registers KramaBench with the core: the `kramabench:<checkout>` source kind, the workload task format and
// the report section. Called once from src/cli/benchmarks.cc (and by the tests); a second call is harmless.
void Register();

}  // namespace lakeqa::kramabench
