// The judge over lakeqa's llm chat clients: one user message, temperature 0, a short reply, priced with
// the default pricing table.
#include <fmt/format.h>

#include "lakeqa/eval/judge.h"
#include "lakeqa/llm/pricing.h"
#include "lakeqa/llm/providers.h"

namespace lakeqa::eval {
namespace {

class LlmJudgeClient : public JudgeClient {
 public:
  LlmJudgeClient(llm::ModelSpec spec, std::unique_ptr<llm::ChatClient> client,
                 std::optional<llm::Price> price)
      : spec_(std::move(spec)), client_(std::move(client)), price_(price) {}

  Result<JudgeCompletion> Complete(const std::string& system, const std::string& user) override {
    llm::ChatRequest req;
    req.model = spec_.model;
    req.system = system;
    req.messages.push_back(llm::Message::User(user));
    req.max_tokens = 512;
    req.temperature = 0.0;
    LAKEQA_ASSIGN_OR_RETURN(llm::ChatResponse resp, client_->Complete(req));
    JudgeCompletion out;
    out.text = resp.content;
    if (price_) out.cost_usd = llm::PricingTable::Cost(*price_, resp.usage);  // else unknown
    return out;
  }
  std::string Model() const override { return spec_.Name(); }

 private:
  llm::ModelSpec spec_;
  std::unique_ptr<llm::ChatClient> client_;
  std::optional<llm::Price> price_;
};

}  // namespace

Result<std::unique_ptr<JudgeClient>> MakeJudgeClient(const JudgeSpec& spec) {
  LAKEQA_ASSIGN_OR_RETURN(llm::ModelSpec ms, llm::ParseModelSpec(spec.Name()));
  llm::ClientOptions options;
  options.base_url = spec.base_url;
  options.stream = false;
  LAKEQA_ASSIGN_OR_RETURN(std::unique_ptr<llm::ChatClient> client, llm::MakeClient(ms, options));
  std::optional<llm::Price> price;
  if (auto table = llm::PricingTable::LoadDefault(); table.ok()) price = table->Find(ms.provider, ms.model);
  return std::unique_ptr<JudgeClient>(std::make_unique<LlmJudgeClient>(ms, std::move(client), price));
}

}  // namespace lakeqa::eval
