// OpenAI Chat Completions with tools, streamed or not. Compatible servers (vLLM, llama.cpp server,
// Ollama) speak the same protocol at their own base URL.
#include <map>

#include "lakeqa/llm/providers.h"
#include "llm/chat_call.h"

namespace lakeqa::llm {
namespace {

constexpr const char* kDefaultBase = "https://api.openai.com/v1";

std::string TrimSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

// Reasoning models on the official endpoint accept only the default temperature and
// max_completion_tokens; compatible servers mostly know only max_tokens.
bool IsOfficialReasoningModel(const std::string& model, bool official) {
  return official && (model.starts_with("gpt-5") || model.starts_with("o1") || model.starts_with("o3") ||
                      model.starts_with("o4"));
}

Json BuildBody(const ChatRequest& req, bool stream, bool official) {
  Json msgs = Json::array();
  if (!req.system.empty()) msgs.push_back({{"role", "system"}, {"content", req.system}});
  for (const Message& m : req.messages) {
    if (m.role == Role::kTool) {
      msgs.push_back({{"role", "tool"}, {"tool_call_id", m.tool_call_id}, {"content", m.content}});
      continue;
    }
    Json jm = {{"role", RoleName(m.role)}, {"content", m.content}};
    if (!m.tool_calls.empty()) {
      Json calls = Json::array();
      for (const auto& c : m.tool_calls) {
        calls.push_back({{"id", c.id},
                         {"type", "function"},
                         {"function", {{"name", c.name}, {"arguments", c.arguments_text}}}});
      }
      jm["tool_calls"] = std::move(calls);
    }
    msgs.push_back(std::move(jm));
  }
  Json body = {{"model", req.model}, {"messages", std::move(msgs)}};
  if (!req.tools.empty()) {
    Json tools = Json::array();
    for (const auto& t : req.tools) {
      tools.push_back(
          {{"type", "function"},
           {"function", {{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}}}});
    }
    body["tools"] = std::move(tools);
    switch (req.tool_choice.kind) {
      case ToolChoice::Kind::kAuto: body["tool_choice"] = "auto"; break;
      case ToolChoice::Kind::kRequired: body["tool_choice"] = "required"; break;
      case ToolChoice::Kind::kNone: body["tool_choice"] = "none"; break;
      case ToolChoice::Kind::kTool:
        body["tool_choice"] = {{"type", "function"}, {"function", {{"name", req.tool_choice.tool}}}};
        break;
    }
    // The protocol is one tool call per turn.
    body["parallel_tool_calls"] = false;
  }
  if (IsOfficialReasoningModel(req.model, official)) {
    body["max_completion_tokens"] = req.max_tokens;
  } else {
    body["max_tokens"] = req.max_tokens;
    body["temperature"] = req.temperature;
  }
  if (stream) {
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
  }
  return body;
}

void ReadUsage(const Json& u, Usage& usage) {
  if (!u.is_object()) return;
  usage.input_tokens = u.value("prompt_tokens", int64_t{0});
  usage.output_tokens = u.value("completion_tokens", int64_t{0});
  if (u.contains("prompt_tokens_details") && u["prompt_tokens_details"].is_object()) {
    const Json& d = u["prompt_tokens_details"];
    if (d.contains("cached_tokens") && d["cached_tokens"].is_number()) {
      usage.cache_read_tokens = d["cached_tokens"].get<int64_t>();
    }
  }
}

Result<ChatResponse> ParseFull(const Json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) {
    return ParseError(where + ": response has no \"choices\"");
  }
  const Json& choice = j["choices"][0];
  if (!choice.contains("message") || !choice["message"].is_object()) {
    return ParseError(where + ": choices[0] has no \"message\"");
  }
  const Json& msg = choice["message"];
  ChatResponse r;
  if (msg.contains("content") && msg["content"].is_string()) r.content = msg["content"].get<std::string>();
  if (msg.contains("tool_calls") && msg["tool_calls"].is_array()) {
    for (const Json& c : msg["tool_calls"]) {
      ToolCall call;
      call.id = c.value("id", "");
      if (c.contains("function") && c["function"].is_object()) {
        call.name = c["function"].value("name", "");
        const Json& a = c["function"].contains("arguments") ? c["function"]["arguments"] : Json();
        call.arguments_text = a.is_string() ? a.get<std::string>() : (a.is_null() ? "" : a.dump());
      }
      ParseToolArguments(call);
      r.tool_calls.push_back(std::move(call));
    }
  }
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string()) {
    r.stop_reason = choice["finish_reason"].get<std::string>();
  }
  r.model = j.value("model", "");
  if (j.contains("usage")) ReadUsage(j["usage"], r.usage);
  return r;
}

// Accumulates streamed chunks: content deltas, tool-call fragments keyed by index, the usage chunk.
class StreamState : public StreamReply {
 public:
  // Chat Completions streams unnamed events: only the data counts.
  void Event(const std::string& /*event*/, const std::string& data, const std::string& where) {
    if (!status_.ok() || done_) return;
    if (data == "[DONE]") {
      done_ = true;
      return;
    }
    Json j = Json::parse(data, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      status_ = ParseError(where + ": malformed stream chunk: " + data.substr(0, 200));
      return;
    }
    if (j.contains("error")) {
      status_ = Status(ErrorCode::kUnavailable, where + ": error in stream: " + DumpJson(j["error"]));
      return;
    }
    if (j.contains("model") && j["model"].is_string()) r_.model = j["model"].get<std::string>();
    if (j.contains("usage") && j["usage"].is_object()) ReadUsage(j["usage"], r_.usage);
    if (!j.contains("choices") || !j["choices"].is_array()) return;
    for (const Json& ch : j["choices"]) {
      if (ch.contains("finish_reason") && ch["finish_reason"].is_string()) {
        r_.stop_reason = ch["finish_reason"].get<std::string>();
      }
      if (!ch.contains("delta") || !ch["delta"].is_object()) continue;
      const Json& d = ch["delta"];
      if (d.contains("content") && d["content"].is_string()) r_.content += d["content"].get<std::string>();
      if (!d.contains("tool_calls") || !d["tool_calls"].is_array()) continue;
      for (const Json& tc : d["tool_calls"]) {
        int index = tc.value("index", 0);
        ToolCall& call = calls_[index];
        if (tc.contains("id") && tc["id"].is_string()) call.id = tc["id"].get<std::string>();
        if (tc.contains("function") && tc["function"].is_object()) {
          const Json& f = tc["function"];
          if (f.contains("name") && f["name"].is_string()) call.name += f["name"].get<std::string>();
          if (f.contains("arguments") && f["arguments"].is_string()) {
            call.arguments_text += f["arguments"].get<std::string>();
          }
        }
      }
    }
  }
  Result<ChatResponse> Finish(const std::string& where) {
    if (!status_.ok()) return status_;
    if (!done_ && r_.stop_reason.empty()) {
      return ParseError(where + ": stream ended before a finish_reason or [DONE]");
    }
    for (auto& [index, call] : calls_) {
      ParseToolArguments(call);
      r_.tool_calls.push_back(std::move(call));
    }
    calls_.clear();
    return std::move(r_);
  }

 private:
  std::map<int, ToolCall> calls_;
};

class OpenAiClient : public ChatClient {
 public:
  explicit OpenAiClient(ClientOptions o) : o_(std::move(o)) {
    official_ = o_.base_url.empty();
    url_ = TrimSlash(official_ ? kDefaultBase : o_.base_url) + "/chat/completions";
  }
  std::string Provider() const override { return "openai"; }

  Result<ChatResponse> Complete(const ChatRequest& req) override {
    std::string body = BuildBody(req, o_.stream, official_).dump();
    std::vector<std::string> headers = {"Content-Type: application/json"};
    if (!o_.api_key.empty()) headers.push_back("Authorization: Bearer " + o_.api_key);
    return PostChatAndRead<StreamState>(url_, headers, body, o_.http, o_.stream, ParseFull);
  }

 private:
  ClientOptions o_;
  bool official_ = true;
  std::string url_;
};

}  // namespace

std::unique_ptr<ChatClient> MakeOpenAiClient(ClientOptions options) {
  return std::make_unique<OpenAiClient>(std::move(options));
}

}  // namespace lakeqa::llm
