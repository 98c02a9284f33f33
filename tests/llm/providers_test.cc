// The chat clients against a loopback server speaking each provider's real wire protocol: streamed tool
// calls, usage with cache reads, 429 with retry-after, 5xx, malformed JSON, unknown models.
#include "lakeqa/llm/providers.h"

#include <atomic>
#include <cstdlib>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/llm/cassette.h"
#include "lakeqa/llm/pricing.h"

#include "llm/model_server.h"

namespace lakeqa::llm {
namespace {

using testing::AnthropicToolUseStream;
using testing::JsonReply;
using testing::ModelServer;
using testing::OpenAiToolCallStream;
using testing::Reply;

ChatRequest SampleRequest(const std::string& model) {
  ChatRequest req;
  req.model = model;
  req.system = "You are a data analysis agent.";
  req.messages.push_back(Message::User("How many parks?"));
  ToolCall prior{"call_0", "search_keyword", R"({"keywords":["parks"]})", Json{{"keywords", {"parks"}}}};
  req.messages.push_back(Message::Assistant("", {prior}));
  req.messages.push_back(Message::ToolResult("call_0", R"({"results": []})"));
  req.tools.push_back(
      {"search_keyword", "Keyword search", {{"type", "object"}, {"properties", Json::object()}}});
  req.tools.push_back({"submit_answer", "Submit", {{"type", "object"}, {"properties", Json::object()}}});
  return req;
}

ClientOptions Local(const ModelServer& srv, const std::string& suffix) {
  ClientOptions o;
  o.base_url = srv.Url() + suffix;
  o.api_key = "sk-test-secret";
  o.http.base_backoff_ms = 1;
  o.http.max_retries = 2;
  o.http.timeout_s = 20;
  return o;
}

TEST(OpenAi, StreamedToolCallIsAssembledFromDeltas) {
  Json seen;
  ModelServer srv([&](const std::string& path, const Json& body) {
    EXPECT_EQ(path, "/v1/chat/completions");
    seen = body;
    return OpenAiToolCallStream("search_keyword", {{"keywords", {"police", "crime"}}, {"limit", 20}});
  });
  auto client = MakeOpenAiClient(Local(srv, "/v1"));
  ChatRequest req = SampleRequest("gpt-test");
  req.tool_choice = ToolChoice::Tool("submit_answer");
  auto r = client->Complete(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->content, "Let me look.");
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].id, "call_1");
  EXPECT_EQ(r->tool_calls[0].name, "search_keyword");
  ASSERT_TRUE(r->tool_calls[0].ArgumentsValid());
  EXPECT_EQ(r->tool_calls[0].arguments["keywords"][1], "crime");
  EXPECT_EQ(r->stop_reason, "tool_calls");
  EXPECT_EQ(r->usage.input_tokens, 100);
  EXPECT_EQ(r->usage.cache_read_tokens, 40);
  EXPECT_EQ(r->usage.output_tokens, 12);
  // The wire request: system first, tool result with its call id, forced tool choice, streaming usage.
  EXPECT_EQ(srv.Header("Authorization"), "Bearer sk-test-secret");
  EXPECT_EQ(seen["messages"][0]["role"], "system");
  EXPECT_EQ(seen["messages"][2]["tool_calls"][0]["function"]["name"], "search_keyword");
  EXPECT_EQ(seen["messages"][3]["role"], "tool");
  EXPECT_EQ(seen["messages"][3]["tool_call_id"], "call_0");
  EXPECT_EQ(seen["tool_choice"]["function"]["name"], "submit_answer");
  EXPECT_EQ(seen["tools"][0]["type"], "function");
  EXPECT_EQ(seen["stream"], true);
  EXPECT_EQ(seen["stream_options"]["include_usage"], true);
}

TEST(OpenAi, NonStreamingResponse) {
  ModelServer srv([&](const std::string&, const Json& body) {
    EXPECT_FALSE(body.contains("stream"));
    return JsonReply(
        200, {{"model", "gpt-test"},
              {"choices",
               Json::array({{{"index", 0},
                             {"message",
                              {{"role", "assistant"},
                               {"content", nullptr},
                               {"tool_calls", Json::array({{{"id", "c9"},
                                                            {"type", "function"},
                                                            {"function",
                                                             {{"name", "submit_answer"},
                                                              {"arguments", "{\"answer\": \"[42]\"}"}}}}})}}},
                             {"finish_reason", "tool_calls"}}})},
              {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 3}}}});
  });
  ClientOptions o = Local(srv, "/v1");
  o.stream = false;
  auto r = MakeOpenAiClient(o)->Complete(SampleRequest("gpt-test"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].arguments["answer"], "[42]");
  EXPECT_EQ(r->usage.cache_read_tokens, 0);
}

TEST(OpenAi, RateLimitHonoursRetryAfterThenSucceeds) {
  std::atomic<int> n{0};
  ModelServer srv([&](const std::string&, const Json&) {
    if (n++ == 0) {
      return JsonReply(429,
                       {{"error", {{"message", "Rate limit reached for gpt-test"}, {"type", "requests"}}}},
                       {{"retry-after", "0"}});
    }
    return OpenAiToolCallStream("search", {{"prefixes", {"cli"}}});
  });
  ClientOptions o = Local(srv, "/v1");
  // A server-given retry-after replaces the backoff; were it ignored this test would sleep for minutes.
  o.http.base_backoff_ms = 600000;
  o.http.max_backoff_ms = 600000;
  auto r = MakeOpenAiClient(o)->Complete(SampleRequest("gpt-test"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->tool_calls[0].name, "search");
  EXPECT_EQ(srv.calls(), 2);
}

TEST(OpenAi, PersistentServerErrorGivesUpAfterRetries) {
  ModelServer srv([&](const std::string&, const Json&) {
    return JsonReply(500, {{"error", {{"message", "The server had an error"}, {"type", "server_error"}}}});
  });
  auto r = MakeOpenAiClient(Local(srv, "/v1"))->Complete(SampleRequest("gpt-test"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kUnavailable);
  EXPECT_NE(r.status().message().find("The server had an error"), std::string::npos);
  EXPECT_EQ(srv.calls(), 3);  // first try + max_retries
}

TEST(OpenAi, MalformedJsonIsAParseError) {
  ModelServer srv([&](const std::string&, const Json& body) {
    Reply r;
    if (body.value("model", "") == "broken-stream") {
      r.chunks = {"data: {\"choices\": [{\"delta\": {\"content\": \"hi\"}}]}\n\n",
                  "data: {\"choices\": [{\"del\n\n", "data: [DONE]\n\n"};
    } else {
      r.content_type = "application/json";
      r.chunks = {"{\"choices\": [ {\"message\": "};
    }
    return r;
  });
  auto r = MakeOpenAiClient(Local(srv, "/v1"))->Complete(SampleRequest("broken-stream"));
  EXPECT_EQ(r.status().code(), ErrorCode::kParseError) << r.status().ToString();
  EXPECT_NE(r.status().message().find("malformed stream chunk"), std::string::npos);
  ClientOptions o = Local(srv, "/v1");
  o.stream = false;
  auto r2 = MakeOpenAiClient(o)->Complete(SampleRequest("broken-json"));
  EXPECT_EQ(r2.status().code(), ErrorCode::kParseError) << r2.status().ToString();
  EXPECT_NE(r2.status().message().find("not JSON"), std::string::npos);
}

TEST(OpenAi, UnknownModelIsNotFoundWithTheServersMessage) {
  ModelServer srv([&](const std::string&, const Json& body) {
    return JsonReply(404, {{"error",
                            {{"message", "The model `" + body.value("model", "") + "` does not exist"},
                             {"type", "invalid_request_error"},
                             {"code", "model_not_found"}}}});
  });
  auto r = MakeOpenAiClient(Local(srv, "/v1"))->Complete(SampleRequest("gpt-nope"));
  EXPECT_EQ(r.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(r.status().message().find("gpt-nope"), std::string::npos);
  EXPECT_EQ(srv.calls(), 1);  // 4xx is not retried
}

TEST(OpenAi, RefusedConnectionIsANetworkError) {
  int port;
  {
    ModelServer srv([](const std::string&, const Json&) { return Reply(); });
    port = std::stoi(srv.Url().substr(srv.Url().rfind(':') + 1));
  }
  ClientOptions o;
  o.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  o.http.max_retries = 1;
  o.http.base_backoff_ms = 1;
  auto r = MakeOpenAiClient(o)->Complete(SampleRequest("gpt-test"));
  EXPECT_EQ(r.status().code(), ErrorCode::kNetworkError) << r.status().ToString();
}

TEST(Anthropic, StreamedToolUseWithCacheReads) {
  Json seen;
  ModelServer srv([&](const std::string& path, const Json& body) {
    EXPECT_EQ(path, "/v1/messages");
    seen = body;
    return AnthropicToolUseStream("list_files", {{"dataset_ids", {"parks-2020"}}});
  });
  auto client = MakeAnthropicClient(Local(srv, ""));
  ChatRequest req = SampleRequest("claude-test");
  req.tool_choice = ToolChoice::Required();
  auto r = client->Complete(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->content, "Searching.");
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].id, "toolu_1");
  EXPECT_EQ(r->tool_calls[0].arguments["dataset_ids"][0], "parks-2020");
  EXPECT_EQ(r->stop_reason, "tool_use");
  EXPECT_EQ(r->usage.input_tokens, 100);  // 30 uncached + 70 from the cache
  EXPECT_EQ(r->usage.cache_read_tokens, 70);
  EXPECT_EQ(r->usage.output_tokens, 15);
  EXPECT_EQ(srv.Header("x-api-key"), "sk-test-secret");
  EXPECT_EQ(srv.Header("anthropic-version"), "2023-06-01");
  EXPECT_EQ(seen["system"][0]["text"], "You are a data analysis agent.");
  EXPECT_EQ(seen["messages"][1]["content"][0]["type"], "tool_use");
  EXPECT_EQ(seen["messages"][2]["content"][0]["type"], "tool_result");
  EXPECT_EQ(seen["messages"][2]["content"][0]["tool_use_id"], "call_0");
  EXPECT_EQ(seen["tool_choice"]["type"], "any");
  EXPECT_EQ(seen["tools"][0]["input_schema"]["type"], "object");
}

TEST(Anthropic, OverloadedThenSuccessAndErrors) {
  std::atomic<int> n{0};
  ModelServer srv([&](const std::string&, const Json& body) {
    std::string model = body.value("model", "");
    if (model == "claude-missing") {
      return JsonReply(404, {{"type", "error"},
                             {"error", {{"type", "not_found_error"}, {"message", "model: claude-missing"}}}});
    }
    if (model == "claude-garbage") {
      Reply r;
      r.chunks = {"event: message_start\ndata: {\"type\": \"message_start\", \"message\": {\n\n",
                  "event: message_stop\ndata: {}\n\n"};
      return r;
    }
    if (n++ == 0) {
      return JsonReply(
          529, {{"type", "error"}, {"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}},
          {{"retry-after", "0"}});
    }
    return AnthropicToolUseStream("submit_answer", {{"answer", "[7]"}});
  });
  auto client = MakeAnthropicClient(Local(srv, ""));
  auto ok = client->Complete(SampleRequest("claude-test"));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->tool_calls[0].arguments["answer"], "[7]");
  auto missing = client->Complete(SampleRequest("claude-missing"));
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(missing.status().message().find("not_found_error"), std::string::npos);
  auto garbage = client->Complete(SampleRequest("claude-garbage"));
  EXPECT_EQ(garbage.status().code(), ErrorCode::kParseError) << garbage.status().ToString();
}

TEST(Sse, SplitsEventsAcrossArbitraryChunkBoundaries) {
  std::string stream = "event: a\ndata: 1\r\n\r\n: keep-alive\n\ndata: x\ndata: y\n\nevent: b\ndata: {}";
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    std::vector<std::pair<std::string, std::string>> got;
    SseParser p([&](const std::string& e, const std::string& d) { got.emplace_back(e, d); });
    p.Feed(std::string_view(stream).substr(0, cut));
    p.Feed(std::string_view(stream).substr(cut));
    p.Finish();
    ASSERT_EQ(got.size(), 3u) << cut;
    EXPECT_EQ(got[0], std::make_pair(std::string("a"), std::string("1")));
    EXPECT_EQ(got[1], std::make_pair(std::string(""), std::string("x\ny")));
    EXPECT_EQ(got[2], std::make_pair(std::string("b"), std::string("{}")));
  }
}

TEST(Http, RetryAfterForms) {
  EXPECT_EQ(RetryAfterSeconds({{"retry-after", "7"}}), 7);
  EXPECT_EQ(RetryAfterSeconds({}), -1);
  EXPECT_EQ(RetryAfterSeconds({{"retry-after", "soon"}}), -1);
  EXPECT_EQ(RetryAfterSeconds({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}), 0);  // in the past
}

TEST(Factory, ModelSpecsAndKeys) {
  EXPECT_EQ(ParseModelSpec("gpt-5.2").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ParseModelSpec("azure:gpt").status().code(), ErrorCode::kInvalidArgument);
  auto spec = ParseModelSpec("anthropic:claude-sonnet-4-5");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->model, "claude-sonnet-4-5");
  unsetenv("ANTHROPIC_API_KEY");
  auto missing = MakeClient(*spec, {});
  EXPECT_EQ(missing.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(missing.status().message().find("ANTHROPIC_API_KEY"), std::string::npos);
  ClientOptions local;
  local.base_url = "http://127.0.0.1:9/v1";
  EXPECT_TRUE(MakeClient(*spec, local).ok());  // local servers need no key
}

TEST(Pricing, ShippedTableCoversThePapersModelsAndCountsCacheReads) {
  auto table = PricingTable::LoadDefault();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  for (const char* m : {"gpt-5.2", "gpt-5-mini", "claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-4-5",
                        "deepseek-r1", "llama-3.3-70b-instruct"}) {
    EXPECT_TRUE(table->Find("any", m).has_value()) << m;
  }
  auto p = table->Find("openai", "gpt-5.2");
  Usage u;
  u.input_tokens = 1'000'000;
  u.cache_read_tokens = 400'000;
  u.output_tokens = 100'000;
  // 600k * 1.75 + 400k * 0.175 + 100k * 14, per million.
  EXPECT_NEAR(PricingTable::Cost(*p, u), 1.05 + 0.07 + 1.4, 1e-9);
  EXPECT_EQ(PricingTable::FromJson(Json{{"models", {{"m", {{"input", "cheap"}}}}}}, "x.json").status().code(),
            ErrorCode::kParseError);
  EXPECT_FALSE(table->Find("openai", "unpriced-model").has_value());
}

TEST(Cassette, RecordsThenReplaysOfflineAndSurvivesATornLine) {
  auto dir = MakeTempDir("cassette");
  ASSERT_TRUE(dir.ok());
  std::string path = *dir + "/c.jsonl";
  ChatRequest a = SampleRequest("gpt-test"), b = SampleRequest("gpt-test");
  b.messages.push_back(Message::Assistant("", {{"call_1", "search", "{}", Json::object()}}));
  b.messages.push_back(Message::ToolResult("call_1", "{}"));
  {
    ModelServer srv([&](const std::string&, const Json& body) {
      return OpenAiToolCallStream("search", {{"prefixes", {std::to_string(body["messages"].size())}}});
    });
    auto rec = CassetteClient::Open(path, CassetteMode::kRecord, MakeOpenAiClient(Local(srv, "/v1")));
    ASSERT_TRUE(rec.ok()) << rec.status().ToString();
    ASSERT_TRUE((*rec)->Complete(a).ok());
    ASSERT_TRUE((*rec)->Complete(b).ok());
    EXPECT_EQ(srv.calls(), 2);
  }
  // The key is never derived from or stored with the API key.
  auto text = ReadFile(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->find("sk-test-secret"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(path, *text + "{\"key\": \"torn").ok());
  auto play = CassetteClient::Open(path, CassetteMode::kReplay, nullptr);
  ASSERT_TRUE(play.ok()) << play.status().ToString();
  auto rb = (*play)->Complete(b);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ(rb->tool_calls[0].arguments["prefixes"][0], "6");
  EXPECT_EQ(rb->usage.cache_read_tokens, 40);
  ChatRequest a2 = a;  // a different tool result (another sandbox path) still finds its answer
  a2.messages[2].content = "{\"results\": [\"elsewhere\"]}";
  auto ra = (*play)->Complete(a2);
  ASSERT_TRUE(ra.ok());
  EXPECT_EQ(ra->tool_calls[0].arguments["prefixes"][0], "4");
  auto miss = (*play)->Complete(a);  // the one recorded answer was used
  EXPECT_EQ(miss.status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(CassetteClient::Open(*dir + "/none.jsonl", CassetteMode::kReplay, nullptr).status().code(),
            ErrorCode::kNotFound);
  ASSERT_TRUE(RemoveAll(*dir).ok());
}

}  // namespace
}  // namespace lakeqa::llm
