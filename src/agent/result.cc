// Outcome names and the prediction line.
#include "lakeqa/agent/agent.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::agent {

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kAnswered: return "answered";
    case Outcome::kMaxTurns: return "max_turns";
    case Outcome::kTimeout: return "timeout";
    case Outcome::kTokenLimit: return "token_limit";
    case Outcome::kCostLimit: return "cost_limit";
    case Outcome::kNotApplicable: return "not_applicable";
    case Outcome::kError: return "error";
    case Outcome::kCrashed: return "crashed";
    case Outcome::kCancelled: return "cancelled";
  }
  return "error";
}

std::optional<Outcome> OutcomeFromName(std::string_view name) {
  for (Outcome o :
       {Outcome::kAnswered, Outcome::kMaxTurns, Outcome::kTimeout, Outcome::kTokenLimit, Outcome::kCostLimit,
        Outcome::kNotApplicable, Outcome::kError, Outcome::kCrashed, Outcome::kCancelled}) {
    if (OutcomeName(o) == name) return o;
  }
  return std::nullopt;
}

bool IsFinal(Outcome o) { return eval::IsFinalStatus(OutcomeName(o)); }

eval::PredictionRecord AgentResult::ToRecord() const {
  eval::PredictionRecord r;
  r.task_id = task_id;
  r.status = OutcomeName(outcome);
  r.answer = answer;
  r.raw_answer = raw_answer;
  r.reasoning = reasoning;
  r.sources = sources;
  r.turns = turns;
  r.tool_calls = tool_calls;
  r.usage = usage;
  r.cost_usd = cost_usd;
  r.elapsed_s = elapsed_s;
  r.returned = returned;
  r.accessed = accessed;
  r.error = error;
  r.extra = extra;
  return r;
}

}  // namespace lakeqa::agent
