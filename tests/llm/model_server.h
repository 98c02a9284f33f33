// A loopback HTTP server that speaks the real wire protocols of OpenAI Chat Completions and Anthropic
// Messages (JSON and Server-Sent Events streams sent in several chunks), driven by a script function.
// Hosted model APIs cannot be reached from tests; this is the double that stands in for them.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <httplib.h>

#include "lakeqa/common/json.h"

namespace lakeqa::testing {

struct Reply {
  int status = 200;
  std::string content_type = "text/event-stream";
  std::map<std::string, std::string> headers;
  std::vector<std::string> chunks;  // sent one by one (chunked transfer)
};

// Script: (path, request body) → reply. Called concurrently from server threads.
using Script = std::function<Reply(const std::string& path, const Json& body)>;

class ModelServer {
 public:
  explicit ModelServer(Script script) : script_(std::move(script)) {
    auto handler = [this](const httplib::Request& req, httplib::Response& res) {
      ++calls_;
      {
        std::lock_guard<std::mutex> lock(mu_);
        last_headers_.clear();
        for (const auto& [k, v] : req.headers) last_headers_[k] = v;
        bodies_.push_back(req.body);
      }
      Json body = Json::parse(req.body, nullptr, false);
      Reply r = script_(req.path, body);
      res.status = r.status;
      for (const auto& [k, v] : r.headers) res.set_header(k, v);
      if (r.chunks.size() <= 1) {
        res.set_content(r.chunks.empty() ? std::string() : r.chunks[0], r.content_type);
        return;
      }
      auto chunks = std::make_shared<std::vector<std::string>>(std::move(r.chunks));
      auto next = std::make_shared<size_t>(0);
      // The provider is called with a byte offset; one chunk per call is what makes the stream arrive
      // in pieces, as the real APIs send it.
      res.set_chunked_content_provider(r.content_type, [chunks, next](size_t, httplib::DataSink& sink) {
        if (*next < chunks->size()) {
          const std::string& c = (*chunks)[(*next)++];
          sink.write(c.data(), c.size());
        } else {
          sink.done();
        }
        return true;
      });
    };
    srv_.Post(R"(/.*)", handler);
    port_ = srv_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { srv_.listen_after_bind(); });
    while (!srv_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~ModelServer() {
    srv_.stop();
    thread_.join();
  }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int calls() const { return calls_.load(); }
  std::string Header(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = last_headers_.find(name);
    return it == last_headers_.end() ? "" : it->second;
  }
  std::vector<std::string> Bodies() {
    std::lock_guard<std::mutex> lock(mu_);
    return bodies_;
  }

 private:
  Script script_;
  httplib::Server srv_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<int> calls_{0};
  std::mutex mu_;
  std::map<std::string, std::string> last_headers_;
  std::vector<std::string> bodies_;
};

// An OpenAI stream that makes one tool call, with the name and the arguments split across chunks the
// way the API sends them, then a usage chunk and [DONE].
inline Reply OpenAiToolCallStream(const std::string& name, const Json& args, const std::string& id = "call_1",
                                  int prompt_tokens = 100, int cached = 40, int completion_tokens = 12) {
  std::string a = args.dump();
  size_t half = a.size() / 2;
  auto chunk = [](const Json& j) { return "data: " + j.dump() + "\n\n"; };
  Json head = {{"id", "chatcmpl-1"}, {"object", "chat.completion.chunk"}, {"model", "gpt-test"}};
  auto with = [&](Json delta, Json finish = nullptr) {
    Json j = head;
    j["choices"] = Json::array({{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish}}});
    return chunk(j);
  };
  Reply r;
  r.chunks.push_back(with({{"role", "assistant"}, {"content", "Let me look."}}));
  r.chunks.push_back(
      with({{"tool_calls", Json::array({{{"index", 0},
                                         {"id", id},
                                         {"type", "function"},
                                         {"function", {{"name", name}, {"arguments", ""}}}}})}}));
  r.chunks.push_back(with(
      {{"tool_calls", Json::array({{{"index", 0}, {"function", {{"arguments", a.substr(0, half)}}}}})}}));
  r.chunks.push_back(
      with({{"tool_calls", Json::array({{{"index", 0}, {"function", {{"arguments", a.substr(half)}}}}})}}));
  r.chunks.push_back(with(Json::object(), "tool_calls"));
  Json usage = head;
  usage["choices"] = Json::array();
  usage["usage"] = {{"prompt_tokens", prompt_tokens},
                    {"completion_tokens", completion_tokens},
                    {"total_tokens", prompt_tokens + completion_tokens},
                    {"prompt_tokens_details", {{"cached_tokens", cached}}}};
  r.chunks.push_back(chunk(usage));
  r.chunks.push_back("data: [DONE]\n\n");
  return r;
}

// An OpenAI stream that answers with text only (no tool call): what a model says to a request without
// tools, such as `lakeqa run`'s preflight.
inline Reply OpenAiTextStream(const std::string& text, int prompt_tokens = 12, int completion_tokens = 2) {
  auto chunk = [](const Json& j) { return "data: " + j.dump() + "\n\n"; };
  Json head = {{"id", "chatcmpl-t"}, {"object", "chat.completion.chunk"}, {"model", "gpt-test"}};
  Json first = head, last = head, usage = head;
  first["choices"] = Json::array(
      {{{"index", 0}, {"delta", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", nullptr}}});
  last["choices"] = Json::array({{{"index", 0}, {"delta", Json::object()}, {"finish_reason", "stop"}}});
  usage["choices"] = Json::array();
  usage["usage"] = {{"prompt_tokens", prompt_tokens},
                    {"completion_tokens", completion_tokens},
                    {"total_tokens", prompt_tokens + completion_tokens}};
  Reply r;
  r.chunks = {chunk(first), chunk(last), chunk(usage), "data: [DONE]\n\n"};
  return r;
}

// An Anthropic Messages stream: text block, then a tool_use block whose input arrives as partial JSON.
inline Reply AnthropicToolUseStream(const std::string& name, const Json& input,
                                    const std::string& id = "toolu_1", int input_tokens = 30,
                                    int cache_read = 70, int output_tokens = 15) {
  auto ev = [](const std::string& type, const Json& j) {
    return "event: " + type + "\ndata: " + j.dump() + "\n\n";
  };
  std::string a = input.dump();
  size_t half = a.size() / 2;
  Reply r;
  r.chunks.push_back(ev("message_start", {{"type", "message_start"},
                                          {"message",
                                           {{"id", "msg_1"},
                                            {"type", "message"},
                                            {"role", "assistant"},
                                            {"model", "claude-test"},
                                            {"content", Json::array()},
                                            {"usage",
                                             {{"input_tokens", input_tokens},
                                              {"cache_read_input_tokens", cache_read},
                                              {"cache_creation_input_tokens", 0},
                                              {"output_tokens", 1}}}}}}));
  r.chunks.push_back(ev(
      "content_block_start",
      {{"type", "content_block_start"}, {"index", 0}, {"content_block", {{"type", "text"}, {"text", ""}}}}));
  r.chunks.push_back("event: ping\ndata: {\"type\": \"ping\"}\n\n");
  r.chunks.push_back(
      ev("content_block_delta", {{"type", "content_block_delta"},
                                 {"index", 0},
                                 {"delta", {{"type", "text_delta"}, {"text", "Searching."}}}}));
  r.chunks.push_back(ev("content_block_stop", {{"type", "content_block_stop"}, {"index", 0}}));
  r.chunks.push_back(
      ev("content_block_start",
         {{"type", "content_block_start"},
          {"index", 1},
          {"content_block", {{"type", "tool_use"}, {"id", id}, {"name", name}, {"input", Json::object()}}}}));
  r.chunks.push_back(ev("content_block_delta",
                        {{"type", "content_block_delta"},
                         {"index", 1},
                         {"delta", {{"type", "input_json_delta"}, {"partial_json", a.substr(0, half)}}}}));
  r.chunks.push_back(ev("content_block_delta",
                        {{"type", "content_block_delta"},
                         {"index", 1},
                         {"delta", {{"type", "input_json_delta"}, {"partial_json", a.substr(half)}}}}));
  r.chunks.push_back(ev("content_block_stop", {{"type", "content_block_stop"}, {"index", 1}}));
  r.chunks.push_back(
      ev("message_delta", {{"type", "message_delta"},
                           {"delta", {{"stop_reason", "tool_use"}, {"stop_sequence", nullptr}}},
                           {"usage", {{"output_tokens", output_tokens}}}}));
  r.chunks.push_back(ev("message_stop", {{"type", "message_stop"}}));
  return r;
}

inline Reply JsonReply(int status, const Json& body, std::map<std::string, std::string> headers = {}) {
  Reply r;
  r.status = status;
  r.content_type = "application/json";
  r.headers = std::move(headers);
  r.chunks.push_back(body.dump());
  return r;
}

// A model that answers its k-th turn (counted by the assistant messages it was sent) with calls[k], one tool
// call per reply, and repeats the last call once the script runs out: the paper protocol's one call per turn.
inline Script ScriptedToolCalls(std::vector<std::pair<std::string, Json>> calls) {
  return [calls = std::move(calls)](const std::string&, const Json& body) -> Reply {
    size_t turn = 0;
    for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
    const auto& [name, args] = calls.at(std::min(turn, calls.size() - 1));
    return OpenAiToolCallStream(name, args, "call_" + std::to_string(turn));
  };
}

}  // namespace lakeqa::testing
