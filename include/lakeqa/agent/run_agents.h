// Making the agents of a run and running them over a task set: what `lakeqa run` and `lakeqa demo` call.
// PrepareAgentRun loads and checks the tasks, opens the tools over the lake and the index, chooses the agent
// (for the llm agent: the pricing table, the preflight and one record/replay cassette per epoch) and fills
// run.json's configuration; AgentRun::Run then runs it (agent::RunTasks) and says whether it did what was
// asked. Nothing is written to the run folder before the tools opened, so a refused run leaves nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/agent/ablation.h"
#include "lakeqa/agent/run.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::agent {

// Everything `lakeqa run` takes; the names of its flags are in the comments where they differ.
struct AgentRunOptions {
  std::vector<std::string> tasks;  // task files or folders (--tasks)
  std::string index, lake;
  lake::S3Options s3;         // the --s3-* flags
  std::string agent = "llm";  // llm | oracle | baseline | replay
  std::string model;          // provider:model (--agent llm)
  std::string out;            // the run folder
  std::string base_url, pricing, cassette, traces, system_prompt_file, prompt;
  std::string result_view = "compact";  // compact | full
  std::vector<std::string> tools, ablate;
  int epochs = 1, parallel = 1, max_turns = 25, max_output_tokens = 8192, max_failures = 0, max_retries = 6;
  double timeout = 450, request_timeout = 300, max_cost = 0;
  int64_t max_tokens = 0;
  bool only_new = false, offline = false, no_stream = false, force = false, provide_provenance = false;
  bool progress = true;  // the progress bar on stderr
  // Lines about the task set ("skipped: …", "note: …", "not run (<file>): …"), as they come.
  std::function<void(const std::string& line)> on_note;
  // The tools' warnings ("warning: …", a lake other than the index's) and an unpriced model.
  std::function<void(const std::string& line)> on_warning;
};

// How a run went, beside agent::RunSummary.
struct AgentRunResult {
  RunSummary summary;
  Ablation ablation;
  Json not_run = Json::array();  // tasks left out for lack of the gold data the ablation needs
  // Empty when the run did all it was asked; else why not (failed tasks, an oracle that applied to no task,
  // tasks not run): the run's results are written all the same.
  std::string failed;
  // The summary with "out", "ablation" and "not_run".
  Json ToJson(const std::string& out) const;
};

// A run ready to start: its tasks, agents and tools are open.
class AgentRun {
 public:
  virtual ~AgentRun() = default;
  // Runs the tasks; `cancel` stops launching tasks and makes running ones stop at their next turn.
  virtual Result<AgentRunResult> Run(std::atomic<bool>& cancel) = 0;
};

// Checks the options, loads the tasks, opens the tools and makes the agents, in the order a user would want
// to hear of a mistake (bad numbers first, the model and the lake before anything is written to `out`).
Result<std::unique_ptr<AgentRun>> PrepareAgentRun(const AgentRunOptions& options);

// One cassette per epoch: <cassette> for epoch 1, <stem>.epoch-<e>.jsonl after (a resumed or replayed epoch
// gets its own answers).
std::string CassetteOfEpoch(const std::string& cassette, int epoch);

}  // namespace lakeqa::agent
