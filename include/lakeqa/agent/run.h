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
#include "lakeqa/eval/run_dir.h"
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
  Json config = Json::object();         // the flags as given
  std::vector<std::string> task_paths;  // --tasks as given; run.json keeps the union over invocations
  Json lake = nullptr;                  // {"uri", "forced"}: the lake the tools read
  Json index = nullptr;  // {"dir", "lake", "manifest"}: the index and the lake it was built from
  // A resumed run on another lake than the one run.json records is refused unless this is set (--force).
  bool force_lake = false;
  std::vector<std::string> warnings;  // kept in run.json for good (a lake other than the index's, forced)
  // Stop launching tasks once this many have failed (error or crashed) in this invocation; 0: no limit.
  int max_failures = 0;
  // Called once before the first task when there is a task to run (the llm agent's request that checks key,
  // model id and endpoint); its JSON goes to run.json. A failure stops the run before any task.
  std::function<Result<Json>()> preflight;
  // Each task runs this many times (epochs 1..K, all tasks of epoch 1 first). Epoch 1 keeps the layout of a
  // single-epoch run; epoch e > 1 writes traces/epoch-<e>/<task>.jsonl. With K > 1 every prediction line
  // and trace event carries "epoch". A resumed run skips the (task, epoch) pairs already final.
  int epochs = 1;
  // The stage ablation ({"search", "decompose", "compute"}; null: standard), recorded in run.json; a
  // resumed run with another ablation is refused.
  Json ablation = nullptr;
  // Tasks left out before the run because their data does not allow it ({"task_id", "reason"}), kept in
  // the invocation's record in run.json.
  Json not_run = Json::array();
};

struct RunSummary {
  size_t tasks = 0;    // in the task set
  int epochs = 1;      // runs of each task; skipped/ran/answered/... count (task, epoch) episodes
  size_t skipped = 0;  // already finished in an earlier invocation
  size_t ran = 0;      // recorded by this invocation
  size_t answered = 0;
  size_t failed = 0;                 // error or crashed
  size_t unfinished = 0;             // max_turns, timeout, token/cost limit
  size_t not_applicable = 0;         // the agent could not attempt the task (the oracle: no gold trail)
  std::string first_not_applicable;  // "<task id>: <reason>" of the first
  size_t cancelled = 0;    // stopped mid-task by SIGINT/SIGTERM (not recorded; they run again on resume)
  size_t not_started = 0;  // left for the next invocation: interrupted, or stopped by max_failures
  bool interrupted = false;
  std::string stopped;  // "", "interrupted" or "max_failures"
  llm::Usage usage;
  double cost_usd = 0;      // over the recorded tasks whose cost is known
  size_t cost_known = 0;    // recorded tasks with a known cost
  size_t cost_unknown = 0;  // recorded tasks of an unpriced model: left out of cost_usd
  double elapsed_s = 0;
  std::string first_failure;  // "<task id>: <error>" of the first failed task
  // cost_usd is null when every recorded task's cost is unknown.
  Json ToJson() const;
};

// Makes the agent for one task (agents hold per-episode state only inside Run, but a factory keeps
// that an agent's own business).
using AgentFactory = std::function<std::unique_ptr<Agent>()>;
// The same for runs whose agent depends on the epoch (the llm agent records each epoch's model calls in
// its own cassette, so a resumed or replayed epoch gets its own answers, not epoch 1's).
using EpochAgentFactory = std::function<std::unique_ptr<Agent>(int epoch)>;

// The last recorded status of every task in <out_dir>/predictions.jsonl (a torn last line is ignored), of
// epoch 1; ReadRecordedEpochStatus keys every epoch's by (task id, epoch).
Result<std::map<std::string, std::string>> ReadRecordedStatus(const std::string& out_dir);
Result<std::map<std::pair<std::string, int>, std::string>> ReadRecordedEpochStatus(
    const std::string& out_dir);

// Runs `tasks`; `cancel` stops launching new tasks and makes running ones stop at their next turn.
// Fails when the run directory cannot be used (unwritable, holds a different run or a run.json format this
// lakeqa does not know, duplicate ids) and when the preflight fails; failed tasks are recorded and counted
// in the summary, not returned as an error.
Result<RunSummary> RunTasks(const RunOptions& options, const std::vector<eval::Task>& tasks,
                            const AgentFactory& make_agent, const ToolEnvFactory& make_env,
                            std::atomic<bool>& cancel);
Result<RunSummary> RunTasks(const RunOptions& options, const std::vector<eval::Task>& tasks,
                            const EpochAgentFactory& make_agent, const ToolEnvFactory& make_env,
                            std::atomic<bool>& cancel);

// A task id as a file name (eval/trace_file.h); the run folder's paths are eval::RunDir's.
using eval::TraceFileName;

}  // namespace lakeqa::agent
