#include "lakeqa/agent/verify.h"

#include <atomic>

#include "lakeqa/agent/agent.h"

namespace lakeqa::agent {

VerifyReport VerifyTasks(const std::vector<eval::Task>& tasks, const ToolEnvFactory& make_env,
                         const std::function<void()>& on_task) {
  VerifyReport rep;
  auto oracle = MakeOracleAgent();
  std::atomic<bool> cancel{false};
  for (const eval::Task& task : tasks) {
    Json row = {{"task_id", task.id}, {"file", task.Where()}};
    auto env = make_env(task);
    if (!env.ok()) {
      row["error"] = env.status().ToString();
      row["grounded"] = false;
    } else {
      AgentResult r = oracle->Run(task, **env, cancel);
      Json per_node = r.extra.value("nodes", Json::array());
      size_t g = r.extra.value("grounded", size_t{0});
      rep.nodes += task.nodes.size();
      rep.nodes_grounded += g;
      row["nodes"] = per_node;
      row["grounded"] = !task.nodes.empty() && g == task.nodes.size();
      if (!r.error.empty()) row["error"] = r.error;
    }
    ++rep.tasks;
    if (row["grounded"].get<bool>()) ++rep.tasks_grounded;
    rep.results.push_back(std::move(row));
    if (on_task) on_task();
  }
  return rep;
}

}  // namespace lakeqa::agent
