// The runner end to end: an LLM agent over the OpenAI protocol (loopback scripted model), a cassette,
// interruption and resume, offline replay, crash isolation.
#include "lakeqa/agent/run.h"

#include <atomic>
#include <regex>

#include <gtest/gtest.h>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/eval/score.h"
#include "lakeqa/llm/cassette.h"
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

std::vector<eval::Task> Tasks(int n) {
  std::vector<eval::Task> tasks;
  for (int i = 1; i <= n; ++i) {
    eval::Task t;
    t.id = "Q" + std::to_string(i);
    t.question = "Question Q" + std::to_string(i) + ": how many acres do the city parks have? [Answer]";
    t.answer = std::to_string(i * 10);
    tasks.push_back(t);
  }
  return tasks;
}

// The scripted model: searches once, then answers ten times the question's number.
Reply Script(const std::string&, const Json& body) {
  int turn = 0;
  for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
  if (turn == 0) return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c0");
  std::smatch m;
  std::string q = body["messages"][1]["content"].get<std::string>();
  std::regex_search(q, m, std::regex("Q(\\d+)"));
  return OpenAiToolCallStream("submit_answer", {{"answer", "[" + std::to_string(std::stoi(m[1]) * 10) + "]"}},
                              "c1");
}

struct RunFixture {
  std::string dir = *MakeTempDir("run-test");
  std::string lake = dir + "/lake";
  std::atomic<int> envs{0};
  RunFixture() { WriteText(lake + "/datagov/city-parks/files/rows.txt", "name,acres\nA,10\n"); }
  ~RunFixture() { (void)RemoveAll(dir); }
  ToolEnvFactory Envs() {
    return [this](const eval::Task& t) -> Result<std::unique_ptr<ToolEnv>> {
      ++envs;
      return std::unique_ptr<ToolEnv>(std::make_unique<FakeEnv>(lake, dir + "/sandboxes/" + t.id));
    };
  }
  RunOptions Options(const std::string& out, int parallel = 1) {
    RunOptions o;
    o.out_dir = dir + "/" + out;
    o.parallel = parallel;
    o.progress = false;
    o.agent = "llm";
    o.model = "openai:gpt-test";
    o.prompt_hash = PromptHash(DefaultSystemPrompt(), PaperToolSchemas());
    return o;
  }
  std::map<std::string, Json> Predictions(const std::string& out) {
    std::map<std::string, Json> m;
    std::string text = *ReadFile(dir + "/" + out + "/predictions.jsonl");
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      Json j = Json::parse(line);
      m[j["task_id"]] = j;
    }
    return m;
  }
};

llm::ClientOptions Local(const ModelServer& srv) {
  llm::ClientOptions o;
  o.base_url = srv.Url() + "/v1";
  o.http.max_retries = 1;
  o.http.base_backoff_ms = 1;
  return o;
}

TEST(Runner, InterruptResumeAndOfflineReplay) {
  RunFixture fx;
  auto tasks = Tasks(6);
  ModelServer srv(Script);
  std::string cassette = fx.dir + "/cassette.jsonl";
  {
    auto client =
        llm::CassetteClient::Open(cassette, llm::CassetteMode::kRecord, llm::MakeOpenAiClient(Local(srv)));
    ASSERT_TRUE(client.ok());
    AgentFactory agents = [&] { return MakeLlmAgent(**client, "openai", "gpt-test", nullptr, {}); };
    // Interrupted as the third task starts (what SIGINT does): two tasks recorded, the third not.
    std::atomic<bool> cancel{false};
    ToolEnvFactory envs = [&](const eval::Task& t) {
      if (++fx.envs == 3) cancel = true;
      return Result<std::unique_ptr<ToolEnv>>(
          std::unique_ptr<ToolEnv>(std::make_unique<FakeEnv>(fx.lake, fx.dir + "/sb/" + t.id)));
    };
    auto first = RunTasks(fx.Options("run"), tasks, agents, envs, cancel);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    EXPECT_TRUE(first->interrupted);
    EXPECT_EQ(first->ran, 2u);
    EXPECT_EQ(first->cancelled, 1u);
    EXPECT_EQ(srv.calls(), 4);
    auto meta = Json::parse(*ReadFile(fx.dir + "/run/run.json"));
    EXPECT_EQ(meta["status"], "interrupted");

    // Resume in parallel: the two finished tasks cost nothing.
    std::atomic<bool> no_cancel{false};
    auto second = RunTasks(fx.Options("run", 3), tasks, agents, fx.Envs(), no_cancel);
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    EXPECT_EQ(second->skipped, 2u);
    EXPECT_EQ(second->ran, 4u);
    EXPECT_EQ(second->answered, 4u);
    EXPECT_EQ(srv.calls(), 12);
    EXPECT_EQ(Json::parse(*ReadFile(fx.dir + "/run/run.json"))["status"], "complete");
  }
  auto preds = fx.Predictions("run");
  ASSERT_EQ(preds.size(), 6u);
  for (int i = 1; i <= 6; ++i) {
    const Json& p = preds["Q" + std::to_string(i)];
    EXPECT_EQ(p["status"], "answered");
    EXPECT_EQ(p["answer"], std::to_string(i * 10));
    EXPECT_EQ(p["usage"]["cache_read_tokens"], 80);
  }
  std::string trace = *ReadFile(fx.dir + "/run/traces/Q4.jsonl");
  EXPECT_NE(trace.find("\"tool\":\"search_keyword\""), std::string::npos);
  EXPECT_NE(trace.find("\"tool\":\"submit_answer\""), std::string::npos);

  // Offline: the cassette alone answers every model call, with the same results.
  auto offline = llm::CassetteClient::Open(cassette, llm::CassetteMode::kReplay, nullptr);
  ASSERT_TRUE(offline.ok());
  std::atomic<bool> no_cancel{false};
  auto replay = RunTasks(
      fx.Options("replayed", 2), tasks,
      [&] { return MakeLlmAgent(**offline, "openai", "gpt-test", nullptr, {}); }, fx.Envs(), no_cancel);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_EQ(replay->answered, 6u);
  EXPECT_EQ(srv.calls(), 12);
  auto again = fx.Predictions("replayed");
  for (const auto& [id, p] : preds) {
    EXPECT_EQ(again[id]["answer"], p["answer"]);
    EXPECT_EQ(again[id]["usage"], p["usage"]);
  }

  // The replay agent re-issues the recorded tool calls and the recorded answer.
  auto rerun = RunTasks(
      fx.Options("rerun"), tasks, [&] { return MakeReplayAgent(fx.dir + "/run/traces"); }, fx.Envs(),
      no_cancel);
  ASSERT_TRUE(rerun.ok());
  EXPECT_EQ(rerun->answered, 6u);
  EXPECT_EQ(fx.Predictions("rerun")["Q5"]["answer"], "50");
  EXPECT_EQ(fx.Predictions("rerun")["Q5"]["tool_calls"], 1);
}

TEST(Runner, CrashesAndErrorsAreRecordedAndRetriedOnResume) {
  RunFixture fx;
  auto tasks = Tasks(5);
  ModelServer srv(Script);
  auto client = llm::MakeOpenAiClient(Local(srv));
  AgentFactory agents = [&] { return MakeLlmAgent(*client, "openai", "gpt-test", nullptr, {}); };
  std::atomic<bool> cancel{false};
  ToolEnvFactory flaky = [&](const eval::Task& t) -> Result<std::unique_ptr<ToolEnv>> {
    if (t.id == "Q2") throw std::runtime_error("sandbox exploded");
    if (t.id == "Q3") return IoError("no space left on device");
    return std::unique_ptr<ToolEnv>(std::make_unique<FakeEnv>(fx.lake, fx.dir + "/sb/" + t.id));
  };
  auto r = RunTasks(fx.Options("run", 2), tasks, agents, flaky, cancel);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ran, 5u);
  EXPECT_EQ(r->answered, 3u);
  EXPECT_EQ(r->failed, 2u);
  auto preds = fx.Predictions("run");
  EXPECT_EQ(preds["Q2"]["status"], "crashed");
  EXPECT_NE(preds["Q2"]["error"].get<std::string>().find("sandbox exploded"), std::string::npos);
  EXPECT_EQ(preds["Q3"]["status"], "error");
  EXPECT_NE(preds["Q3"]["error"].get<std::string>().find("no space left"), std::string::npos);

  // A kill during an append leaves a torn line: it is dropped and that task simply runs again.
  std::string path = fx.dir + "/run/predictions.jsonl";
  ASSERT_TRUE(WriteFileAtomic(path, *ReadFile(path) + "{\"task_id\": \"Q4\", \"sta").ok());
  int calls = srv.calls();
  auto resumed = RunTasks(fx.Options("run", 2), tasks, agents, fx.Envs(), cancel);
  ASSERT_TRUE(resumed.ok()) << resumed.status().ToString();
  EXPECT_EQ(resumed->skipped, 3u);
  EXPECT_EQ(resumed->ran, 2u);
  EXPECT_EQ(srv.calls(), calls + 4);
  EXPECT_EQ(fx.Predictions("run")["Q2"]["status"], "answered");

  // --only-new skips everything recorded; a different model may not reuse the folder.
  RunOptions only_new = fx.Options("run");
  only_new.only_new = true;
  auto nothing = RunTasks(only_new, tasks, agents, fx.Envs(), cancel);
  ASSERT_TRUE(nothing.ok());
  EXPECT_EQ(nothing->ran, 0u);
  RunOptions other = fx.Options("run");
  other.model = "anthropic:claude-x";
  auto refused = RunTasks(other, tasks, agents, fx.Envs(), cancel);
  EXPECT_EQ(refused.status().code(), ErrorCode::kAlreadyExists);
  EXPECT_NE(refused.status().message().find("openai:gpt-test"), std::string::npos);
  auto dup = Tasks(2);
  dup.push_back(dup[0]);
  EXPECT_EQ(RunTasks(fx.Options("dup"), dup, agents, fx.Envs(), cancel).status().code(),
            ErrorCode::kInvalidArgument);
}

// One rule for a task recorded more than once (a resumed run appends a line per attempt), shared by the
// runner (what to skip) and the scorer (what to score): the last final line wins, else the last line.
TEST(Runner, RunAndEvalAgreeOnWhichLineOfATaskCounts) {
  auto dir = MakeTempDir("resume-rule");
  ASSERT_TRUE(dir.ok());
  struct Case {
    std::vector<std::string> statuses;  // one task's lines, in file order
    std::string current;
  };
  const std::vector<Case> cases = {
      {{"error", "answered"}, "answered"},     {{"answered", "error"}, "answered"},
      {{"answered", "crashed"}, "answered"},   {{"error", "crashed"}, "crashed"},
      {{"max_turns", "answered"}, "answered"}, {{"answered", "timeout"}, "timeout"},
      {{"crashed", "error", "error"}, "error"}};
  for (const Case& c : cases) {
    std::string lines;
    for (const std::string& st : c.statuses)
      lines += Json{{"task_id", "T"}, {"status", st}, {"answer", st}}.dump() + "\n";
    ASSERT_TRUE(WriteFileAtomic(*dir + "/predictions.jsonl", lines).ok());
    auto recorded = ReadRecordedStatus(*dir);
    ASSERT_TRUE(recorded.ok()) << recorded.status().ToString();
    EXPECT_EQ((*recorded)["T"], c.current) << Json(c.statuses).dump();
    auto run = eval::LoadRun(*dir);
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    ASSERT_EQ(run->predictions.size(), 1u) << Json(c.statuses).dump();
    EXPECT_EQ(run->predictions[0].answer, c.current) << Json(c.statuses).dump();
  }
  (void)RemoveAll(*dir);
}

}  // namespace
}  // namespace lakeqa::agent
