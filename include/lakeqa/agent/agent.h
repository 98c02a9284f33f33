// Agents and the agent loop of the LakeQA paper (Appendix G): one tool call per turn, remaining turns
// and time shown to the model after every tool result, tool_choice forced near the end, limits on
// turns, wall time, tokens and dollars. Every agent returns an AgentResult: the prediction line and the
// trace of what it did.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/agent/ablation.h"
#include "lakeqa/agent/tool_env.h"
#include "lakeqa/common/json.h"
#include "lakeqa/eval/prediction.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/llm/chat.h"
#include "lakeqa/llm/pricing.h"

namespace lakeqa::agent {

// How an episode ended. kAnswered/kMaxTurns/kTimeout/k*Limit/kNotApplicable are final: a resumed run
// skips them. kNotApplicable: the agent cannot attempt the task at all (the oracle on a task without a gold
// trail); it is not an answer. kError (the provider failed for good, the tool env could not open) and
// kCrashed are retried by a resumed run; kCancelled (SIGINT) is never written to predictions.
enum class Outcome {
  kAnswered,
  kMaxTurns,
  kTimeout,
  kTokenLimit,
  kCostLimit,
  kNotApplicable,
  kError,
  kCrashed,
  kCancelled
};
std::string_view OutcomeName(Outcome o);
std::optional<Outcome> OutcomeFromName(std::string_view name);
bool IsFinal(Outcome o);

struct AgentResult {
  std::string task_id;
  Outcome outcome = Outcome::kError;
  std::string answer;      // cleaned ("[5021]" → "5021")
  std::string raw_answer;  // as submitted
  std::string reasoning;
  std::vector<std::string> sources;
  std::string error;
  int turns = 0;
  int tool_calls = 0;
  llm::Usage usage;
  std::optional<double> cost_usd;  // unknown when the model has no price
  double elapsed_s = 0;
  std::vector<std::string> returned;  // dataset ids search results showed (D_ret)
  std::vector<std::string> accessed;  // dataset ids listed, downloaded or inspected (D_acc)
  Json extra = Json::object();        // agent-specific (the oracle's search-recall diagnostic)
  std::vector<Json> trace;            // one event per turn, written to traces/<task>.jsonl

  // The predictions.jsonl line (no trace; no epoch: the runner sets it).
  eval::PredictionRecord ToRecord() const;
};

class Agent {
 public:
  virtual ~Agent() = default;
  // Never throws for expected failures; `cancel` is polled between turns.
  virtual AgentResult Run(const eval::Task& task, ToolEnv& env, const std::atomic<bool>& cancel) = 0;
  virtual std::string Name() const = 0;
};

struct LoopConfig {
  int max_turns = 25;
  double timeout_s = 450;
  int64_t max_total_tokens = 0;  // 0: no limit
  double max_cost_usd = 0;       // 0: no limit
  int forced_turns = 5;          // the last N turns require a tool call (the reference harness's rule)
  int max_output_tokens = 8192;  // per model call
  double temperature = 0;
  size_t result_chars = 4000;  // tool results longer than this are cut (head 2500 + tail 1000)
  // Tool results shown in the compact view (tools/model_view.h) unless the model passes "view" itself;
  // false: the full JSON, as HTTP and MCP clients get it by default.
  bool compact_results = true;
  std::string system_prompt;             // empty: the paper's Appendix G prompt
  std::vector<std::string> extra_tools;  // tools beyond the paper's set, taken from the ToolEnv's schemas
  Ablation ablation;                     // stage oracles (ablation.h); standard by default
};

// The LLM agent. `client` and `pricing` outlive the agent and are shared by parallel episodes.
std::unique_ptr<Agent> MakeLlmAgent(llm::ChatClient& client, const std::string& provider,
                                    const std::string& model, const llm::PricingTable* pricing,
                                    LoopConfig config);

// Walks a task's gold nodes through the real tools: search_keyword with the subquestion (does the gold
// dataset reach the top 20?), download of the gold file, the node's fact code through execute_code (its
// `answer` must match the node answer), then submits the gold answer only if every node grounded.
std::unique_ptr<Agent> MakeOracleAgent();

// A scripted non-LLM baseline: search_keyword with the question's words, download the top hit's first
// file, inspect it, and submit the most frequent number (or word) of the inspection as a guess.
std::unique_ptr<Agent> MakeBaselineAgent();

// Re-issues the tool calls of recorded traces (<traces_dir>/<task id>.jsonl) in order, then submits the
// recorded answer: checks that a run's tool side still reproduces.
std::unique_ptr<Agent> MakeReplayAgent(std::string traces_dir);

}  // namespace lakeqa::agent
