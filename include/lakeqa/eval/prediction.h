// One line of predictions.jsonl (docs/formats-run.md): `lakeqa run` writes it (agent/run.h), `lakeqa eval`
// and the workbench read it (score.h). ToJson writes the one vocabulary `lakeqa run` uses; FromJson also
// reads the spellings of files written by other harnesses and by earlier versions, so a run folder that
// scored before still scores the same:
//   status "ok" → "answered", "turn_limit" → "max_turns"; "runtime_s" → elapsed_s;
//   "tokens" {input, output, cache_read} → usage; an integer task_id → its decimal text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/llm/chat.h"

namespace lakeqa::eval {

struct PredictionRecord {
  std::string task_id;
  // answered, max_turns, timeout, token_limit, cost_limit, not_applicable (final), error, crashed.
  std::string status = "answered";
  Json answer;                            // cleaned ("[1,046]" → "1046"); any JSON from another harness
  std::optional<std::string> raw_answer;  // as submitted; what the scorer scores when present
  std::string reasoning;
  std::vector<std::string> sources;
  int turns = 0;
  int tool_calls = 0;
  llm::Usage usage;
  std::optional<double> cost_usd;     // unknown (null or absent: an unpriced model) is not 0
  std::optional<double> elapsed_s;    // unknown (absent) is not 0 s
  std::vector<std::string> returned;  // D_ret
  std::vector<std::string> accessed;  // D_acc
  std::string error;                  // written only when not empty
  Json extra = Json::object();        // written only when not empty
  std::optional<int> epoch;           // written only when set (runs with --epochs > 1); absent reads as 1

  int Epoch() const { return epoch.value_or(1); }
  Json ToJson() const;
  // `where` ("<file>:<line>") starts every error. An unknown status or a used field of the wrong type is an
  // error; the fields the scorer does not use (reasoning, sources, tool_calls, returned, accessed, error,
  // extra) are taken when well-typed and otherwise left empty, as the scorer always read them.
  static Result<PredictionRecord> FromJson(const Json& j, std::string_view where);
};

}  // namespace lakeqa::eval
