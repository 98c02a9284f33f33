// `lakeqa run` end to end through the real CLI and the real tools: a lake and an index built with
// `lakeqa index build`, the oracle at 100% EM on tasks written for that lake, and an llm run against a
// loopback OpenAI-protocol server that is interrupted with SIGINT, resumed, then replayed offline.
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include "lakeqa/common/fs.h"

#include "agent/cli_fixture.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

using lakeqa::testing::ModelServer;
using lakeqa::testing::OpenAiTextStream;
using lakeqa::testing::OpenAiToolCallStream;
using testing::Bin;
using testing::CliRun;
using testing::Lines;
using testing::RunCli;
using testing::Spawn;
using testing::Task;
using testing::Wait;
using testing::WriteText;

// `lakeqa tasks verify`: the annotation guideline's grounding check through the same oracle and tools.
TEST_F(CliRun, TasksVerifyGroundsEveryNodeAndReportsAWrongOne) {
  ASSERT_EQ(RunCli({"tasks", "verify", dir_ + "/tasks", "--lake", dir_ + "/lake", "--index", dir_ + "/idx",
                    "--json"},
                   dir_ + "/verify.log"),
            0)
      << *ReadFile(dir_ + "/verify.log");
  // A task whose fact code yields 32 while its node claims 33 is not grounded: exit 6, the node named.
  Json bad = Task("BAD",
                  "import csv\nrows = list(csv.DictReader(open(local_path)))\n"
                  "answer = str(max(int(r['acres']) for r in rows))\n");
  bad["nodes"]["1"]["answer"] = "33";
  WriteText(dir_ + "/bad/k-1-d-2/task_1.json", bad.dump());
  ASSERT_EQ(
      RunCli({"tasks", "verify", dir_ + "/bad", "--lake", dir_ + "/lake", "--index", dir_ + "/idx", "--json"},
             dir_ + "/verify-bad.log"),
      6);
  std::string log = *ReadFile(dir_ + "/verify-bad.log");
  Json j = Json::parse(log.substr(log.find('{')));
  EXPECT_EQ(j["tasks_grounded"], 0);
  EXPECT_EQ(j["nodes"], 2);
  EXPECT_EQ(j["nodes_grounded"], 1);
  EXPECT_NE(j["results"][0]["error"].get<std::string>().find("node 1"), std::string::npos) << log;
}

TEST_F(CliRun, OracleReachesFullExactMatchOnItsLake) {
  auto args = Base("oracle");
  args.insert(args.end(), {"--agent", "oracle", "--parallel", "2", "--json"});
  ASSERT_EQ(RunCli(args, dir_ + "/oracle.log"), 0) << *ReadFile(dir_ + "/oracle.log");
  auto preds = Lines(dir_ + "/oracle/predictions.jsonl");
  ASSERT_EQ(preds.size(), 4u);
  for (const Json& p : preds) {
    EXPECT_EQ(p["answer"], "1853") << p.dump();
    EXPECT_EQ(p["extra"]["search_recall_at_20"], 1.0) << p.dump();
  }
  Json meta = Json::parse(*ReadFile(dir_ + "/oracle/run.json"));
  EXPECT_EQ(meta["status"], "complete");
  EXPECT_EQ(meta["agent"], "oracle");
  EXPECT_EQ(meta["prompt_hash"].get<std::string>().size(), 64u);

  // `lakeqa eval` reads what `lakeqa run` wrote, as it is: EM 100%, every gold dataset accessed, and the
  // code's boto3 reads counted in D_acc through the session's own record.
  ASSERT_EQ(
      RunCli({"eval", "--run", dir_ + "/oracle", "--tasks", dir_ + "/tasks", "--json"}, dir_ + "/eval.log"),
      0)
      << *ReadFile(dir_ + "/eval.log");
  Json report = Json::parse(*ReadFile(dir_ + "/oracle/report.json"));
  EXPECT_EQ(report["em"], 1.0) << report.dump();
  EXPECT_EQ(report["dacc_r"], 1.0) << report.dump();
  EXPECT_EQ(report["dret_r"], 1.0) << report.dump();
  EXPECT_EQ(report["funnel"]["correct"], 4) << report.dump();
  EXPECT_TRUE(PathExists(dir_ + "/oracle/report.html"));
  auto trace = Lines(dir_ + "/oracle/traces/C2.jsonl");
  bool boto3_read = false;
  for (const Json& e : trace) {
    if (e.value("tool", "") == "execute_code" && e.contains("accessed")) {
      for (const Json& id : e["accessed"]) boto3_read = boto3_read || id == "datagov/city-parks-inventory";
    }
  }
  EXPECT_TRUE(boto3_read) << "the s3-style fact of task C2 read the parks table through boto3";
}

TEST_F(CliRun, LlmRunSurvivesSigintResumesAndReplaysOffline) {
  std::atomic<bool> slow{true}, c3_waiting{false};
  ModelServer srv([&](const std::string&, const Json& body) {
    if (!body.contains("tools")) return OpenAiTextStream("OK");  // the run's preflight request
    int turn = 0;
    for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
    std::string q = body["messages"][1]["content"].get<std::string>();
    // Task C3 hangs on its first call until the test has interrupted the run.
    if (q.find("Task C3") != std::string::npos) {
      c3_waiting = true;
      for (int i = 0; i < 500 && slow.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (turn == 0) return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c0");
    return OpenAiToolCallStream("submit_answer", {{"answer", "[1853]"}}, "c1");
  });
  auto args = Base("llm");
  args.insert(args.begin(), Bin());
  args.insert(args.end(), {"--agent", "llm", "--model", "openai:gpt-5.2", "--base-url", srv.Url() + "/v1"});
  pid_t pid = Spawn(args, dir_ + "/llm1.log");
  // Interrupt while C3 waits for its first model answer (two tasks are recorded by then).
  for (int i = 0; i < 1000 && !c3_waiting.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGINT);
  slow = false;
  int rc = Wait(pid);
  EXPECT_NE(rc, 0) << *ReadFile(dir_ + "/llm1.log");
  EXPECT_EQ(Json::parse(*ReadFile(dir_ + "/llm/run.json"))["status"], "interrupted");
  size_t first = Lines(dir_ + "/llm/predictions.jsonl").size();
  EXPECT_EQ(first, 2u);
  int calls_before = srv.calls();

  std::vector<std::string> resume(args.begin() + 1, args.end());
  ASSERT_EQ(RunCli(resume, dir_ + "/llm2.log"), 0) << *ReadFile(dir_ + "/llm2.log");
  auto preds = Lines(dir_ + "/llm/predictions.jsonl");
  ASSERT_EQ(preds.size(), 4u) << *ReadFile(dir_ + "/llm1.log") << *ReadFile(dir_ + "/llm2.log");
  for (const Json& p : preds) EXPECT_EQ(p["answer"], "1853");
  // Only the unfinished tasks cost anything: the resumed run's preflight, C4's two turns and C3's second;
  // C3's first turn, answered while the run was stopping, comes from the cassette.
  EXPECT_EQ(srv.calls() - calls_before, 4);
  EXPECT_NE(preds[0]["cost_usd"], nullptr);  // gpt-5.2 is in the shipped pricing table

  // Offline replay from the cassette: no server calls, same answers.
  int calls_after = srv.calls();
  auto offline = Base("replay");
  offline.insert(offline.end(), {"--agent", "llm", "--model", "openai:gpt-5.2", "--offline", "--cassette",
                                 dir_ + "/llm/cassette.jsonl"});
  ASSERT_EQ(RunCli(offline, dir_ + "/llm3.log"), 0) << *ReadFile(dir_ + "/llm3.log");
  auto replayed = Lines(dir_ + "/replay/predictions.jsonl");
  ASSERT_EQ(replayed.size(), 4u);
  for (const Json& p : replayed) EXPECT_EQ(p["answer"], "1853");
  EXPECT_EQ(srv.calls(), calls_after);

  // Bad input: a model without a provider, a missing key for a hosted API.
  auto bad = Base("bad");
  bad.insert(bad.end(), {"--model", "gpt-5.2"});
  EXPECT_EQ(RunCli(bad, dir_ + "/bad.log"), 2);
  EXPECT_NE(ReadFile(dir_ + "/bad.log")->find("provider:model"), std::string::npos);
}

}  // namespace
}  // namespace lakeqa::agent
