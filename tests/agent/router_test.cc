// Source routers: the fixed baselines, the seeded random router, the LLM router's reply parsing and prompt,
// and the lexical router's scores on summaries written here, with values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "lakeqa/agent/router.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/graph/graph.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

using V = std::vector<std::string>;

TEST(RouterTest, FixedBaselines) {
  RouterOptions o;
  for (auto [kind, want] : std::vector<std::pair<std::string, V>>{{"select-doc", {"doc"}},
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
  EXPECT_NE(p.find("graph:\nG\n\ndoc:\nD\n\ntable:\n(no such database in this lake)"), std::string::npos) << p;
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
  // Known words without the name: height (graph only) → graph vocabulary 1; score = (1 + 0 index + 1 entity) / 3.
  // Counting detroit and piston (doc only, as height, w = ln 4 each) would give graph (1/3 + 1) / 3 = 4/9 and
  // doc (2/3) / 2 = 1/3.
  auto sc = (*r)->Scores("height of the Detroit Pistons center");
  EXPECT_DOUBLE_EQ(sc["graph"], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(sc["doc"], 0.0);
  EXPECT_DOUBLE_EQ(sc["table"], 0.0);
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

}  // namespace
}  // namespace lakeqa::agent
