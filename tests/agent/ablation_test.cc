// Stage ablations of the llm agent against a scripted OpenAI-protocol model server: each ablation must
// change exactly what docs/ablations.md says it changes in what the model sees — the first user message, the
// tool list, one tool's results — and leave every other byte of every request as the standard run sends it.
#include "lakeqa/agent/ablation.h"

#include <atomic>
#include <regex>

#include <gtest/gtest.h>

#include "lakeqa/agent/agent.h"
#include "lakeqa/agent/prompts.h"
#include "lakeqa/llm/providers.h"

#include "agent/fake_env.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

using lakeqa::testing::ModelServer;
using lakeqa::testing::OpenAiToolCallStream;
using lakeqa::testing::Reply;
using testing::FakeEnv;
using testing::WriteText;

eval::Task GoldTask() {
  Json j = {
      {"question_id", "A1"},
      {"question",
       "How many years after Springfield was founded plus the acres of its largest city park? [Answer]"},
      {"answer", "1853"},
      {"nodes",
       {{"1",
         {{"source", "datagov/city-parks-inventory/files/rows.txt"},
          {"subquestion", "largest city parks inventory acres"},
          {"fact", "import csv\nanswer = '32'\n"},
          {"answer", "32"}}},
        {"2",
         {{"source", "wikipedia/Springfield/content.txt"},
          {"subquestion", "when was springfield founded"},
          {"fact", "Springfield was founded in 1821."},
          {"answer", "1821"}}}}},
      {"datasets_used", {"datagov/city-parks-inventory/files/rows.txt", "wikipedia/Springfield/content.txt"}},
      {"reasoning_hops",
       {{{"hop", 1}, {"node_ids", {1, 2}}, {"reasoning", {"Add: 1853"}}, {"answer", "1853"}}}}};
  auto t = eval::TaskFromJson(j, "A1");
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return *t;
}

// The model does the same thing under every ablation: a keyword search, then oracle_fact on the parks table
// (an unknown tool unless compute=ideal offers it), then an answer. The requests are what differs.
class Scripted {
 public:
  Scripted()
      : srv_([](const std::string&, const Json& body) {
          int turn = 0;
          for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
          if (turn == 0) return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c0");
          if (turn == 1)
            return OpenAiToolCallStream(
                "oracle_fact", {{"dataset_id", "city-parks-inventory"}, {"file_path", "files/rows.txt"}},
                "c1");
          return OpenAiToolCallStream("submit_answer", {{"answer", "[1853]"}}, "c2");
        }) {
    dir_ = *MakeTempDir("ablation-test");
    WriteText(dir_ + "/lake/datagov/city-parks-inventory/files/rows.txt", "name,acres\nA,10\nB,32\n");
    WriteText(dir_ + "/lake/datagov/parks-decoy/files/rows.txt", "name,acres\nZ,999\n");
    WriteText(dir_ + "/lake/wikipedia/Springfield/content.txt", "Springfield was founded in 1821.");
    llm::ClientOptions o;
    o.base_url = srv_.Url() + "/v1";
    o.http.max_retries = 1;
    client_ = llm::MakeOpenAiClient(o);
  }
  ~Scripted() { (void)RemoveAll(dir_); }

  struct Episode {
    AgentResult result;
    std::vector<Json> bodies;  // every request the model got, in order
    std::string sandbox;
  };
  Episode Run(const std::vector<std::string>& specs, const eval::Task& task = GoldTask()) {
    auto ab = ParseAblations(specs);
    EXPECT_TRUE(ab.ok()) << ab.status().ToString();
    LoopConfig cfg;
    cfg.ablation = *ab;
    cfg.compact_results = false;  // ResultIds reads the full hits

    size_t before = srv_.Bodies().size();
    Episode ep;
    // The same sandbox path for every run, so tool results that name it compare equal.
    ep.sandbox = dir_ + "/sandbox";
    (void)RemoveAll(ep.sandbox);
    FakeEnv env(dir_ + "/lake", ep.sandbox);
    std::atomic<bool> cancel{false};
    ep.result = MakeLlmAgent(*client_, "openai", "gpt-test", nullptr, cfg)->Run(task, env, cancel);
    auto all = srv_.Bodies();
    for (size_t i = before; i < all.size(); ++i) ep.bodies.push_back(Json::parse(all[i]));
    return ep;
  }

 private:
  ModelServer srv_;
  std::unique_ptr<llm::ChatClient> client_;
  std::string dir_;
};

// The request without what an ablation may change (messages, tools), for byte-for-byte comparison.
Json Rest(Json body) {
  body.erase("messages");
  body.erase("tools");
  return body;
}
std::vector<std::string> ToolNames(const Json& body) {
  std::vector<std::string> out;
  for (const Json& t : body["tools"]) out.push_back(t["function"]["name"].get<std::string>());
  return out;
}
std::string System(const Json& body) { return body["messages"][0]["content"].get<std::string>(); }
std::string FirstUser(const Json& body) { return body["messages"][1]["content"].get<std::string>(); }
// Turn N's tool result as the model saw it, without the remaining-time line (it moves with the clock).
std::string ToolResult(const Json& body, size_t nth) {
  size_t seen = 0;
  for (const Json& m : body["messages"]) {
    if (m["role"] != "tool") continue;
    if (seen++ == nth) {
      std::string s = m["content"].get<std::string>();
      return s.substr(0, s.find("\n\n[STATUS:"));
    }
  }
  return "<none>";
}
std::vector<std::string> ResultIds(const std::string& tool_result) {
  std::vector<std::string> ids;
  Json parsed = Json::parse(tool_result);
  for (const Json& r : parsed["results"])
    ids.push_back(r.value("namespace", "") + "/" + r.value("dataset_id", ""));
  return ids;
}

TEST(Ablation, ParsingNamesTheValidSetAndLaterSpecsWin) {
  auto a = ParseAblations({"search=ideal", "decompose=ideal", "search=naive"});
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->search, "naive");
  EXPECT_EQ(a->Label(), "search=naive,decompose=ideal");
  EXPECT_EQ(ParseAblations({})->Label(), "standard");
  for (const char* bad : {"profile=ideal", "search=perfect", "search", "=ideal", "compute="}) {
    auto r = ParseAblations({bad});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("search=naive|standard|preloaded|ideal"), std::string::npos)
        << r.status().message();
  }
  EXPECT_NE(ParseAblations({"search=perfect"}).status().message().find("unknown level \"perfect\""),
            std::string::npos);
  auto j = AblationFromJson(Json{{"search", "ideal"}, {"compute", "ideal"}});
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->ToJson(), (Json{{"search", "ideal"}, {"decompose", "standard"}, {"compute", "ideal"}}));
  EXPECT_TRUE(AblationFromJson(Json())->IsStandard());
  EXPECT_FALSE(AblationFromJson(Json{{"search", "best"}}).ok());
}

TEST(Ablation, TasksWithoutTheGoldDataAnOracleNeedsAreRefusedWithTheReason) {
  eval::Task bare = GoldTask();
  bare.nodes.clear();
  bare.datasets_used.clear();
  EXPECT_TRUE(CheckAblation(*ParseAblations({}), bare).ok());
  for (const char* spec : {"search=ideal", "search=preloaded", "decompose=ideal", "compute=ideal"}) {
    Status st = CheckAblation(*ParseAblations({spec}), bare);
    ASSERT_FALSE(st.ok()) << spec;
    EXPECT_NE(st.message().find(spec), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("A1"), std::string::npos) << st.message();
  }
  eval::Task no_subq = GoldTask();
  no_subq.nodes[1].subquestion.clear();
  Status st = CheckAblation(*ParseAblations({"decompose=ideal"}), no_subq);
  EXPECT_NE(st.message().find("node 2 has none"), std::string::npos) << st.message();
  EXPECT_TRUE(CheckAblation(*ParseAblations({"search=ideal"}), no_subq).ok());
  EXPECT_EQ(GoldFiles(GoldTask()), (std::vector<std::string>{"datagov/city-parks-inventory/files/rows.txt",
                                                             "wikipedia/Springfield/content.txt"}));

  // The agent refuses such a task before any model call.
  Scripted s;
  auto ep = s.Run({"decompose=ideal"}, bare);
  EXPECT_EQ(ep.result.outcome, Outcome::kError);
  EXPECT_NE(ep.result.error.find("decompose=ideal needs the subquestion chain"), std::string::npos)
      << ep.result.error;
  EXPECT_TRUE(ep.bodies.empty());
}

TEST(Ablation, EachLevelChangesOnlyWhatItSays) {
  Scripted s;
  auto standard = s.Run({});
  ASSERT_EQ(standard.result.outcome, Outcome::kAnswered) << standard.result.error;
  ASSERT_EQ(standard.bodies.size(), 3u);
  const Json& base = standard.bodies[0];
  const std::string base_user = FirstUser(base);
  EXPECT_EQ(base_user, FirstUserMessage(GoldTask().question));
  const auto base_tools = ToolNames(base);
  const std::string base_search = ToolResult(standard.bodies[1], 0);
  // Under the standard setting oracle_fact is not a tool.
  EXPECT_NE(ToolResult(standard.bodies[2], 1).find("unknown tool \\\"oracle_fact\\\""), std::string::npos)
      << ToolResult(standard.bodies[2], 1);
  EXPECT_EQ(standard.result.trace[0].count("ablation"), 0u);

  struct Expect {
    std::vector<std::string> specs;
    std::vector<std::string> user_has, user_lacks;
    bool search_results_change = false;
    std::string tools_change;  // "", "-search_keyword", "+oracle_fact"
  };
  const std::vector<Expect> cases = {
      {{"search=naive"},
       {"ABLATION search=naive", "search_keyword is not available"},
       {"city-parks"},
       false,
       "-search_keyword"},
      {{"search=ideal"},
       {"ABLATION search=ideal", "- datagov/city-parks-inventory", "- wikipedia/Springfield"},
       {"rows.txt", "32"},
       true,
       ""},
      {{"search=preloaded"},
       {"ABLATION search=preloaded", "datagov/city-parks-inventory/files/rows.txt",
        "wikipedia/Springfield/content.txt"},
       {"32", "1821"},
       false,
       ""},
      {{"decompose=ideal"},
       {"ABLATION decompose=ideal", "- node 1: largest city parks inventory acres",
        "- node 2: when was springfield founded", "- hop 1: node 1, node 2"},
       {"32", "1821", "1853", "Add:", "founded in 1821"},
       false,
       ""},
      {{"compute=ideal"},
       {"ABLATION compute=ideal", "oracle_fact"},
       {"32", "1821", "city-parks"},
       false,
       "+oracle_fact"},
      {{"search=ideal", "decompose=ideal"},
       {"ABLATION search=ideal", "ABLATION decompose=ideal", "- hop 1: node 1, node 2"},
       {"32", "1821"},
       true,
       ""},
  };
  for (const Expect& e : cases) {
    SCOPED_TRACE(::testing::PrintToString(e.specs));
    auto ep = s.Run(e.specs);
    ASSERT_EQ(ep.bodies.size(), 3u) << ep.result.error;
    for (size_t turn = 0; turn < 3; ++turn) {
      // Model, tool_choice, max_tokens, temperature, stream options: untouched on every turn.
      EXPECT_EQ(Rest(ep.bodies[turn]), Rest(standard.bodies[turn])) << "turn " << turn;
      EXPECT_EQ(System(ep.bodies[turn]), System(standard.bodies[turn])) << "turn " << turn;
      EXPECT_EQ(FirstUser(ep.bodies[turn]), FirstUser(ep.bodies[0]));
      EXPECT_EQ(ep.bodies[turn]["messages"].size(), standard.bodies[turn]["messages"].size());
    }
    // The first user message: the standard one plus the ablation's block, which gives no gold answer away.
    std::string user = FirstUser(ep.bodies[0]);
    ASSERT_EQ(user.rfind(base_user, 0), 0u) << user;
    std::string addendum = user.substr(base_user.size());
    for (const std::string& has : e.user_has)
      EXPECT_NE(addendum.find(has), std::string::npos) << has << "\n" << addendum;
    // Preloaded paths name the files; the others name no file or figure.
    for (const std::string& lacks : e.user_lacks) {
      if (e.specs[0] == "search=preloaded" && lacks != "32" && lacks != "1821") continue;
      EXPECT_EQ(addendum.find(lacks), std::string::npos) << lacks << "\n" << addendum;
    }
    // The tool list.
    auto tools = ToolNames(ep.bodies[0]);
    std::vector<std::string> want = base_tools;
    if (e.tools_change == "-search_keyword")
      want.erase(std::find(want.begin(), want.end(), "search_keyword"));
    if (e.tools_change == "+oracle_fact") want.push_back("oracle_fact");
    EXPECT_EQ(tools, want);
    for (size_t i = 0; i < tools.size() && i < base_tools.size(); ++i) {
      if (tools[i] != base_tools[i]) continue;
      EXPECT_EQ(ep.bodies[0]["tools"][i], base["tools"][i]) << tools[i];  // schemas unchanged
    }
    // search_keyword's results.
    std::string search = ToolResult(ep.bodies[1], 0);
    if (e.tools_change == "-search_keyword") {
      EXPECT_NE(search.find("unknown tool \\\"search_keyword\\\""), std::string::npos) << search;
    } else if (e.search_results_change) {
      auto ids = ResultIds(search);
      ASSERT_GE(ids.size(), 3u) << search;
      EXPECT_EQ(ids[0], "datagov/city-parks-inventory");
      EXPECT_EQ(ids[1], "wikipedia/Springfield");  // not a keyword hit: put first all the same
      EXPECT_EQ(ids[2], "datagov/parks-decoy");
      EXPECT_EQ(ep.result.returned[1], "wikipedia/Springfield");
    } else {
      EXPECT_EQ(search, base_search);
    }
    // oracle_fact's result: the node's answer under compute=ideal, the unknown-tool error otherwise.
    std::string fact = ToolResult(ep.bodies[2], 1);
    if (e.tools_change == "+oracle_fact") {
      Json f = Json::parse(fact);
      EXPECT_EQ(f["facts"][0]["node"], "1");
      EXPECT_EQ(f["facts"][0]["answer"], "32");
      EXPECT_EQ(f["facts"][0]["subquestion"], "largest city parks inventory acres");
      EXPECT_EQ(ep.result.trace[1]["accessed"], Json::array({"datagov/city-parks-inventory"}));
    } else {
      // The same error, whose list of available tools is the run's own.
      std::string want_fact = ToolResult(standard.bodies[2], 1);
      if (e.tools_change == "-search_keyword") want_fact.replace(want_fact.find("search_keyword, "), 16, "");
      EXPECT_EQ(fact, want_fact);
    }
    // The trace names the ablation on every event.
    for (const Json& ev : ep.result.trace) EXPECT_EQ(ev["ablation"], ParseAblations(e.specs)->Label());
    EXPECT_EQ(ep.result.answer, "1853");
  }
}

TEST(Ablation, PreloadedPutsTheGoldFilesInTheSandboxBeforeTheFirstTurn) {
  Scripted s;
  auto ep = s.Run({"search=preloaded"});
  ASSERT_EQ(ep.result.outcome, Outcome::kAnswered) << ep.result.error;
  EXPECT_TRUE(PathExists(ep.sandbox + "/datagov/city-parks-inventory/files/rows.txt"));
  EXPECT_TRUE(PathExists(ep.sandbox + "/wikipedia/Springfield/content.txt"));
  // One setup download (turn 0, by the ablation) that counts for neither D_ret nor D_acc nor the model's
  // calls.
  ASSERT_GE(ep.result.trace.size(), 1u);
  const Json& setup = ep.result.trace[0];
  EXPECT_EQ(setup["turn"], 0);
  EXPECT_EQ(setup["tool"], "download");
  EXPECT_EQ(setup["by"], "ablation");
  EXPECT_EQ(setup["accessed"], Json::array());
  // The model's search_keyword and its refused oracle_fact (not offered here); submit_answer is not a call.
  EXPECT_EQ(ep.result.tool_calls, 2);
  EXPECT_TRUE(ep.result.accessed.empty());
  EXPECT_NE(FirstUser(ep.bodies[0]).find(ep.sandbox + "/datagov/city-parks-inventory/files/rows.txt"),
            std::string::npos);

  // A gold file missing from the lake fails the task with the reason, before any model call.
  eval::Task missing = GoldTask();
  missing.nodes[0].source = "datagov/city-parks-inventory/files/gone.txt";
  missing.datasets_used = {"datagov/city-parks-inventory/files/gone.txt"};
  auto bad = s.Run({"search=preloaded"}, missing);
  EXPECT_EQ(bad.result.outcome, Outcome::kError);
  EXPECT_NE(bad.result.error.find("search=preloaded"), std::string::npos) << bad.result.error;
  EXPECT_NE(bad.result.error.find("gone.txt"), std::string::npos) << bad.result.error;
  EXPECT_TRUE(bad.bodies.empty());
}

TEST(Ablation, OracleFactAnswersOnlyForTheFilesTheEvidenceComesFrom) {
  FakeEnv inner("/nonexistent", *MakeTempDir("ablation-fact"));
  eval::Task task = GoldTask();
  AblatedEpisode ep(*ParseAblations({"compute=ideal"}), task, inner);
  Json ok =
      ep.env().Call("oracle_fact", {{"dataset_id", "wikipedia/Springfield"}, {"file_path", "/content.txt"}});
  ASSERT_TRUE(ok.contains("facts")) << ok.dump();
  EXPECT_EQ(ok["facts"][0]["answer"], "1821");
  EXPECT_EQ(ok["dataset_id"], "wikipedia/Springfield");
  Json other = ep.env().Call("oracle_fact", {{"dataset_id", "parks-decoy"}, {"file_path", "files/rows.txt"}});
  EXPECT_EQ(other["error"]["code"], "not_found") << other.dump();
  EXPECT_EQ(ep.env().LastCallDatasets()["accessed"], Json::array());
  Json malformed = ep.env().Call("oracle_fact", {{"dataset_id", "x"}});
  EXPECT_EQ(malformed["error"]["code"], "invalid_argument");
  // Without compute=ideal the call goes to the environment, which has no such tool.
  AblatedEpisode plain(*ParseAblations({}), task, inner);
  EXPECT_EQ(plain.env().Call("oracle_fact", {{"dataset_id", "x"}, {"file_path", "y"}})["error"]["code"],
            "not_found");
  EXPECT_EQ(plain.Tools(PaperToolSchemas()).size(), PaperToolSchemas().size());
  EXPECT_EQ(plain.UserMessageAddendum(), "");
}

}  // namespace
}  // namespace lakeqa::agent
