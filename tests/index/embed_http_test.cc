// The embeddings client against a loopback cpp-httplib server that speaks OpenAI's /v1/embeddings wire
// format (the hosted API cannot be reached from tests).
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>

#include "lakeqa/common/json.h"
#include "lakeqa/index/embedder.h"

namespace lakeqa::index {
namespace {

// The deterministic "model": [bytes, count of 'a', 1] for each input.
Json EmbeddingOf(const std::string& s) {
  double a = static_cast<double>(std::count(s.begin(), s.end(), 'a'));
  return Json::array({static_cast<double>(s.size()), a, 1.0});
}

class FakeEmbeddingsServer {
 public:
  // script(n, req, res) may answer request n (1-based) itself and return true; otherwise the server answers
  // with real embeddings, items listed in reverse index order (clients must sort by "index").
  using Script = std::function<bool(int, const httplib::Request&, httplib::Response&)>;
  explicit FakeEmbeddingsServer(Script script = nullptr) : script_(std::move(script)) {
    srv_.Post("/v1/embeddings", [this](const httplib::Request& req, httplib::Response& res) {
      int n = ++calls_;
      {
        std::lock_guard<std::mutex> l(mu_);
        auth_ = req.get_header_value("Authorization");
        bodies_.push_back(req.body);
      }
      if (script_ && script_(n, req, res)) return;
      Json body = Json::parse(req.body);
      Json data = Json::array();
      const Json& input = body["input"];
      for (size_t i = input.size(); i-- > 0;) {
        data.push_back(
            {{"object", "embedding"}, {"index", i}, {"embedding", EmbeddingOf(input[i].get<std::string>())}});
      }
      Json out = {{"object", "list"},
                  {"data", data},
                  {"model", body["model"]},
                  {"usage", {{"prompt_tokens", 5 * input.size()}, {"total_tokens", 5 * input.size()}}}};
      res.set_content(out.dump(), "application/json");
    });
    port_ = srv_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { srv_.listen_after_bind(); });
    while (!srv_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~FakeEmbeddingsServer() {
    srv_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int calls() const { return calls_; }
  std::string auth() {
    std::lock_guard<std::mutex> l(mu_);
    return auth_;
  }
  std::vector<std::string> bodies() {
    std::lock_guard<std::mutex> l(mu_);
    return bodies_;
  }

 private:
  Script script_;
  httplib::Server srv_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> calls_{0};
  std::mutex mu_;
  std::string auth_;
  std::vector<std::string> bodies_;
};

HttpEmbedderOptions Opts(const std::string& url) {
  HttpEmbedderOptions o;
  o.base_url = url + "/";
  o.model = "test-embed";
  o.api_key_env = "LAKEQA_TEST_EMBED_KEY";
  o.batch_size = 2;
  o.max_retries = 3;
  o.initial_backoff = std::chrono::milliseconds(5);
  o.max_backoff = std::chrono::milliseconds(2000);
  o.request_timeout = std::chrono::milliseconds(5000);
  return o;
}

void ExpectUnit(const std::vector<float>& v, const Json& raw) {
  double n = 0;
  for (const Json& x : raw) n += x.get<double>() * x.get<double>();
  n = std::sqrt(n);
  ASSERT_EQ(v.size(), raw.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], raw[i].get<double>() / n, 1e-6);
}

TEST(HttpEmbedderTest, BatchesSortsByIndexAndAuthenticates) {
  FakeEmbeddingsServer server;
  ::setenv("LAKEQA_TEST_EMBED_KEY", "sk-test-123", 1);
  auto e = HttpEmbedder::Create(Opts(server.url()));
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->dim(), 0u);
  std::vector<std::string> texts = {"banana", "a", "", "data lake", "zzz"};
  auto r = (*e)->Embed(texts);
  ::unsetenv("LAKEQA_TEST_EMBED_KEY");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ((*e)->dim(), 3u);
  EXPECT_EQ((*e)->name(), "http:test-embed");
  ExpectUnit((*r)[0], EmbeddingOf("banana"));
  ExpectUnit((*r)[1], EmbeddingOf("a"));
  ExpectUnit((*r)[2], EmbeddingOf(" "));  // empty input is sent as one space
  ExpectUnit((*r)[3], EmbeddingOf("data lake"));
  ExpectUnit((*r)[4], EmbeddingOf("zzz"));
  EXPECT_EQ(server.calls(), 3);  // 2 + 2 + 1
  EXPECT_EQ(server.auth(), "Bearer sk-test-123");
  Json first = Json::parse(server.bodies()[0]);
  EXPECT_EQ(first["model"], "test-embed");
  EXPECT_EQ(first["input"], Json::array({"banana", "a"}));
  EXPECT_EQ((*e)->stats().prompt_tokens, 25u);
  EXPECT_EQ((*e)->stats().retries, 0u);
  auto none = (*e)->Embed({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(server.calls(), 3);
}

TEST(HttpEmbedderTest, RetriesRateLimitAndServerErrorThenSucceeds) {
  FakeEmbeddingsServer server([](int n, const httplib::Request&, httplib::Response& res) {
    if (n == 1) {
      res.status = 429;
      res.set_header("Retry-After", "0");
      res.set_content(
          R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})",
          "application/json");
      return true;
    }
    if (n == 2) {
      res.status = 500;
      res.set_content(R"({"error":{"message":"The server had an error","type":"server_error"}})",
                      "application/json");
      return true;
    }
    return false;
  });
  auto e = HttpEmbedder::Create(Opts(server.url()));
  ASSERT_TRUE(e.ok());
  auto r = (*e)->Embed({"alpha"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectUnit((*r)[0], EmbeddingOf("alpha"));
  EXPECT_EQ(server.calls(), 3);
  EXPECT_EQ((*e)->stats().requests, 3u);
  EXPECT_EQ((*e)->stats().retries, 2u);
  EXPECT_TRUE(server.auth().empty());  // the key variable is unset: no Authorization header
}

TEST(HttpEmbedderTest, HonoursRetryAfterMs) {
  FakeEmbeddingsServer server([](int n, const httplib::Request&, httplib::Response& res) {
    if (n > 1) return false;
    res.status = 429;
    res.set_header("retry-after-ms", "150");
    res.set_content("{}", "application/json");
    return true;
  });
  auto o = Opts(server.url());
  o.initial_backoff = std::chrono::milliseconds(0);  // any wait comes from the header
  auto e = HttpEmbedder::Create(o);
  ASSERT_TRUE(e.ok());
  auto start = std::chrono::steady_clock::now();
  auto r = (*e)->Embed({"x"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // A lower bound only (the header's wait happened), never an upper one.
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150));
  EXPECT_EQ(server.calls(), 2);
}

TEST(HttpEmbedderTest, GivesUpWithClearErrors) {
  {
    FakeEmbeddingsServer server([](int, const httplib::Request&, httplib::Response& res) {
      res.status = 503;
      res.set_content(R"({"error":{"message":"overloaded"}})", "application/json");
      return true;
    });
    auto e = HttpEmbedder::Create(Opts(server.url()));
    auto r = (*e)->Embed({"x"});
    EXPECT_EQ(r.status().code(), ErrorCode::kUnavailable);
    EXPECT_NE(r.status().message().find("overloaded"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("4 attempts"), std::string::npos) << r.status().message();
    EXPECT_EQ(server.calls(), 4);
  }
  {
    FakeEmbeddingsServer server([](int, const httplib::Request&, httplib::Response& res) {
      res.status = 401;
      res.set_content(R"({"error":{"message":"Incorrect API key provided"}})", "application/json");
      return true;
    });
    auto r = (*HttpEmbedder::Create(Opts(server.url())))->Embed({"x"});
    EXPECT_EQ(r.status().code(), ErrorCode::kUnauthenticated);
    EXPECT_NE(r.status().message().find("Incorrect API key"), std::string::npos);
    EXPECT_EQ(server.calls(), 1);  // not retried
  }
}

TEST(HttpEmbedderTest, MalformedBodiesAreParseErrors) {
  const std::vector<std::string> bodies = {
      "not json at all",
      R"({"object":"list"})",
      R"({"data":[]})",
      R"({"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]})",
      R"({"data":[{"index":0,"embedding":"AAAA"}]})",
      R"({"data":[{"index":5,"embedding":[1]}]})",
      R"({"data":[{"index":0,"embedding":[1,"x"]}]})",
  };
  for (const std::string& b : bodies) {
    FakeEmbeddingsServer server([&](int, const httplib::Request&, httplib::Response& res) {
      res.set_content(b, "application/json");
      return true;
    });
    auto o = Opts(server.url());
    o.batch_size = 8;
    auto r = (*HttpEmbedder::Create(o))->Embed({"x"});
    ASSERT_FALSE(r.ok()) << b;
    EXPECT_EQ(r.status().code(), ErrorCode::kParseError) << b << " -> " << r.status().ToString();
    EXPECT_NE(r.status().message().find("/v1/embeddings"), std::string::npos) << r.status().message();
    EXPECT_EQ(server.calls(), 1);
  }
  // Dimensions that change between batches.
  FakeEmbeddingsServer server([](int n, const httplib::Request&, httplib::Response& res) {
    res.set_content(n == 1 ? R"({"data":[{"index":0,"embedding":[1,2,3]}]})"
                           : R"({"data":[{"index":0,"embedding":[1,2]}]})",
                    "application/json");
    return true;
  });
  auto o = Opts(server.url());
  o.batch_size = 1;
  auto r = (*HttpEmbedder::Create(o))->Embed({"a", "b"});
  EXPECT_EQ(r.status().code(), ErrorCode::kParseError);
  EXPECT_NE(r.status().message().find("expected 3"), std::string::npos) << r.status().message();
}

TEST(HttpEmbedderTest, TransportFailures) {
  int port;
  {
    FakeEmbeddingsServer gone;
    port = std::stoi(gone.url().substr(gone.url().rfind(':') + 1));
  }
  auto o = Opts("http://127.0.0.1:" + std::to_string(port));
  o.max_retries = 1;
  auto r = (*HttpEmbedder::Create(o))->Embed({"x"});
  EXPECT_EQ(r.status().code(), ErrorCode::kNetworkError) << r.status().ToString();
  EXPECT_NE(r.status().message().find("127.0.0.1"), std::string::npos);

  FakeEmbeddingsServer slow([](int, const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    res.set_content(R"({"data":[{"index":0,"embedding":[1]}]})", "application/json");
    return true;
  });
  o = Opts(slow.url());
  o.max_retries = 0;
  o.request_timeout = std::chrono::milliseconds(100);
  r = (*HttpEmbedder::Create(o))->Embed({"x"});
  EXPECT_EQ(r.status().code(), ErrorCode::kTimeout) << r.status().ToString();

  HttpEmbedderOptions empty_url;
  empty_url.base_url = "";
  EXPECT_FALSE(HttpEmbedder::Create(empty_url).ok());
  HttpEmbedderOptions zero;
  zero.batch_size = 0;
  EXPECT_EQ(HttpEmbedder::Create(zero).status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace lakeqa::index
