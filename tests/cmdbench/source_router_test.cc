// Source routers: the fixed baselines, the seeded random router, the LLM router's reply parsing and prompt,
// the lexical router's scores on summaries written here, with values worked out by hand, and the embedding
// router over a small GloVe binary (made by the real converter) and over a loopback /v1/embeddings server.
#include <gtest/gtest.h>

#include <cmath>

#include "lakeqa/cmdbench/source_router.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/index/embedder.h"
#include "llm/model_server.h"
#include "support/cli_runner.h"

namespace lakeqa::cmdbench {
namespace {

using V = std::vector<std::string>;

TEST(RouterTest, FixedBaselines) {
  RouterOptions o;
  for (auto [kind, want] :
       std::vector<std::pair<std::string, V>>{{"select-doc", {"doc"}},
                                              {"select-table", {"table"}},
                                              {"select-graph", {"graph"}},
                                              {"select-all", {"doc", "table", "graph"}}}) {
    o.kind = kind;
    auto r = MakeRouter(o);
    ASSERT_TRUE(r.ok()) << kind;
    EXPECT_EQ((*r)->Route("anything")->sources, want) << kind;
  }
  o.kind = "oracle";
  auto bad = MakeRouter(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown router 'oracle'"), std::string::npos);
}

TEST(RouterTest, RandomIsReproduciblePerSeed) {
  RouterOptions o;
  o.kind = "random";
  o.seed = 7;
  auto a = MakeRouter(o), b = MakeRouter(o);
  std::map<std::string, int> counts;
  for (int i = 0; i < 300; ++i) {
    auto x = (*a)->Route("q")->sources, y = (*b)->Route("q")->sources;
    ASSERT_EQ(x, y);
    ASSERT_EQ(x.size(), 1u);
    ++counts[x[0]];
  }
  // Each of the three sources is drawn (300 draws: P(a source never drawn) < 1e-50).
  EXPECT_EQ(counts.size(), 3u);
}

TEST(RouterTest, ParsesRepliesAsCmdbenchDoes) {
  EXPECT_EQ(*ParseRouterReply("```json\n[\"table\", \"graph\"]\n```"), (V{"table", "graph"}));
  EXPECT_EQ(*ParseRouterReply("[\"GRAPH\", \"doc\"]"), (V{"doc", "graph"}));
  EXPECT_EQ(*ParseRouterReply("[]"), V{});
  EXPECT_FALSE(ParseRouterReply("graph and table").ok());
  std::string p = RouterPrompt("Who won?", {{"graph", "G"}, {"doc", "D"}, {"table", ""}});
  EXPECT_NE(p.find("### Question: Who won?"), std::string::npos);
  EXPECT_NE(p.find("graph:\nG\n\ndoc:\nD\n\ntable:\n(no such database in this lake)"), std::string::npos)
      << p;
}

class LexicalRouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-router");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
    // Summaries only (no text index, no graph): the vocabulary piece alone decides.
    Json s = {{"format", "lakeqa-sources-1"},
              {"sources",
               {{"doc", {{"datasets", 1}, {"basic", ""}, {"enhanced", "players careers history"}}},
                {"table", {{"datasets", 1}, {"basic", ""}, {"enhanced", "game score attendance record"}}},
                {"graph", {{"datasets", 1}, {"basic", ""}, {"enhanced", "Player height Team"}}}}}};
    ASSERT_TRUE(WriteFileAtomic(dir_ + "/sources.json", DumpJson(s)).ok());
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string dir_;
};

TEST_F(LexicalRouterTest, ScoresAreIdfWeightedVocabularySharesAveragedOverTheEvidence) {
  RouterOptions o;
  o.kind = "lexical";
  o.index_dir = dir_;
  auto r = MakeLexicalRouter(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // attendance, score, game: table words only → table vocabulary share 1; score = (1 + 0 index) / 2.
  auto s = (*r)->Scores("What was the attendance and score of the game?");
  EXPECT_DOUBLE_EQ(s["table"], 0.5);
  EXPECT_DOUBLE_EQ(s["doc"], 0.0);
  EXPECT_DOUBLE_EQ(s["graph"], 0.0);
  // height (graph only, w = ln 4), player (doc "players" and graph "Player" stem alike, w = ln 2.5),
  // game (table, w = ln 4); total T = 2 ln 4 + ln 2.5.
  s = (*r)->Scores("height of the player in the game");
  double T = 2 * std::log(4.0) + std::log(2.5);
  EXPECT_NEAR(s["graph"], (std::log(4.0) + std::log(2.5)) / T / 3, 1e-12);  // vocabulary, index 0, entity 0
  EXPECT_NEAR(s["table"], std::log(4.0) / T / 2, 1e-12);
  EXPECT_NEAR(s["doc"], std::log(2.5) / T / 2, 1e-12);
  // graph ≈ 0.2156, table ≈ 0.1962, doc ≈ 0.1290: with thresholds 0.15 graph (best) and table are chosen.
  (*r)->SetParams({0.15, 0.15, 0.15});
  EXPECT_EQ((*r)->Route("height of the player in the game")->sources, (V{"table", "graph"}));
  (*r)->SetParams({0.9, 0.9, 0.9});
  EXPECT_EQ((*r)->Route("height of the player in the game")->sources, V{"graph"});  // the best, always
}

// A graph node the question names gives the graph its entity evidence, and the name's words leave the
// vocabulary: "Detroit Pistons" says which team is asked about, not which source answers (here only the doc
// summary holds those words, so counting them would pull the question to doc).
TEST_F(LexicalRouterTest, ANamedNodesWordsLeaveTheVocabulary) {
  Json s = {{"format", "lakeqa-sources-1"},
            {"sources",
             {{"doc", {{"datasets", 1}, {"basic", ""}, {"enhanced", "Detroit Pistons history careers"}}},
              {"table", {{"datasets", 1}, {"basic", ""}, {"enhanced", "game score attendance"}}},
              {"graph", {{"datasets", 1}, {"basic", ""}, {"enhanced", "Player height Team"}}}}}};
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/sources.json", DumpJson(s)).ok());
  graph::GraphBuilder b;
  ASSERT_TRUE(b.AddFile("Team.csv", "Team", "id:ID(Team),name\nQ1,Detroit Pistons\n").ok());
  ASSERT_TRUE(b.Write(dir_ + "/graph").ok());
  RouterOptions o;
  o.kind = "lexical";
  o.index_dir = dir_;
  auto r = MakeLexicalRouter(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // Known words without the name: height (graph only) → graph vocabulary 1; score = (1 + 0 index + 1 entity)
  // / 3. Counting detroit and piston (doc only, as height, w = ln 4 each) would give graph (1/3 + 1) / 3 =
  // 4/9 and doc (2/3) / 2 = 1/3.
  auto sc = (*r)->Scores("height of the Detroit Pistons center");
  EXPECT_DOUBLE_EQ(sc["graph"], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(sc["doc"], 0.0);
  EXPECT_DOUBLE_EQ(sc["table"], 0.0);
  (*r)->SetParams({0.35, 0.65, 0.45});
  EXPECT_EQ((*r)->Route("height of the Detroit Pistons center")->sources, V{"graph"});
}

// The LLM router through the llm module against a loopback server speaking OpenAI Chat Completions: the
// pinned prompt with the given summaries goes out, the reply is parsed, and every answer is cached so a
// second router over the same cache makes no call.
lakeqa::testing::Reply OpenAiJson(const Json& body, const std::string& text) {
  Json resp = {{"id", "chatcmpl-r"},
               {"object", "chat.completion"},
               {"model", body.value("model", "")},
               {"choices", Json::array({{{"index", 0},
                                         {"message", {{"role", "assistant"}, {"content", text}}},
                                         {"finish_reason", "stop"}}})},
               {"usage", {{"prompt_tokens", 300}, {"completion_tokens", 8}, {"total_tokens", 308}}}};
  lakeqa::testing::Reply r;
  r.content_type = "application/json";
  r.chunks.push_back(resp.dump());
  return r;
}

TEST_F(LexicalRouterTest, LlmRouterSendsThePinnedPromptParsesAndCaches) {
  lakeqa::testing::ModelServer server([](const std::string&, const Json& body) {
    std::string user = body["messages"].back()["content"].get<std::string>();
    if (user.find("drafted") != std::string::npos) return OpenAiJson(body, "```json\n[\"graph\"]\n```");
    if (user.find("capital") != std::string::npos) return OpenAiJson(body, "[\"table\", \"doc\"]");
    return OpenAiJson(body, "I cannot tell.");
  });
  RouterOptions o;
  o.kind = "llm";
  o.index_dir = dir_;
  o.level = "basic";
  o.given = {{"graph", "NBA players and teams"}, {"doc", "Wikipedia pages"}, {"table", "game logs"}};
  auto spec = eval::ParseJudgeSpec("openai:router-test");
  ASSERT_TRUE(spec.ok());
  spec->base_url = server.Url() + "/v1";
  o.model = *spec;
  o.cache_dir = dir_ + "/router-cache";
  auto r = MakeRouter(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->Name(), "llm(openai:router-test, basic)");
  auto a = (*r)->Route("Which team drafted Paul Stovall?");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->sources, V{"graph"});
  auto b = (*r)->Route("What is the capital of Iowa?");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->sources, (V{"doc", "table"}));  // always in the order doc, table, graph
  // An unreadable reply counts as no source (as in CMDBench), and says why.
  auto c = (*r)->Route("Who won?");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->sources.empty());
  EXPECT_TRUE(c->detail.contains("parse_error")) << c->detail.dump();
  ASSERT_EQ(server.calls(), 3);
  // The pinned prompt carried the question and the given summaries.
  std::string sent = server.Bodies()[0];
  EXPECT_NE(sent.find("### Question: Which team drafted Paul Stovall?"), std::string::npos) << sent;
  EXPECT_NE(sent.find("NBA players and teams"), std::string::npos);
  // The cache: one line per prompt, with the prompt version and the model.
  auto cache = ReadFile(o.cache_dir + "/openai_router-test.jsonl", 1 << 20);
  ASSERT_TRUE(cache.ok()) << cache.status().ToString();
  EXPECT_NE(cache->find(kRouterPromptVersion), std::string::npos);
  auto again = MakeRouter(o);
  ASSERT_TRUE(again.ok());
  auto a2 = (*again)->Route("Which team drafted Paul Stovall?");
  ASSERT_TRUE(a2.ok());
  EXPECT_EQ(a2->sources, V{"graph"});
  EXPECT_EQ(a2->detail["cached"], true);
  EXPECT_EQ(server.calls(), 3);  // answered from the cache
  // A bad summary level is refused before any call.
  o.level = "detailed";
  auto bad = MakeRouter(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("basic or enhanced"), std::string::npos);
}

// ---- the embedding router ----

// A GloVe binary of six words in three dimensions, one axis per kind of source, made by the real converter
// from the package's JSON shape. Ranks (the last number) set the SIF weights.
std::string SmallGlove(const std::string& dir) {
  std::string json = R"({"size":6,"dimensions":3,"words":["game","score","player","team","pages","wikipedia"],
    "vectors":{"game":[0,1,0,1,0],"score":[0,1,0,1,1],"player":[0,0,1,1,2],"team":[0,0,1,1,3],
               "pages":[1,0,0,1,4],"wikipedia":[1,0,0,1,5]}})";
  EXPECT_TRUE(WriteFileAtomic(dir + "/glove.json", json).ok());
  auto r = index::ConvertGloveJson(dir + "/glove.json", dir + "/glove.bin");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return dir + "/glove.bin";
}

class EmbeddingRouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-embed-router");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
    WriteSummaries("wikipedia pages", "game score", "player team");
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  void WriteSummaries(const std::string& doc, const std::string& table, const std::string& graph) {
    Json s = {{"format", "lakeqa-sources-1"},
              {"sources",
               {{"doc", {{"datasets", 1}, {"basic", "b"}, {"enhanced", doc}}},
                {"table", {{"datasets", 1}, {"basic", "b"}, {"enhanced", table}}},
                {"graph", {{"datasets", 1}, {"basic", "b"}, {"enhanced", graph}}}}}};
    ASSERT_TRUE(WriteFileAtomic(dir_ + "/sources.json", DumpJson(s)).ok());
  }
  RouterOptions Glove() {
    RouterOptions o;
    o.kind = "embedding";
    o.index_dir = dir_;
    o.embedder.glove_path = SmallGlove(dir_);
    return o;
  }
  std::string dir_;
};

TEST_F(EmbeddingRouterTest, GloveSimilaritiesAndTheMarginRule) {
  RouterOptions o = Glove();
  auto r = MakeRouter(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->Name(), "embedding(glove-sg-100d-sif, enhanced, margin 0.175)");
  // Only table words: the question's vector is the table axis, as is the table summary's.
  auto a = (*r)->Route("what was the score of the game?");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->sources, V{"table"});
  EXPECT_NEAR(a->detail["table"]["similarity"].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(a->detail["doc"]["similarity"].get<double>(), 0.0, 1e-6);
  // "score" (table axis) and "player" (graph axis): the reference similarities from the SIF weights,
  // worked out here: cos(q, table) = w_score / |q|, cos(q, graph) = w_player / |q|.
  auto g = index::GloveEmbedder::Open(o.embedder.glove_path);
  ASSERT_TRUE(g.ok());
  uint32_t rs = 0, rp = 0;
  ASSERT_NE((*g)->Lookup("score", &rs), nullptr);
  ASSERT_NE((*g)->Lookup("player", &rp), nullptr);
  double ws = (*g)->SifWeight(rs), wp = (*g)->SifWeight(rp), n = std::hypot(ws, wp);
  auto b = (*r)->Route("score of the player");
  ASSERT_TRUE(b.ok());
  double st = b->detail["table"]["similarity"].get<double>(),
         sg = b->detail["graph"]["similarity"].get<double>();
  EXPECT_NEAR(st, ws / n, 1e-5);
  EXPECT_NEAR(sg, wp / n, 1e-5);
  // SIF: "score" (rank 1) is more frequent than "player" (rank 2), so it weighs less: graph is the best.
  ASSERT_LT(rs, rp);
  ASSERT_LT(st, sg);
  double gap = sg - st;
  EXPECT_EQ(b->sources, V{"graph"});  // the gap (about 0.27) exceeds the default margin
  // Within the margin: both; a margin below the gap: the best alone.
  o.margin = gap + 0.01;
  EXPECT_EQ((*MakeRouter(o))->Route("score of the player")->sources, (V{"table", "graph"}));
  o.margin = gap / 2;
  EXPECT_EQ((*MakeRouter(o))->Route("score of the player")->sources, V{"graph"});
  // No known word: every similarity is 0, so every source is within the margin (no evidence, no narrowing).
  EXPECT_EQ((*r)->Route("zzz qqq")->sources, (V{"doc", "table", "graph"}));
}

TEST_F(EmbeddingRouterTest, ASourceWithoutSummaryIsNeverChosen) {
  WriteSummaries("", "game score", "player team");
  auto r = MakeRouter(Glove());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto a = (*r)->Route("zzz");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->sources, (V{"table", "graph"}));
  EXPECT_TRUE(a->detail["doc"].is_null());
  // Given summaries (--summaries) replace the index's.
  RouterOptions o = Glove();
  o.given = {{"doc", "game score"}, {"table", "wikipedia"}, {"graph", "team"}};
  auto g = MakeRouter(o);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ((*g)->Route("the final score")->sources, V{"doc"});
  EXPECT_NE((*g)->Name().find(", given,"), std::string::npos) << (*g)->Name();
}

TEST_F(EmbeddingRouterTest, BadInputIsAClearError) {
  RouterOptions o = Glove();
  o.embedder.glove_path = dir_ + "/no-such-glove.bin";
  auto missing = MakeRouter(o);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(missing.status().message().find("no-such-glove.bin"), std::string::npos)
      << missing.status().message();
  EXPECT_NE(missing.status().message().find("GloVe"), std::string::npos) << missing.status().message();
  // A file that is not the binary.
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/not-glove.bin", "plain text, not vectors").ok());
  o.embedder.glove_path = dir_ + "/not-glove.bin";
  EXPECT_FALSE(MakeRouter(o).ok());
  o = Glove();
  o.margin = -0.1;
  auto neg = MakeRouter(o);
  ASSERT_FALSE(neg.ok());
  EXPECT_NE(neg.status().message().find("--margin"), std::string::npos);
  o.margin = 0.05;
  o.level = "full";
  EXPECT_FALSE(MakeRouter(o).ok());
  // No index summaries at all.
  o = Glove();
  o.index_dir = dir_ + "/nowhere";
  EXPECT_FALSE(MakeRouter(o).ok());
}

// The embedding router through the http embedder against a loopback server speaking OpenAI's /v1/embeddings:
// the summaries are embedded once (one request), then one request per question.
lakeqa::testing::Reply Embeddings(const Json& body) {
  // The "model": one axis per word family; an input with none of them gets (1, 1, 1).
  auto vec = [](const std::string& t) {
    Json v = Json::array({t.find("page") != std::string::npos ? 1.0 : 0.0,
                          t.find("score") != std::string::npos ? 1.0 : 0.0,
                          t.find("player") != std::string::npos ? 1.0 : 0.0});
    if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0) v = Json::array({1.0, 1.0, 1.0});
    return v;
  };
  Json data = Json::array();
  const Json& in = body["input"];
  for (size_t i = 0; i < in.size(); ++i)
    data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", vec(in[i].get<std::string>())}});
  lakeqa::testing::Reply r;
  r.content_type = "application/json";
  r.chunks.push_back(Json({{"object", "list"},
                           {"data", data},
                           {"model", body["model"]},
                           {"usage", {{"prompt_tokens", 3}, {"total_tokens", 3}}}})
                         .dump());
  return r;
}

TEST_F(EmbeddingRouterTest, HttpEmbedderOverTheWireProtocol) {
  WriteSummaries("wikipedia pages", "game score", "player team");
  std::vector<std::string> paths;
  std::mutex mu;
  lakeqa::testing::ModelServer server([&](const std::string& path, const Json& body) {
    std::lock_guard<std::mutex> l(mu);
    paths.push_back(path);
    return Embeddings(body);
  });
  RouterOptions o;
  o.kind = "embedding";
  o.index_dir = dir_;
  o.embedder.use_http = true;
  o.embedder.http.base_url = server.Url();
  o.embedder.http.model = "router-embed";
  o.embedder.http.api_key_env = "LAKEQA_TEST_NO_SUCH_KEY";
  auto r = MakeRouter(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->Name(), "embedding(http:router-embed, enhanced, margin 0.175)");
  ASSERT_EQ(server.calls(), 1);  // the three summaries in one request
  Json first = Json::parse(server.Bodies()[0]);
  EXPECT_EQ(first["model"], "router-embed");
  EXPECT_EQ(first["input"],
            Json::array({"wikipedia pages", "game score", "player team"}));  // doc, table, graph
  auto a = (*r)->Route("the player's height");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->sources, V{"graph"});
  EXPECT_EQ(server.calls(), 2);
  EXPECT_EQ(Json::parse(server.Bodies()[1])["input"], Json::array({"the player's height"}));
  EXPECT_EQ(paths[0], "/v1/embeddings");
  // Nothing known: (1,1,1) is equally far from every axis, so all three are chosen.
  EXPECT_EQ((*r)->Route("who?")->sources, (V{"doc", "table", "graph"}));
}

TEST_F(EmbeddingRouterTest, UnreachableOrFailingServerIsAnError) {
  RouterOptions o;
  o.kind = "embedding";
  o.index_dir = dir_;
  o.embedder.use_http = true;
  o.embedder.http.max_retries = 0;
  o.embedder.http.api_key_env = "LAKEQA_TEST_NO_SUCH_KEY";
  std::string url;
  {
    lakeqa::testing::ModelServer gone([](const std::string&, const Json& b) { return Embeddings(b); });
    url = gone.Url();
  }
  o.embedder.http.base_url = url;
  auto r = MakeRouter(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("embedding the source summaries"), std::string::npos)
      << r.status().message();
  // A server answering 401 (a bad key): the error says so, once, without retrying forever.
  lakeqa::testing::ModelServer denied([](const std::string&, const Json&) {
    lakeqa::testing::Reply rep;
    rep.status = 401;
    rep.content_type = "application/json";
    rep.chunks.push_back(
        R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}})");
    return rep;
  });
  o.embedder.http.base_url = denied.Url();
  auto d = MakeRouter(o);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("401"), std::string::npos) << d.status().message();
}

// The CLI: bad input exits non-zero with a JSON error under --json.
TEST_F(EmbeddingRouterTest, CliErrorsAreJson) {
  lakeqa::testing::PutFile(dir_, "q.json",
                           R"([{"qid": "1", "question": "score?", "provenance_sources": ["table"]}])");
  using lakeqa::testing::Sh;
  std::string base = "eval cmdbench --task source --questions " + Sh(dir_ + "/q.json") + " --index " +
                     Sh(dir_) + " --router embedding --json";
  Json missing =
      lakeqa::testing::LakeqaJson(base + " --glove " + Sh(dir_ + "/absent.bin") + " 2>/dev/null", 3);
  ASSERT_TRUE(missing.contains("error")) << missing.dump();
  EXPECT_EQ(missing["error"]["code"], "not_found");
  EXPECT_NE(missing["error"]["message"].get<std::string>().find("absent.bin"), std::string::npos);
  std::string glove = SmallGlove(dir_);
  Json ok = lakeqa::testing::LakeqaJson(base + " --glove " + Sh(glove));
  EXPECT_EQ(ok["method"], "embedding(glove-sg-100d-sif, enhanced, margin 0.175)");
  EXPECT_EQ(ok["per_question"][0]["predicted"], Json::array({"table"}));
  Json margin = lakeqa::testing::LakeqaJson(base + " --glove " + Sh(glove) + " --margin -1 2>/dev/null", 2);
  EXPECT_TRUE(margin.contains("error")) << margin.dump();
  // --embed-url: the http embedder over the wire, from the CLI.
  {
    lakeqa::testing::ModelServer server([](const std::string&, const Json& b) { return Embeddings(b); });
    Json http =
        lakeqa::testing::LakeqaJson(base + " --embed-url " + Sh(server.Url()) + " --embed-model cli-embed");
    EXPECT_EQ(http["method"], "embedding(http:cli-embed, enhanced, margin 0.175)");
    EXPECT_EQ(http["per_question"][0]["predicted"], Json::array({"table"}));
    EXPECT_EQ(server.calls(), 2);
  }
  // Several question files are for --task source only.
  Json two =
      lakeqa::testing::LakeqaJson("eval cmdbench --task table --questions " + Sh(dir_ + "/q.json") + " " +
                                      Sh(dir_ + "/q.json") + " --index " + Sh(dir_) + " --json 2>/dev/null",
                                  2);
  EXPECT_NE(two["error"]["message"].get<std::string>().find("takes one question file"), std::string::npos)
      << two.dump();
}

}  // namespace
}  // namespace lakeqa::cmdbench
