// The provider-neutral chat model: messages with roles, tool schemas, tool calls and results, tool_choice
// and token usage. The agent loop speaks only this; each provider (OpenAI Chat Completions and compatible
// servers, Anthropic Messages) maps it to its own wire format, so a run can switch models with one flag.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::llm {

enum class Role { kUser, kAssistant, kTool };
std::string_view RoleName(Role role);

struct ToolCall {
  std::string id;
  std::string name;
  // The arguments exactly as the model sent them (a JSON text); models sometimes send invalid JSON, which
  // the agent must answer with an error rather than crash on.
  std::string arguments_text;
  // Parsed arguments; a null Json when arguments_text is not a JSON object.
  Json arguments;
  bool ArgumentsValid() const { return arguments.is_object(); }
};

struct Message {
  Role role = Role::kUser;
  std::string content;
  std::vector<ToolCall> tool_calls;  // assistant turns only
  std::string tool_call_id;          // tool results only
  bool is_error = false;             // tool results only (Anthropic's is_error)

  static Message User(std::string text);
  static Message Assistant(std::string text, std::vector<ToolCall> calls = {});
  static Message ToolResult(std::string call_id, std::string text, bool is_error = false);
};

struct ToolSchema {
  std::string name;
  std::string description;
  Json parameters;  // JSON Schema of the arguments object
};

struct ToolChoice {
  enum class Kind { kAuto, kRequired, kNone, kTool };
  Kind kind = Kind::kAuto;
  std::string tool;  // for kTool
  static ToolChoice Auto() { return {}; }
  static ToolChoice Required() { return {Kind::kRequired, {}}; }
  static ToolChoice Tool(std::string name) { return {Kind::kTool, std::move(name)}; }
};

struct ChatRequest {
  std::string model;  // the provider's model id ("gpt-5.2", "claude-sonnet-4-5")
  std::string system;
  std::vector<Message> messages;
  std::vector<ToolSchema> tools;
  ToolChoice tool_choice;
  int max_tokens = 8192;
  double temperature = 0.0;

  // Canonical JSON of everything that determines the answer: the cassette key.
  Json ToJson() const;
};

struct Usage {
  int64_t input_tokens = 0;  // all prompt tokens, cached ones included
  int64_t output_tokens = 0;
  int64_t cache_read_tokens = 0;   // part of input_tokens served from the provider's prompt cache
  int64_t cache_write_tokens = 0;  // part of input_tokens written to the cache (Anthropic)
  Usage& operator+=(const Usage& o);
  Json ToJson() const;
  static Usage FromJson(const Json& j);
};

struct ChatResponse {
  std::string content;
  std::vector<ToolCall> tool_calls;
  Usage usage;
  std::string stop_reason;  // provider's own words: "tool_calls", "tool_use", "stop", "end_turn", ...
  std::string model;        // as reported by the server

  Json ToJson() const;
  static Result<ChatResponse> FromJson(const Json& j);
};

class ChatClient {
 public:
  virtual ~ChatClient() = default;
  // One model call. Retries (429, 5xx, connection errors) happen inside; an error here is final.
  virtual Result<ChatResponse> Complete(const ChatRequest& request) = 0;
  // "openai", "anthropic", "cassette", ...
  virtual std::string Provider() const = 0;
};

// Parses tool-call arguments text into ToolCall::arguments (null when not a JSON object).
void ParseToolArguments(ToolCall& call);

}  // namespace lakeqa::llm
