// The grounding check of the LakeQA annotation guideline (`lakeqa tasks verify`, and the workbench's
// export): for every task, the oracle agent walks the gold nodes through the real tools — each node's source
// downloaded, its fact code run in the Python sandbox against the lake — and each node must yield its
// annotated answer.
#pragma once

#include <functional>
#include <vector>

#include "lakeqa/agent/tool_env.h"
#include "lakeqa/common/json.h"
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

}  // namespace lakeqa::agent
