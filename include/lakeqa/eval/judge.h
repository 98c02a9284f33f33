// The LLM judge: a second opinion on answers that exact match rejects for their surface form
// ("Pittsburgh, PA" vs "Pittsburgh, Pennsylvania"). The prompt is pinned (kJudgePromptVersion names it),
// the model is chosen per run, and every verdict is cached in the run directory
// (<run>/judge/<provider_model>.jsonl, keyed by a hash of prompt version, model, question, gold and
// answer), so scoring a run again costs nothing. The verdicts go into report.json with the judge's own
// accuracy, cost and agreement with EM. JudgeClient is the one thing the judge needs from a model:
// MakeJudgeClient adapts lakeqa's llm chat clients to it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::eval {

inline constexpr const char* kJudgePromptVersion = "lakeqa-judge-v1";

struct JudgeCompletion {
  std::string text;
  std::optional<double> cost_usd;  // unknown for an unpriced model
};

// Attempts at a readable reply per answer: a reply that is not a verdict is asked again this many times
// in all, then the task is left without a verdict.
inline constexpr int kJudgeAttempts = 3;

class JudgeClient {
 public:
  virtual ~JudgeClient() = default;
  // One model call with a system and a user message; the reply's text and its cost.
  virtual Result<JudgeCompletion> Complete(const std::string& system, const std::string& user) = 0;
  // "provider:model", recorded with each verdict.
  virtual std::string Model() const = 0;
};

struct JudgeSpec {
  std::string provider;
  std::string model;
  std::string base_url;  // empty: the provider's endpoint
  std::string Name() const { return provider + ":" + model; }
};
// "openai:gpt-5.2" → {openai, gpt-5.2}; the provider must be explicit.
Result<JudgeSpec> ParseJudgeSpec(std::string_view spec);

// A JudgeClient over the llm module's chat client for the spec (key from the provider's environment
// variable; cost from the default pricing table, unknown when the model is unpriced).
Result<std::unique_ptr<JudgeClient>> MakeJudgeClient(const JudgeSpec& spec);

// The pinned prompt.
std::string JudgeSystemPrompt();
std::string JudgeUserPrompt(std::string_view question, std::string_view gold, std::string_view answer);

// Reads the model's reply: a JSON object {"verdict": "correct"|"incorrect", "rationale": "..."}, possibly
// inside a ```json fence; failing that, a reply whose first word is CORRECT or INCORRECT.
Result<JudgeVerdict> ParseJudgeReply(std::string_view text);

// Judges every scored task (a task without a submitted answer is "incorrect" without a model call),
// reusing and extending the cache in `run_dir`, then recomputes the aggregates. A reply that is not a
// verdict is an error, not an "incorrect": it is asked again (kJudgeAttempts in all), and if it stays
// unreadable the task gets no verdict, nothing is cached for it (the next scoring asks again), a warning
// names it and the report counts it (judge.failed). A failed model call fails the whole judging (verdicts
// obtained so far stay cached).
Status JudgeRun(RunScore& score, JudgeClient& client, const JudgeSpec& spec, const std::string& run_dir);

}  // namespace lakeqa::eval
