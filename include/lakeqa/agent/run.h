// A benchmark run: tasks × one agent, in parallel, into a run directory:
//   run.json            configuration, versions, index manifest, model, prompt hash, status and totals
//   predictions.jsonl   one line per finished task (appended and fsynced as each task ends)
//   traces/<task>.jsonl one event per turn (written atomically when the task ends)
// A task that crashes or fails is recorded as such and the run goes on. A run directory can be resumed:
// tasks with a final prediction are skipped without spending a token; cancelled tasks (SIGINT/SIGTERM)
// are not recorded, so a resumed run starts them again.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/agent/agent.h"
#include "lakeqa/agent/tool_env.h"
#include "lakeqa/common/json.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::agent {

struct RunOptions {
  std::string out_dir;
  int parallel = 1;
  // Skip every task that has any prediction (also errors and crashes); by default those are retried.
  bool only_new = false;
  bool progress = true;
  // Recorded in run.json; a resumed run must match agent, model and prompt_hash.
  std::string agent;
  std::string model;
  std::string prompt_hash;
  Json config = Json::object();   // the flags as given
  Json index_manifest = nullptr;  // <index>/manifest.json when there is one
};

struct RunSummary {
  size_t tasks = 0;    // in the task set
  size_t skipped = 0;  // already finished in an earlier invocation
  size_t ran = 0;      // recorded by this invocation
  size_t answered = 0;
  size_t failed = 0;      // error or crashed
  size_t unfinished = 0;  // max_turns, timeout, token/cost limit
  size_t cancelled = 0;
  bool interrupted = false;
  llm::Usage usage;
  double cost_usd = 0;
  double elapsed_s = 0;
  Json ToJson() const;
};

// Makes the agent for one task (agents hold per-episode state only inside Run, but a factory keeps
// that an agent's own business).
using AgentFactory = std::function<std::unique_ptr<Agent>()>;

// The last recorded status of every task in <out_dir>/predictions.jsonl (a torn last line is ignored).
Result<std::map<std::string, std::string>> ReadRecordedStatus(const std::string& out_dir);

// Runs `tasks`; `cancel` stops launching new tasks and makes running ones stop at their next turn.
// Fails only when the run directory cannot be used (unwritable, holds a different run, duplicate ids).
Result<RunSummary> RunTasks(const RunOptions& options, const std::vector<eval::Task>& tasks,
                            const AgentFactory& make_agent, const ToolEnvFactory& make_env,
                            std::atomic<bool>& cancel);

// A task id as a file name (anything outside [A-Za-z0-9._-] becomes '_').
std::string TraceFileName(const std::string& task_id);

}  // namespace lakeqa::agent
