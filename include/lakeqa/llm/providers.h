// Chat clients for the two wire protocols lakeqa speaks, and the factory that picks one from a
// "provider:model" spec. Keys come only from environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY)
// and are never written to traces, cassettes or run.json.
#pragma once

#include <memory>
#include <string>

#include "lakeqa/llm/chat.h"
#include "lakeqa/llm/http.h"

namespace lakeqa::llm {

struct ClientOptions {
  std::string base_url;  // empty: the provider's public endpoint; else e.g. http://127.0.0.1:8000/v1
  std::string api_key;   // filled from the environment by MakeClient; never logged
  bool stream = true;
  HttpOptions http;
};

// OpenAI Chat Completions with tools (also vLLM, llama.cpp server, Ollama through base_url).
std::unique_ptr<ChatClient> MakeOpenAiClient(ClientOptions options);
// Anthropic Messages with tool use.
std::unique_ptr<ChatClient> MakeAnthropicClient(ClientOptions options);

struct ModelSpec {
  std::string provider;  // "openai" | "anthropic"
  std::string model;     // provider model id
  std::string Name() const { return provider + ":" + model; }
};
// "openai:gpt-5.2", "anthropic:claude-sonnet-4-5". A bare name is refused: the provider must be explicit.
Result<ModelSpec> ParseModelSpec(std::string_view spec);

// Builds the client for a spec, reading the key from the provider's environment variable. A missing key
// is kUnauthenticated unless base_url points at a local server (which rarely wants one).
Result<std::unique_ptr<ChatClient>> MakeClient(const ModelSpec& spec, ClientOptions options);

}  // namespace lakeqa::llm
