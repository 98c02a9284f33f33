// The agents against a fake tool environment (a lake folder, python3 for code) and, for the LLM agent,
// a loopback server speaking the OpenAI protocol with a scripted model.
#include "lakeqa/agent/agent.h"

#include <atomic>

#include <gtest/gtest.h>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/llm/providers.h"

#include "agent/fake_env.h"
#include "agent/internal.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

using lakeqa::testing::JsonReply;
using lakeqa::testing::ModelServer;
using lakeqa::testing::OpenAiToolCallStream;
using lakeqa::testing::Reply;
using testing::FakeEnv;
using testing::WriteText;

// A lake with two gold sources and a decoy, and a task written for it.
struct Fixture {
  std::string dir, lake;
  Fixture() {
    dir = *MakeTempDir("agent-test");
    lake = dir + "/lake";
    WriteText(lake + "/datagov/city-parks-inventory/files/rows.txt", "name,acres\nA,10\nB,32\nC,5\n");
    WriteText(lake + "/datagov/city-parks-inventory/metadata.json",
              "{\"publisher\": \"City of Springfield\"}");
    WriteText(lake + "/datagov/parks-decoy/files/rows.txt", "name,acres\nZ,999\n");
    WriteText(lake + "/wikipedia/Springfield/content.txt", "Springfield was founded in 1821.");
  }
  ~Fixture() { (void)RemoveAll(dir); }
  std::unique_ptr<FakeEnv> Env(const std::string& name = "s") {
    return std::make_unique<FakeEnv>(lake, dir + "/sb-" + name);
  }
};

Json TaskJson(const std::string& id, const std::string& code_answer = "32") {
  return {
      {"question_id", id},
      {"question",
       "How many years after Springfield was founded plus the acres of its largest city park? [Answer]"},
      {"answer", "1853"},
      {"nodes",
       {{"1",
         {{"source", "datagov/city-parks-inventory/files/rows.txt"},
          {"subquestion", "largest city parks inventory acres"},
          {"fact",
           "import csv\nrows = list(csv.DictReader(open(local_path)))\nanswer = str(max(int(r['acres']) for "
           "r in rows))\n"},
          {"answer", code_answer}}},
        {"2",
         {{"source", "wikipedia/Springfield/content.txt"},
          {"subquestion", "when was springfield founded"},
          {"fact", "Springfield was founded in 1821."},
          {"answer", "1821"}}}}},
      {"datasets_used", {"datagov/city-parks-inventory/files/rows.txt", "wikipedia/Springfield/content.txt"}},
      {"reasoning_hops",
       {{{"hop", 1}, {"node_ids", {1, 2}}, {"reasoning", {"Add the two."}}, {"answer", "1853"}}}}};
}

eval::Task MakeTask(const std::string& id, const std::string& code_answer = "32") {
  auto t = eval::TaskFromJson(TaskJson(id, code_answer), id);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return *t;
}

TEST(Prompts, CleanAnswerFollowsTheReferenceHarness) {
  EXPECT_EQ(CleanAnswer("[5021]"), "5021");
  EXPECT_EQ(CleanAnswer("The answer is [1,234] incidents"), "1234");
  EXPECT_EQ(CleanAnswer("Answer: Pittsburgh, PA"), "Pittsburgh, PA");
  EXPECT_EQ(CleanAnswer("  \"Edward\" "), "Edward");
  EXPECT_EQ(CleanAnswer("no brackets, 42 parks"), "42");
  EXPECT_EQ(CleanAnswer("between 3 and 4"), "between 3 and 4");
  EXPECT_EQ(CleanAnswer(""), "");
  EXPECT_EQ(PaperToolSchemas().size(), 7u);
  EXPECT_NE(DefaultSystemPrompt().find("You output ONE tool call, then STOP."), std::string::npos);
  EXPECT_EQ(PromptHash("a", PaperToolSchemas()).size(), 64u);
  EXPECT_NE(PromptHash("a", PaperToolSchemas()), PromptHash("b", PaperToolSchemas()));
}

TEST(Prompts, TruncateKeepsHeadAndTailOnUtf8Boundaries) {
  std::string s;
  for (int i = 0; i < 3000; ++i) s += "é";
  std::string t = internal::Truncate(s, 4000);
  EXPECT_LT(t.size(), s.size());
  EXPECT_NE(t.find("...[truncated]..."), std::string::npos);
  std::string head = t.substr(0, t.find("\n...[truncated]"));
  EXPECT_EQ(head.size() % 2, 0u);  // whole two-byte characters only
  EXPECT_EQ(internal::Truncate("short", 4000), "short");
}

TEST(Oracle, GroundsEveryNodeAndSubmitsTheGoldAnswer) {
  Fixture fx;
  auto env = fx.Env();
  std::atomic<bool> cancel{false};
  AgentResult r = MakeOracleAgent()->Run(MakeTask("T1"), *env, cancel);
  EXPECT_EQ(r.outcome, Outcome::kAnswered) << r.error;
  EXPECT_EQ(r.answer, "1853") << r.error;
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.extra["grounded"], 2);
  // Node 1's subquestion finds its dataset at rank 1; node 2's ("when was springfield founded") too.
  EXPECT_EQ(r.extra["nodes"][0]["search_rank"], 1);
  EXPECT_EQ(r.extra["nodes"][0]["answer"], "32");
  EXPECT_EQ(r.extra["search_hits_at_20"], 2);
  EXPECT_NE(std::find(r.accessed.begin(), r.accessed.end(), "datagov/city-parks-inventory"),
            r.accessed.end());
  EXPECT_EQ(r.trace.back()["tool"], "submit_answer");
}

TEST(Oracle, AFactThatDoesNotReproduceWithholdsTheAnswer) {
  Fixture fx;
  auto env = fx.Env();
  std::atomic<bool> cancel{false};
  AgentResult r = MakeOracleAgent()->Run(MakeTask("T2", "33"), *env, cancel);
  EXPECT_EQ(r.answer, "");
  EXPECT_NE(r.error.find("node 1"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("\"32\""), std::string::npos) << r.error;
  EXPECT_EQ(r.extra["grounded"], 1);
}

TEST(Baseline, UsesTheToolsAndSubmitsAGuess) {
  Fixture fx;
  auto env = fx.Env();
  std::atomic<bool> cancel{false};
  auto task = MakeTask("T3");
  task.question = "What is the total acres of city parks inventory?";
  AgentResult r = MakeBaselineAgent()->Run(task, *env, cancel);
  EXPECT_EQ(r.outcome, Outcome::kAnswered);
  EXPECT_FALSE(r.answer.empty());
  ASSERT_GE(r.trace.size(), 5u);
  EXPECT_EQ(r.trace[0]["tool"], "search_keyword");
  EXPECT_EQ(r.trace[1]["tool"], "list_files");
  EXPECT_EQ(r.trace[2]["tool"], "download");
  EXPECT_EQ(r.trace[3]["tool"], "inspect_file");
}

// The scripted model: what it does on each turn of the conversation.
using Turn = std::function<Reply(const Json& body, int turn)>;

struct LlmFixture {
  Fixture fx;
  ModelServer srv;
  std::unique_ptr<llm::ChatClient> client;
  llm::PricingTable pricing = *llm::PricingTable::FromJson(
      Json{{"models", {{"gpt-test", {{"input", 2.0}, {"output", 10.0}, {"cache_read", 0.5}}}}}}, "test");
  explicit LlmFixture(Turn script)
      : srv([script](const std::string&, const Json& body) {
          int turn = 0;
          for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
          return script(body, turn);
        }) {
    llm::ClientOptions o;
    o.base_url = srv.Url() + "/v1";
    o.http.max_retries = 1;
    o.http.base_backoff_ms = 1;
    client = llm::MakeOpenAiClient(o);
  }
  AgentResult Run(LoopConfig cfg, const std::string& id = "T1") {
    auto env = fx.Env(id);
    std::atomic<bool> cancel{false};
    return MakeLlmAgent(*client, "openai", "gpt-test", &pricing, cfg)->Run(MakeTask(id), *env, cancel);
  }
};

Reply RawToolCall(const std::string& name, const std::string& args_text) {
  Json j = {
      {"model", "gpt-test"},
      {"choices",
       Json::array(
           {{{"index", 0},
             {"message",
              {{"role", "assistant"},
               {"content", ""},
               {"tool_calls", Json::array({{{"id", "c"},
                                            {"type", "function"},
                                            {"function", {{"name", name}, {"arguments", args_text}}}}})}}},
             {"finish_reason", "tool_calls"}}})},
      {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 12}}}};
  return JsonReply(200, j);
}

TEST(LlmAgent, ErrorsGoBackToTheModelAndTheAnswerIsCleaned) {
  LlmFixture f([](const Json&, int turn) -> Reply {
    switch (turn) {
      case 0: return OpenAiToolCallStream("browse_web", {{"url", "x"}}, "c0");
      case 1: return RawToolCall("search_keyword", "{\"keywords\": [\"parks\"");  // malformed JSON
      case 2: return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c2");
      case 3: {
        Reply r = JsonReply(
            200, {{"model", "gpt-test"},
                  {"choices",
                   Json::array({{{"index", 0},
                                 {"message", {{"role", "assistant"}, {"content", "I think it is 1853."}}},
                                 {"finish_reason", "stop"}}})},
                  {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 12}}}});
        return r;
      }
      default:
        return OpenAiToolCallStream("submit_answer",
                                    {{"answer", "The answer is [1,853]"}, {"reasoning", "sum"}}, "c4");
    }
  });
  AgentResult r = f.Run({});
  EXPECT_EQ(r.outcome, Outcome::kAnswered) << r.error;
  EXPECT_EQ(r.answer, "1853");
  EXPECT_EQ(r.raw_answer, "The answer is [1,853]");
  EXPECT_EQ(r.turns, 5);
  // Refused calls count (docs/formats-run.md): browse_web, the malformed one and search_keyword.
  EXPECT_EQ(r.tool_calls, 3);
  EXPECT_EQ(r.usage.input_tokens, 500);
  EXPECT_EQ(r.usage.cache_read_tokens, 120);
  ASSERT_TRUE(r.cost_usd.has_value());
  // 380 plain input at $2, 120 cached at $0.5, 60 output at $10 per million.
  EXPECT_NEAR(*r.cost_usd, (380 * 2.0 + 120 * 0.5 + 60 * 10.0) / 1e6, 1e-12);
  ASSERT_EQ(r.trace.size(), 5u);
  EXPECT_EQ(r.trace[0]["status"], "not_found");  // an unknown tool: the error's code
  EXPECT_EQ(r.trace[1]["status"], "invalid_argument");
  EXPECT_EQ(r.trace[3]["status"], "no_tool_call");
  EXPECT_NE(std::find(r.returned.begin(), r.returned.end(), "datagov/city-parks-inventory"),
            r.returned.end());
  // What the model was told.
  auto bodies = f.srv.Bodies();
  ASSERT_EQ(bodies.size(), 5u);
  Json last = Json::parse(bodies.back());
  std::string convo = last["messages"].dump();
  EXPECT_NE(convo.find("unknown tool"), std::string::npos);
  EXPECT_NE(convo.find("browse_web"), std::string::npos);
  EXPECT_NE(convo.find("are not a JSON object"), std::string::npos);
  EXPECT_NE(convo.find("[STATUS: 24 turns remaining"), std::string::npos);
  EXPECT_NE(convo.find("Please use one of the available tools"), std::string::npos);
  EXPECT_EQ(last["messages"][1]["content"].get<std::string>().rfind("QUESTION TO ANSWER:", 0), 0u);
  EXPECT_EQ(last["tool_choice"], "auto");
  EXPECT_EQ(last["tools"].size(), 7u);
}

TEST(LlmAgent, ForcesToolChoiceNearTheEndAndStopsAtMaxTurns) {
  LlmFixture f([](const Json&, int turn) {
    return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c" + std::to_string(turn));
  });
  LoopConfig cfg;
  cfg.max_turns = 7;
  cfg.extra_tools = {"query"};
  AgentResult r = f.Run(cfg);
  EXPECT_EQ(r.outcome, Outcome::kMaxTurns);
  EXPECT_EQ(r.answer, "");
  auto bodies = f.srv.Bodies();
  ASSERT_EQ(bodies.size(), 7u);
  EXPECT_EQ(Json::parse(bodies[0])["tool_choice"], "auto");
  EXPECT_EQ(Json::parse(bodies[1])["tool_choice"], "auto");
  EXPECT_EQ(Json::parse(bodies[2])["tool_choice"], "required");  // the last 5 turns
  EXPECT_EQ(Json::parse(bodies[6])["tool_choice"]["function"]["name"], "submit_answer");
  EXPECT_EQ(Json::parse(bodies[0])["tools"].size(), 8u);  // + query from --tools
  EXPECT_EQ(Json::parse(bodies[0])["tools"][7]["function"]["name"], "query");
}

TEST(LlmAgent, TokenAndDollarLimits) {
  LlmFixture f([](const Json&, int turn) {
    return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c" + std::to_string(turn));
  });
  LoopConfig cfg;
  cfg.max_total_tokens = 300;  // 112 per turn
  AgentResult r = f.Run(cfg, "T1");
  EXPECT_EQ(r.outcome, Outcome::kTokenLimit);
  EXPECT_EQ(r.turns, 3);
  // After two turns a third would cross the limit: that turn is forced to answer.
  EXPECT_EQ(Json::parse(f.srv.Bodies()[2])["tool_choice"]["function"]["name"], "submit_answer");
  LoopConfig dollars;
  dollars.max_cost_usd = 0.0005;  // about 0.00029 per turn
  AgentResult d = f.Run(dollars, "T2");
  EXPECT_EQ(d.outcome, Outcome::kCostLimit) << d.error;
  EXPECT_EQ(d.turns, 2);
}

TEST(LlmAgent, ProviderErrorEndsTheTaskWithTheServersMessage) {
  LlmFixture f([](const Json&, int turn) {
    if (turn == 0) return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}});
    return JsonReply(
        404,
        {{"error", {{"message", "The model `gpt-test` does not exist"}, {"type", "invalid_request_error"}}}});
  });
  AgentResult r = f.Run({});
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.error.find("turn 2"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("does not exist"), std::string::npos) << r.error;
  EXPECT_EQ(r.trace.back()["status"], "model_error");
}

TEST(LlmAgent, UnknownExtraToolIsAClearError) {
  LlmFixture f([](const Json&, int) { return OpenAiToolCallStream("search", {}); });
  LoopConfig cfg;
  cfg.extra_tools = {"teleport"};
  AgentResult r = f.Run(cfg);
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.error.find("teleport"), std::string::npos);
  EXPECT_EQ(f.srv.calls(), 0);
}

}  // namespace
}  // namespace lakeqa::agent
