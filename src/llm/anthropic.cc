// Anthropic Messages with tool use, streamed or not. The system prompt is marked cacheable so repeated
// turns of a task (and tasks of a run) read it from the prompt cache.
#include <map>

#include "lakeqa/llm/providers.h"
#include "llm/chat_call.h"

namespace lakeqa::llm {
namespace {

constexpr const char* kDefaultBase = "https://api.anthropic.com";
constexpr const char* kVersion = "2023-06-01";

std::string MessagesUrl(std::string base) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base.ends_with("/v1") ? base + "/messages" : base + "/v1/messages";
}

Json BuildBody(const ChatRequest& req, bool stream) {
  Json msgs = Json::array();
  // Anthropic wants strictly alternating roles; tool results are user-role content blocks, and
  // consecutive blocks of one role are merged into one message.
  auto append = [&](const char* role, Json block) {
    if (!msgs.empty() && msgs.back()["role"] == role) {
      msgs.back()["content"].push_back(std::move(block));
    } else {
      msgs.push_back({{"role", role}, {"content", Json::array({std::move(block)})}});
    }
  };
  for (const Message& m : req.messages) {
    switch (m.role) {
      case Role::kUser: append("user", {{"type", "text"}, {"text", m.content}}); break;
      case Role::kTool:
        append("user", {{"type", "tool_result"},
                        {"tool_use_id", m.tool_call_id},
                        {"content", m.content},
                        {"is_error", m.is_error}});
        break;
      case Role::kAssistant:
        if (!m.content.empty()) append("assistant", {{"type", "text"}, {"text", m.content}});
        for (const auto& c : m.tool_calls) {
          append("assistant", {{"type", "tool_use"},
                               {"id", c.id},
                               {"name", c.name},
                               {"input", c.ArgumentsValid() ? c.arguments : Json::object()}});
        }
        if (m.content.empty() && m.tool_calls.empty())
          append("assistant", {{"type", "text"}, {"text", "(no reply)"}});
        break;
    }
  }
  Json body = {{"model", req.model},
               {"max_tokens", req.max_tokens},
               {"messages", std::move(msgs)},
               {"temperature", req.temperature}};
  if (!req.system.empty()) {
    body["system"] =
        Json::array({{{"type", "text"}, {"text", req.system}, {"cache_control", {{"type", "ephemeral"}}}}});
  }
  if (!req.tools.empty()) {
    Json tools = Json::array();
    for (const auto& t : req.tools) {
      tools.push_back({{"name", t.name}, {"description", t.description}, {"input_schema", t.parameters}});
    }
    body["tools"] = std::move(tools);
    switch (req.tool_choice.kind) {
      case ToolChoice::Kind::kAuto:
        body["tool_choice"] = {{"type", "auto"}, {"disable_parallel_tool_use", true}};
        break;
      case ToolChoice::Kind::kRequired:
        body["tool_choice"] = {{"type", "any"}, {"disable_parallel_tool_use", true}};
        break;
      case ToolChoice::Kind::kNone: body["tool_choice"] = {{"type", "none"}}; break;
      case ToolChoice::Kind::kTool:
        body["tool_choice"] = {
            {"type", "tool"}, {"name", req.tool_choice.tool}, {"disable_parallel_tool_use", true}};
        break;
    }
  }
  if (stream) body["stream"] = true;
  return body;
}

// Anthropic's input_tokens excludes cached tokens; ours counts every prompt token.
void ReadUsage(const Json& u, Usage& usage) {
  if (!u.is_object()) return;
  auto get = [&](const char* k) -> int64_t {
    return u.contains(k) && u[k].is_number() ? u[k].get<int64_t>() : -1;
  };
  int64_t in = get("input_tokens"), out = get("output_tokens"), cr = get("cache_read_input_tokens"),
          cw = get("cache_creation_input_tokens");
  if (cr >= 0) usage.cache_read_tokens = cr;
  if (cw >= 0) usage.cache_write_tokens = cw;
  if (in >= 0) usage.input_tokens = in + usage.cache_read_tokens + usage.cache_write_tokens;
  if (out >= 0) usage.output_tokens = out;
}

Result<ChatResponse> ParseFull(const Json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("content") || !j["content"].is_array()) {
    return ParseError(where + ": response has no \"content\" array");
  }
  ChatResponse r;
  for (const Json& b : j["content"]) {
    std::string type = b.value("type", "");
    if (type == "text") {
      r.content += b.value("text", "");
    } else if (type == "tool_use") {
      ToolCall c;
      c.id = b.value("id", "");
      c.name = b.value("name", "");
      c.arguments_text = b.contains("input") ? b["input"].dump() : "{}";
      ParseToolArguments(c);
      r.tool_calls.push_back(std::move(c));
    }
  }
  r.stop_reason =
      j.contains("stop_reason") && j["stop_reason"].is_string() ? j["stop_reason"].get<std::string>() : "";
  r.model = j.value("model", "");
  if (j.contains("usage")) ReadUsage(j["usage"], r.usage);
  return r;
}

class StreamState : public StreamReply {
 public:
  void Event(const std::string& event, const std::string& data, const std::string& where) {
    if (!status_.ok()) return;
    Json j = Json::parse(data, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      status_ = ParseError(where + ": malformed stream event " + event + ": " + data.substr(0, 200));
      return;
    }
    std::string type = j.value("type", event);
    if (type == "message_start" && j.contains("message")) {
      r_.model = j["message"].value("model", "");
      if (j["message"].contains("usage")) ReadUsage(j["message"]["usage"], r_.usage);
    } else if (type == "content_block_start" && j.contains("content_block")) {
      const Json& b = j["content_block"];
      Block& blk = blocks_[j.value("index", 0)];
      blk.type = b.value("type", "");
      if (blk.type == "tool_use") {
        blk.call.id = b.value("id", "");
        blk.call.name = b.value("name", "");
      } else if (blk.type == "text") {
        blk.text = b.value("text", "");
      }
    } else if (type == "content_block_delta" && j.contains("delta")) {
      const Json& d = j["delta"];
      Block& blk = blocks_[j.value("index", 0)];
      std::string dt = d.value("type", "");
      if (dt == "text_delta") blk.text += d.value("text", "");
      if (dt == "input_json_delta") blk.call.arguments_text += d.value("partial_json", "");
    } else if (type == "message_delta") {
      if (j.contains("delta") && j["delta"].contains("stop_reason") &&
          j["delta"]["stop_reason"].is_string()) {
        r_.stop_reason = j["delta"]["stop_reason"].get<std::string>();
      }
      if (j.contains("usage")) ReadUsage(j["usage"], r_.usage);
    } else if (type == "message_stop") {
      done_ = true;
    } else if (type == "error") {
      std::string msg = j.contains("error") ? DumpJson(j["error"]) : data;
      bool overloaded = msg.find("overloaded") != std::string::npos;
      status_ = Status(overloaded ? ErrorCode::kUnavailable : ErrorCode::kInternal,
                       where + ": error in stream: " + msg);
    }
  }
  Result<ChatResponse> Finish(const std::string& where) {
    if (!status_.ok()) return status_;
    if (!done_) return ParseError(where + ": stream ended before message_stop");
    for (auto& [index, blk] : blocks_) {
      if (blk.type == "text") r_.content += blk.text;
      if (blk.type == "tool_use") {
        // A tool call with no input deltas has an empty object as its input.
        ParseToolArguments(blk.call);
        r_.tool_calls.push_back(std::move(blk.call));
      }
    }
    blocks_.clear();
    return std::move(r_);
  }

 private:
  struct Block {
    std::string type, text;
    ToolCall call;
  };
  std::map<int, Block> blocks_;
};

class AnthropicClient : public ChatClient {
 public:
  explicit AnthropicClient(ClientOptions o) : o_(std::move(o)) {
    url_ = MessagesUrl(o_.base_url.empty() ? kDefaultBase : o_.base_url);
  }
  std::string Provider() const override { return "anthropic"; }

  Result<ChatResponse> Complete(const ChatRequest& req) override {
    std::string body = BuildBody(req, o_.stream).dump();
    std::vector<std::string> headers = {"Content-Type: application/json",
                                        std::string("anthropic-version: ") + kVersion};
    if (!o_.api_key.empty()) headers.push_back("x-api-key: " + o_.api_key);
    return PostChatAndRead<StreamState>(url_, headers, body, o_.http, o_.stream, ParseFull);
  }

 private:
  ClientOptions o_;
  std::string url_;
};

}  // namespace

std::unique_ptr<ChatClient> MakeAnthropicClient(ClientOptions options) {
  return std::make_unique<AnthropicClient>(std::move(options));
}

}  // namespace lakeqa::llm
