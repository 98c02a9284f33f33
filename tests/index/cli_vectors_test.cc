// `lakeqa index build --vectors` end to end through the CLI: a tiny lake, a loopback server speaking
// OpenAI's /v1/embeddings wire format (the hosted API cannot be reached from tests) with a real, if
// simple, embedding (hashed bag of words), then `lakeqa search --mode vector|hybrid`. GloVe too when its
// binary exists.
#include <sys/wait.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>

#include "index/test_util.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/index/embedder.h"

namespace lakeqa::index {
namespace {

using testing::TempDir;

// 64-d hashed bag of lower-cased alphanumeric words, L2-normalised: texts sharing words are close.
Json HashedEmbedding(const std::string& s) {
  std::vector<double> v(64, 0.0);
  std::string w;
  auto flush = [&] {
    if (w.empty()) return;
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : w) h = (h ^ c) * 1099511628211ull;
    v[h % v.size()] += 1;
    w.clear();
  };
  for (char c : s + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)))
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else flush();
  }
  double n = 0;
  for (double x : v) n += x * x;
  Json out = Json::array();
  for (double x : v) out.push_back(n > 0 ? x / std::sqrt(n) : 0.0);
  return out;
}

class EmbeddingsServer {
 public:
  EmbeddingsServer() {
    srv_.Post("/v1/embeddings", [this](const httplib::Request& req, httplib::Response& res) {
      ++calls_;
      {
        std::lock_guard<std::mutex> l(mu_);
        auth_ = req.get_header_value("Authorization");
      }
      Json body = Json::parse(req.body);
      Json data = Json::array();
      const Json& input = body["input"];
      for (size_t i = 0; i < input.size(); ++i)
        data.push_back({{"object", "embedding"},
                        {"index", i},
                        {"embedding", HashedEmbedding(input[i].get<std::string>())}});
      Json out = {{"object", "list"},
                  {"data", data},
                  {"model", body["model"]},
                  {"usage", {{"prompt_tokens", 1}, {"total_tokens", 1}}}};
      res.set_content(out.dump(), "application/json");
    });
    port_ = srv_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { srv_.listen_after_bind(); });
    while (!srv_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~EmbeddingsServer() {
    srv_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int calls() const { return calls_; }
  std::string auth() {
    std::lock_guard<std::mutex> l(mu_);
    return auth_;
  }

 private:
  httplib::Server srv_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> calls_{0};
  std::mutex mu_;
  std::string auth_;
};

// Runs a shell command; stdout (and stderr when asked) in the result, exit status in *rc.
std::string Shell(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

class CliVectors : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* env = std::getenv("LAKEQA_BIN");
    bin_ = env && *env ? env : lakeqa::build_paths::BinaryDir() + "/lakeqa";
    if (!std::filesystem::exists(bin_)) GTEST_SKIP() << bin_ << " not built";
    // Three datasets whose file and column names (what the vector index embeds) name their topic.
    Put("datagov/volcanoes/files/volcano_eruptions.csv",
        "Volcano,Eruption Year,Lava Volume\nHekla,1991,0.15\n");
    Put("datagov/jazz/files/jazz_albums.csv",
        "Musician,Album,Saxophone,Trumpet\nColtrane,Giant Steps,tenor,none\n");
    Put("datagov/tennis/files/tennis_matches.csv",
        "Player,Tournament,Racket,Score\nGraf,Wimbledon,Wilson,6-4\n");
  }
  void Put(const std::string& key, const std::string& data) {
    std::string path = lake_.path + "/" + key;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    ASSERT_TRUE(WriteFileAtomic(path, data).ok()) << path;
  }
  Json RunJson(const std::string& args, int expect_rc = 0) {
    int rc = 0;
    std::string out = Shell(bin_ + " " + args + " 2>/dev/null", &rc);
    EXPECT_EQ(rc, expect_rc) << args << "\n" << out;
    auto j = ParseJson(out, "stdout of lakeqa " + args);
    EXPECT_TRUE(j.ok()) << out;
    return j.ok() ? *j : Json();
  }
  std::string bin_;
  TempDir lake_, index_;
};

TEST_F(CliVectors, HttpEmbedderBuildThenVectorAndHybridSearch) {
  EmbeddingsServer server;
  setenv("LAKEQA_TEST_EMBED_KEY", "sekrit", 1);
  std::string build = "index build -q --json --lake " + lake_.path + " --index " + index_.path +
                      " --vectors http:" + server.url() +
                      " --embed-model hashed-64 --embed-key-env LAKEQA_TEST_EMBED_KEY";
  Json b = RunJson(build);
  EXPECT_EQ(b["vectors"]["embedder"], "http:hashed-64");
  EXPECT_EQ(b["vectors"]["rebuilt"], true);
  EXPECT_EQ(b["vectors"]["documents"], 3);
  EXPECT_EQ(server.auth(), "Bearer sekrit");
  EXPECT_TRUE(std::filesystem::exists(index_.path + "/vectors/manifest.json"));

  Json v = RunJson("search --index " + index_.path + " --mode vector --embed-url " + server.url() +
                   " --json 'volcano eruption lava'");
  ASSERT_FALSE(v["hits"].empty()) << v.dump();
  EXPECT_EQ(v["hits"][0]["id"], "datagov/volcanoes") << v.dump();
  Json h = RunJson("search --index " + index_.path + " --mode hybrid --embed-url " + server.url() +
                   " --json 'jazz saxophone trumpet musician'");
  ASSERT_FALSE(h["hits"].empty()) << h.dump();
  EXPECT_EQ(h["hits"][0]["id"], "datagov/jazz") << h.dump();

  // Nothing changed: the vector index is kept and no document is embedded again.
  int calls = server.calls();
  Json again = RunJson(build);
  EXPECT_EQ(again["vectors"]["rebuilt"], false);
  EXPECT_EQ(server.calls(), calls);

  // A new dataset changes the text index, so every dataset is embedded again.
  Put("datagov/tennis2/files/tennis_rackets.csv", "Racket,Brand\nPro Staff,Wilson\n");
  Json changed = RunJson(build);
  EXPECT_EQ(changed["vectors"]["rebuilt"], true);
  EXPECT_EQ(changed["vectors"]["documents"], 4);
  Json t = RunJson("search --index " + index_.path + " --mode vector --embed-url " + server.url() +
                   " --json 'tennis rackets racket brand'");
  ASSERT_FALSE(t["hits"].empty());
  EXPECT_EQ(t["hits"][0]["id"], "datagov/tennis2") << t.dump();
}

TEST_F(CliVectors, BadVectorsOptionFailsBeforeTheCrawl) {
  int rc = 0;
  std::string out = Shell(
      bin_ + " index build -q --lake " + lake_.path + " --index " + index_.path + " --vectors word2vec 2>&1",
      &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("--vectors"), std::string::npos) << out;
  EXPECT_NE(out.find("word2vec"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(index_.path + "/catalog.sqlite"));
  out = Shell(bin_ + " index build -q --lake " + lake_.path + " --index " + index_.path +
                  " --vectors glove --glove " + lake_.path + "/missing.bin 2>&1",
              &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("missing.bin"), std::string::npos) << out;
}

TEST_F(CliVectors, GloveBuildThenVectorSearch) {
  std::string glove = DefaultGlovePath(lakeqa::build_paths::SourceDir());
  if (!std::filesystem::exists(glove)) GTEST_SKIP() << glove << " absent (scripts/setup makes it)";
  Json b = RunJson("index build -q --json --lake " + lake_.path + " --index " + index_.path +
                   " --vectors glove --glove " + glove);
  EXPECT_EQ(b["vectors"]["embedder"], "glove-sg-100d-sif");
  EXPECT_EQ(b["vectors"]["documents"], 3);
  Json v =
      RunJson("search --index " + index_.path + " --mode vector --glove " + glove + " --json 'volcano lava'");
  ASSERT_FALSE(v["hits"].empty()) << v.dump();
  EXPECT_EQ(v["hits"][0]["id"], "datagov/volcanoes") << v.dump();
}

}  // namespace
}  // namespace lakeqa::index
