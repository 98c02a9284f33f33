// EvaluateRun (evaluate_run.h): the steps of `lakeqa eval --run` between its flags and its summary.
#include "lakeqa/eval/evaluate_run.h"
#include "lakeqa/eval/run_dir.h"

#include <fmt/format.h>

#include "lakeqa/eval/epochs.h"
#include "lakeqa/eval/judge.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/report_section.h"

namespace lakeqa::eval {
namespace {

Result<std::vector<std::string>> TaskPaths(const EvaluateRunOptions& o, const RunData& run) {
  std::vector<std::string> paths = o.tasks;
  if (paths.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(paths, RunTaskPaths(run.run_json, RunDir(o.run_dir).RunJson()));
  }
  if (paths.empty())
    return InvalidArgument(RunDir(o.run_dir).RunJson() +
                           " names no \"tasks\": pass --tasks <files or folders>");
  return paths;
}

Status Judge(const EvaluateRunOptions& o, RunScore& score) {
  LAKEQA_ASSIGN_OR_RETURN(JudgeSpec spec, ParseJudgeSpec(o.judge));
  if (!o.judge_base_url.empty()) spec.base_url = o.judge_base_url;
  LAKEQA_ASSIGN_OR_RETURN(auto client, MakeJudgeClient(spec));
  return JudgeRun(score, *client, spec, o.run_dir);
}

}  // namespace

Result<RunScore> EvaluateRun(const EvaluateRunOptions& o) {
  LAKEQA_ASSIGN_OR_RETURN(RunData run, LoadRun(o.run_dir));
  LAKEQA_ASSIGN_OR_RETURN(std::vector<std::string> paths, TaskPaths(o, run));
  LoadResult loaded = LoadTasks(paths);
  if (o.on_note) {
    for (const auto& n : loaded.notes) o.on_note("note: " + n);
  }
  if (loaded.tasks.empty()) {
    std::string why = loaded.errors.empty() ? "no task files found" : loaded.errors[0].status.message();
    return NotFound("no task could be loaded from the given paths: " + why);
  }
  RunScore score = ScoreRun(run, loaded.tasks);
  if (run.Epochs() > 1 || (run.run_json.contains("epochs") && run.run_json["epochs"].is_number_integer() &&
                           run.run_json["epochs"].get<int>() > 1))
    score.epochs = ScoreEpochs(run, loaded.tasks);
  for (const auto& e : loaded.errors) score.warnings.push_back("task skipped: " + e.status.message());
  if (score.tasks.empty()) {
    return NotFound(fmt::format("{}: none of the {} predictions matches a loaded task id", o.run_dir,
                                run.predictions.size()));
  }
  if (!o.judge.empty()) LAKEQA_RETURN_IF_ERROR(Judge(o, score));
  AddReportSections(score, run, loaded.tasks);
  LAKEQA_RETURN_IF_ERROR(WriteReports(score, run, o.run_dir));
  return score;
}

}  // namespace lakeqa::eval
