#include "lakeqa/llm/preflight.h"

#include <chrono>

namespace lakeqa::llm {

Json PreflightResult::ToJson(const std::optional<Price>& price) const {
  return {{"ok", true},
          {"model", model},
          {"elapsed_ms", elapsed_ms},
          {"usage", usage.ToJson()},
          {"cost_usd", price ? Json(PricingTable::Cost(*price, usage)) : Json()}};
}

Result<PreflightResult> Preflight(ChatClient& client, const std::string& model) {
  ChatRequest req;
  req.model = model;
  req.messages.push_back(Message::User("Reply with the single word OK."));
  req.max_tokens = 16;
  auto t0 = std::chrono::steady_clock::now();
  LAKEQA_ASSIGN_OR_RETURN(ChatResponse resp, client.Complete(req));
  PreflightResult out;
  out.model = resp.model.empty() ? model : resp.model;
  out.usage = resp.usage;
  out.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace lakeqa::llm
