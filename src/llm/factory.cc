// "provider:model" → a chat client, with the key read from the provider's environment variable.
#include <cstdlib>

#include "lakeqa/llm/providers.h"

namespace lakeqa::llm {

Result<ModelSpec> ParseModelSpec(std::string_view spec) {
  size_t colon = spec.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == spec.size()) {
    return InvalidArgument("model \"" + std::string(spec) +
                           "\": expected provider:model, e.g. openai:gpt-5.2 or anthropic:claude-sonnet-4-5");
  }
  ModelSpec m{std::string(spec.substr(0, colon)), std::string(spec.substr(colon + 1))};
  if (m.provider != "openai" && m.provider != "anthropic") {
    return InvalidArgument(
        "model \"" + std::string(spec) + "\": unknown provider \"" + m.provider +
        "\" (expected openai or anthropic; OpenAI-compatible servers use openai: with --base-url)");
  }
  return m;
}

static bool IsLoopback(const std::string& url) {
  return url.find("://127.") != std::string::npos || url.find("://localhost") != std::string::npos ||
         url.find("://[::1]") != std::string::npos;
}

Result<std::unique_ptr<ChatClient>> MakeClient(const ModelSpec& spec, ClientOptions options) {
  const char* var = spec.provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  if (options.api_key.empty()) {
    const char* key = std::getenv(var);
    if (key != nullptr) options.api_key = key;
  }
  if (options.api_key.empty() && !(options.base_url.size() && IsLoopback(options.base_url))) {
    return Status(ErrorCode::kUnauthenticated, std::string(var) + " is not set: export it to call " +
                                                   spec.Name() +
                                                   " (keys are read from the environment only)");
  }
  if (spec.provider == "anthropic") return MakeAnthropicClient(std::move(options));
  return MakeOpenAiClient(std::move(options));
}

}  // namespace lakeqa::llm
