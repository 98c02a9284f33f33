// The KramaBench solutions oracle (`lakeqa kramabench solutions`): each reference solution
// (solutions/<domain>/<task id>.py of a KramaBench checkout) runs in the Python sandbox over the lake's
// files — laid out as data/<domain>/input/ in the sandbox, as the solutions expect, by symbolic links into
// the read-only lake mount — and its answer is scored against the task's gold answer with KramaBench's
// metrics. Every task gets a status and a reason; the ones that ran are scored. This checks the lake, the
// sandbox and the scorer end to end on data and code nobody here wrote.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/exec/python.h"

namespace lakeqa::kramabench {

struct KramaBenchOracleOptions {
  std::string checkout;        // the KramaBench checkout holding solutions/<domain>/
  std::string lake_root;       // a local lake built with --source kramabench:<checkout>
  std::string ns_prefix;       // the build's --namespace ("" = kramabench)
  exec::PythonOptions python;  // limits (wall time per solution, memory, ...)
  std::string work_dir;        // where per-task sandboxes are made ("" = a temporary folder, removed after)
};

// Statuses, in the order a task can fail: no_solution (no .py for the task), no_lake_files (the domain's
// namespace is not in the lake), missing_library (ModuleNotFoundError), missing_file (FileNotFoundError:
// the solution reads a file the lake lacks), failed (any other exception or exit), timeout, no_answer
// (ran, but printed nothing and ended on no expression), unscored (unknown answer type), scored.
//
// The answer of a solution is what a notebook shows: the value of its last statement when that is an
// expression, str()'d; otherwise the last non-blank line it printed.
//
// Returns {"tasks": [{task_id, domain, answer_type, status, reason?, answer?, gold, metrics?, score?,
// main_metric?, gold_in_output?, missing_sources?, elapsed_ms}], "counts": {status: n},
// "leaderboard": KramaBenchTable JSON over the scored tasks}. `on_task` (optional) sees each result.
Result<Json> RunKramaBenchSolutions(const std::vector<eval::Task>& tasks,
                                    const KramaBenchOracleOptions& options,
                                    const std::function<void(const Json&)>& on_task = {});

}  // namespace lakeqa::kramabench
