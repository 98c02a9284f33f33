// Reading agent runs for the workbench (docs/formats-run.md): the run list with the leaderboard fields,
// each run's per-task rows (from report.json when `lakeqa eval` wrote one, else scored here from the
// run's own task files, else the bare predictions), and one task's trace, read only when it is asked
// for — so a run of thousands of tasks opens without reading thousands of trace files.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::workbench {

class RunLibrary {
 public:
  // `paths`: run directories (holding predictions.jsonl), or folders whose subfolders are run directories.
  // `category_of`: the catalogue category of a dataset id "<namespace>/<id>" ("" when unknown).
  RunLibrary(std::vector<std::string> paths, std::function<std::string(const std::string&)> category_of);

  // [{id, dir, name, agent, model, scored, tasks, em, dacc_f1, dret_f1, runtime_s, cost_usd, ...}]; fields
  // that are not known (an unscored run's EM) are null, never 0.
  Json List();
  // {run, rows: [{task_id, question, gold, answer, status, correct, stage, hops, category, ...}], source}.
  Result<Json> Tasks(const std::string& run_id);
  // {run, row, events: [trace event objects as written], trace_file, warnings}.
  Result<Json> Task(const std::string& run_id, const std::string& task_id);

 private:
  struct Loaded;
  Result<std::shared_ptr<Loaded>> Load(const std::string& run_id);
  Result<std::string> DirOf(const std::string& run_id);
  // The jobs of Load: the report (read, or scored here), then the rows from it or from the predictions.
  static Result<Json> ReadReport(Loaded& l);
  void AddReportRows(Json& report, Loaded& l) const;
  static Status AddPredictionRows(Loaded& l);
  std::vector<std::string> Discover();

  std::vector<std::string> paths_;
  std::function<std::string(const std::string&)> category_of_;
  std::mutex mu_;
  std::vector<std::string> dirs_;                         // the last discovery, index = run id
  std::map<std::string, std::shared_ptr<Loaded>> cache_;  // by directory
};

}  // namespace lakeqa::workbench
