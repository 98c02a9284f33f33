// Outcome names and the prediction line.
#include "lakeqa/agent/agent.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::agent {

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kAnswered:
      return "answered";
    case Outcome::kMaxTurns:
      return "max_turns";
    case Outcome::kTimeout:
      return "timeout";
    case Outcome::kTokenLimit:
      return "token_limit";
    case Outcome::kCostLimit:
      return "cost_limit";
    case Outcome::kNotApplicable:
      return "not_applicable";
    case Outcome::kError:
      return "error";
    case Outcome::kCrashed:
      return "crashed";
    case Outcome::kCancelled:
      return "cancelled";
  }
  return "error";
}

std::optional<Outcome> OutcomeFromName(std::string_view name) {
  for (Outcome o : {Outcome::kAnswered, Outcome::kMaxTurns, Outcome::kTimeout, Outcome::kTokenLimit,
                    Outcome::kCostLimit, Outcome::kNotApplicable, Outcome::kError, Outcome::kCrashed, Outcome::kCancelled}) {
    if (OutcomeName(o) == name) return o;
  }
  return std::nullopt;
}

bool IsFinal(Outcome o) {
  return eval::IsFinalStatus(OutcomeName(o));
}

Json AgentResult::ToPrediction() const {
  Json j = {{"task_id", task_id},      {"status", OutcomeName(outcome)},
            {"answer", answer},        {"raw_answer", raw_answer},
            {"reasoning", reasoning},  {"sources", sources},
            {"turns", turns},          {"tool_calls", tool_calls},
            {"usage", usage.ToJson()}, {"cost_usd", cost_usd ? Json(*cost_usd) : Json()},
            {"elapsed_s", elapsed_s},  {"returned", returned},
            {"accessed", accessed}};
  if (!error.empty()) j["error"] = error;
  if (!extra.empty()) j["extra"] = extra;
  return j;
}

}  // namespace lakeqa::agent
