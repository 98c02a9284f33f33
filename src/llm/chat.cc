// JSON forms of the chat model: the canonical request (cassette key) and responses (cassette values).
#include "lakeqa/llm/chat.h"

namespace lakeqa::llm {

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kUser: return "user";
    case Role::kAssistant: return "assistant";
    case Role::kTool: return "tool";
  }
  return "user";
}

Message Message::User(std::string text) {
  Message m;
  m.role = Role::kUser;
  m.content = std::move(text);
  return m;
}

Message Message::Assistant(std::string text, std::vector<ToolCall> calls) {
  Message m;
  m.role = Role::kAssistant;
  m.content = std::move(text);
  m.tool_calls = std::move(calls);
  return m;
}

Message Message::ToolResult(std::string call_id, std::string text, bool is_error) {
  Message m;
  m.role = Role::kTool;
  m.tool_call_id = std::move(call_id);
  m.content = std::move(text);
  m.is_error = is_error;
  return m;
}

void ParseToolArguments(ToolCall& call) {
  std::string_view text = call.arguments_text;
  // An empty argument string is how several servers say "no arguments".
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    call.arguments = Json::object();
    return;
  }
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  call.arguments = parsed.is_object() ? std::move(parsed) : Json();
}

static Json ToolCallJson(const ToolCall& c) {
  return {{"id", c.id}, {"name", c.name}, {"arguments", c.arguments_text}};
}

static ToolCall ToolCallFromJson(const Json& j) {
  ToolCall c;
  c.id = j.value("id", "");
  c.name = j.value("name", "");
  c.arguments_text = j.value("arguments", "");
  ParseToolArguments(c);
  return c;
}

static std::string_view ChoiceName(ToolChoice::Kind k) {
  switch (k) {
    case ToolChoice::Kind::kAuto: return "auto";
    case ToolChoice::Kind::kRequired: return "required";
    case ToolChoice::Kind::kNone: return "none";
    case ToolChoice::Kind::kTool: return "tool";
  }
  return "auto";
}

Json ChatRequest::ToJson() const {
  Json msgs = Json::array();
  for (const Message& m : messages) {
    Json jm = {{"role", RoleName(m.role)}, {"content", m.content}};
    if (!m.tool_calls.empty()) {
      jm["tool_calls"] = Json::array();
      for (const auto& c : m.tool_calls) jm["tool_calls"].push_back(ToolCallJson(c));
    }
    if (m.role == Role::kTool) {
      jm["tool_call_id"] = m.tool_call_id;
      jm["is_error"] = m.is_error;
    }
    msgs.push_back(std::move(jm));
  }
  Json tl = Json::array();
  for (const auto& t : tools) {
    tl.push_back({{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}});
  }
  return {{"model", model},
          {"system", system},
          {"messages", std::move(msgs)},
          {"tools", std::move(tl)},
          {"tool_choice", {{"type", ChoiceName(tool_choice.kind)}, {"tool", tool_choice.tool}}},
          {"max_tokens", max_tokens},
          {"temperature", temperature}};
}

Usage& Usage::operator+=(const Usage& o) {
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  cache_read_tokens += o.cache_read_tokens;
  cache_write_tokens += o.cache_write_tokens;
  return *this;
}

Json Usage::ToJson() const {
  return {{"input_tokens", input_tokens},
          {"output_tokens", output_tokens},
          {"cache_read_tokens", cache_read_tokens},
          {"cache_write_tokens", cache_write_tokens}};
}

Usage Usage::FromJson(const Json& j) {
  Usage u;
  if (!j.is_object()) return u;
  u.input_tokens = j.value("input_tokens", int64_t{0});
  u.output_tokens = j.value("output_tokens", int64_t{0});
  u.cache_read_tokens = j.value("cache_read_tokens", int64_t{0});
  u.cache_write_tokens = j.value("cache_write_tokens", int64_t{0});
  return u;
}

Json ChatResponse::ToJson() const {
  Json calls = Json::array();
  for (const auto& c : tool_calls) calls.push_back(ToolCallJson(c));
  return {{"content", content},
          {"tool_calls", std::move(calls)},
          {"usage", usage.ToJson()},
          {"stop_reason", stop_reason},
          {"model", model}};
}

Result<ChatResponse> ChatResponse::FromJson(const Json& j) {
  if (!j.is_object() || !j.contains("content") || !j["content"].is_string()) {
    return ParseError("chat response: expected an object with a string \"content\"");
  }
  ChatResponse r;
  r.content = j["content"].get<std::string>();
  if (j.contains("tool_calls") && j["tool_calls"].is_array()) {
    for (const auto& c : j["tool_calls"]) r.tool_calls.push_back(ToolCallFromJson(c));
  }
  r.usage = Usage::FromJson(j.value("usage", Json::object()));
  r.stop_reason = j.value("stop_reason", "");
  r.model = j.value("model", "");
  return r;
}

}  // namespace lakeqa::llm
