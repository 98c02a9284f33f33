// The request `lakeqa run` makes before its first task: one small chat call that finds out at once what
// every task would otherwise discover one by one, each after its own retries: that the endpoint answers,
// that the key is accepted and that the model id exists.
#pragma once

#include <string>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/llm/chat.h"
#include "lakeqa/llm/pricing.h"

namespace lakeqa::llm {

struct PreflightResult {
  std::string model;  // as the server names it
  Usage usage;        // real tokens, paid for like any other call
  double elapsed_ms = 0;
  // {"ok": true, "model", "elapsed_ms", "usage", "cost_usd"}; cost_usd is null without a price.
  Json ToJson(const std::optional<Price>& price) const;
};

// A one-line question without tools and a 16-token answer budget. Any error is final for the run: the
// caller gives the client few retries (a dead endpoint should cost seconds, not minutes).
Result<PreflightResult> Preflight(ChatClient& client, const std::string& model);

}  // namespace lakeqa::llm
