// The grounding check of the LakeQA annotation guideline (`lakeqa tasks verify`, and the workbench's
// export): for every task, the oracle agent walks the gold nodes through the real tools — each node's source
// downloaded, its fact code run in the Python sandbox against the lake — and each node must yield its
// annotated answer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lakeqa/agent/tool_env.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::agent {

struct VerifyReport {
  size_t tasks = 0;
  size_t tasks_grounded = 0;
  size_t nodes = 0;
  size_t nodes_grounded = 0;
  // Per task: {"task_id", "file", "grounded", "nodes": [{"node", "source", "dataset", "search_rank",
  // "answer", "grounded", "error"?}], "error"?}.
  Json results = Json::array();
  bool all_grounded() const { return tasks_grounded == tasks; }
};

// Verifies `tasks` one after another; `on_task` (optional) is called after each.
VerifyReport VerifyTasks(const std::vector<eval::Task>& tasks, const ToolEnvFactory& make_env,
                         const std::function<void()>& on_task = {});

// `lakeqa tasks verify` over task files: questions that cannot apply to a lake (CMDBench graph, document and
// source-routing questions) are named and skipped, not failures; every other load error is.
struct VerifyFilesOptions {
  std::vector<std::string> paths;  // task files or folders
  ToolEnvOptions env;  // the lake and index; an empty work_dir is a temporary folder, removed after
  std::function<void(const std::string& line)> on_note;  // "skipped: …" lines, as they come
  ProgressBar* progress = nullptr;                       // its total is set once the tasks are loaded
};

struct VerifyFilesReport {
  VerifyReport verify;
  size_t load_failures = 0;   // task files or tasks that could not be loaded
  size_t not_applicable = 0;  // questions that do not apply to a lake
  bool all_grounded() const { return verify.all_grounded() && load_failures == 0; }
  // {"tasks", "tasks_grounded", "nodes", "nodes_grounded", "load_errors", "not_applicable", "results"}.
  Json ToJson() const;
};

// Fails when no task applies (unsupported when every question was not applicable, else not_found) and when
// the tools cannot open; tasks that do not ground are in the report.
Result<VerifyFilesReport> VerifyTaskFiles(const VerifyFilesOptions& options);

}  // namespace lakeqa::agent
