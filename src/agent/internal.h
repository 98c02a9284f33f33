// Helpers shared by the agents: dataset-id tracking (D_ret / D_acc) and trace events.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "lakeqa/agent/agent.h"

namespace lakeqa::agent::internal {

// Adds the dataset ids a tool call returned (search results) and accessed (listed, downloaded,
// inspected) to the result, without duplicates, in first-seen order.
// The dataset ids one call returned (D_ret) and accessed (D_acc), {"returned": [...], "accessed": [...]},
// also merged into out.returned/out.accessed. `called`: the call reached env (not submit_answer, not a
// rejected call), so env's own record of it is asked for first.
Json TrackDatasets(ToolEnv& env, bool called, const std::string& tool, const Json& args, const Json& result,
                   AgentResult& out);

// Calls a tool, turning a thrown exception (a bug in the tool code) into a JSON error.
// compact: the result in the model's compact view (ToolEnv::CallCompact).
Json SafeCall(ToolEnv& env, const std::string& tool, const Json& args, bool compact = false);

bool IsError(const Json& result);
// A trace event's status: "ok", or the error's code name ("not_found", "timeout", ...).
std::string CallStatus(const Json& result);

// One trace line for a tool call made without a model (oracle, baseline, replay).
Json ToolEvent(int turn, const std::string& tool, const Json& args, const Json& result, double elapsed_ms);
// One scripted tool call as the non-LLM agents make it: calls env, counts it, tracks its datasets and
// appends its trace event (turn numbered ++turn). Returns the tool's result.
Json CallAndRecord(ToolEnv& env, int& turn, const std::string& tool, const Json& args, AgentResult& out);

inline double MsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// The run of one task by a scripted, model-free agent (oracle, baseline): nothing is spent (unknown is for
// unpriced models), each tool call is a numbered turn of the trace (CallAndRecord), and the answer goes
// through submit_answer as a model's would.
class ScriptedRun {
 public:
  ScriptedRun(const eval::Task& task, ToolEnv& env);
  Json Call(const std::string& tool, const Json& args) { return CallAndRecord(env_, turn_, tool, args, out); }
  // Records args as a submit_answer call, the last turn of the run.
  void SubmitAnswer(const Json& args);
  int turns() const { return turn_; }
  // The result, with the time the run took.
  AgentResult Finish();

  AgentResult out;

 private:
  ToolEnv& env_;
  int turn_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Cuts a tool result the way the reference harness does: head 2500 + marker + tail 1000 characters,
// on UTF-8 boundaries.
std::string Truncate(const std::string& text, size_t limit);

// Handles submit_answer inside the agent: fills answer fields, returns the tool result for the model.
Json Submit(const Json& args, AgentResult& out);

}  // namespace lakeqa::agent::internal
