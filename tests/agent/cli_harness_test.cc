// What a new user hits first with `lakeqa run` and `lakeqa eval`, through the real CLI and the real tools
// (issue 14): run.json's one versioned schema that `lakeqa eval --run` reads as written; a subset resumed
// keeps the union of tasks and the history of invocations; a missing or different lake is refused; a
// failed run exits non-zero, a dead endpoint stops the run at its preflight, --max-failures stops it; an
// unpriced model's cost is unknown, never $0.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"

#include "agent/cli_fixture.h"
#include "llm/model_server.h"

namespace lakeqa::agent {
namespace {

using lakeqa::testing::JsonReply;
using lakeqa::testing::ModelServer;
using lakeqa::testing::OpenAiTextStream;
using lakeqa::testing::OpenAiToolCallStream;
using lakeqa::testing::Reply;
using testing::Bin;
using testing::CliRun;
using testing::Lines;
using testing::RunCli;
using testing::Spawn;
using testing::WriteText;

// Runs the CLI, killing it after `seconds` (a verb that should have refused to start must not hang the test).
int RunCliWithin(const std::vector<std::string>& args, const std::string& log, int seconds) {
  std::vector<std::string> full = {Bin()};
  full.insert(full.end(), args.begin(), args.end());
  pid_t pid = Spawn(full, log);
  for (int i = 0; i < seconds * 20; ++i) {
    int st = 0;
    if (waitpid(pid, &st, WNOHANG) == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

// The scripted model: a request without tools is the preflight; then search once and answer.
Reply Answering(const Json& body) {
  if (!body.contains("tools")) return OpenAiTextStream("OK");
  int turn = 0;
  for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
  if (turn == 0) return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c0");
  return OpenAiToolCallStream("submit_answer", {{"answer", "[1853]"}}, "c1");
}

Json ReadJson(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? Json::parse(*text, nullptr, false) : Json();
}

std::string Log(const std::string& path) { return ReadFile(path).value_or("<no log>"); }

class CliHarness : public CliRun {
 protected:
  std::vector<std::string> Baseline(const std::string& out, const std::string& tasks) {
    return {"run",   "--tasks",        tasks,     "--index", dir_ + "/idx", "--lake", dir_ + "/lake",
            "--out", dir_ + "/" + out, "--agent", "baseline"};
  }
  std::vector<std::string> Llm(const std::string& out, const std::string& url, const std::string& model) {
    auto a = Base(out);
    a.insert(a.end(), {"--agent", "llm", "--model", model, "--base-url", url + "/v1"});
    return a;
  }
};

// Issue 14, defect 3: run.json has one documented, versioned schema, and `lakeqa eval --run` scores what
// `lakeqa run` wrote without being told the tasks again.
TEST_F(CliHarness, RunJsonIsVersionedAndEvalReadsItAsWritten) {
  ASSERT_EQ(RunCli(Baseline("base", dir_ + "/tasks"), dir_ + "/run.log"), 0) << Log(dir_ + "/run.log");
  Json meta = ReadJson(dir_ + "/base/run.json");
  EXPECT_EQ(meta["format"], "lakeqa-run/1") << meta.dump(2);
  ASSERT_TRUE(meta["tasks"].is_array()) << meta.dump(2);
  ASSERT_EQ(meta["tasks"].size(), 1u);
  EXPECT_EQ(meta["tasks"][0], std::filesystem::absolute(dir_ + "/tasks").lexically_normal().string());
  EXPECT_EQ(meta["task_count"], 4);
  EXPECT_EQ(meta["status"], "complete");
  EXPECT_EQ(meta["lake"]["uri"], meta["index"]["lake"]) << meta.dump(2);
  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/base", "--json"}, dir_ + "/eval.log"), 0)
      << Log(dir_ + "/eval.log");
  Json report = ReadJson(dir_ + "/base/report.json");
  EXPECT_EQ(report["tasks"], 4) << report.dump();
  EXPECT_TRUE(report["not_run"].empty());
}

// Issue 14, defect 11: resuming with a subset keeps the union of the tasks the folder holds and the history
// of invocations; `lakeqa eval --run` then scores every task the folder holds.
TEST_F(CliHarness, ResumingWithASubsetKeepsTheUnionAndTheHistory) {
  std::string t1 = dir_ + "/tasks/k-1-d-2/task_1.json", t3 = dir_ + "/tasks/k-1-d-2/task_3.json";
  ASSERT_EQ(RunCli(Baseline("base", t1), dir_ + "/run1.log"), 0) << Log(dir_ + "/run1.log");
  ASSERT_EQ(RunCli(Baseline("base", t3), dir_ + "/run2.log"), 0) << Log(dir_ + "/run2.log");
  Json meta = ReadJson(dir_ + "/base/run.json");
  EXPECT_EQ(meta["tasks"], (Json{t1, t3})) << meta.dump(2);
  EXPECT_EQ(meta["task_count"], 2);
  ASSERT_TRUE(meta["invocations"].is_array()) << meta.dump(2);
  ASSERT_EQ(meta["invocations"].size(), 2u);
  EXPECT_EQ(meta["invocations"][0]["tasks"], Json::array({t1}));
  EXPECT_EQ(meta["invocations"][1]["tasks"], Json::array({t3}));
  EXPECT_EQ(meta["invocations"][1]["summary"]["ran"], 1);
  // The whole folder later: the union is the folder, which holds both files.
  ASSERT_EQ(RunCli(Baseline("base", dir_ + "/tasks"), dir_ + "/run3.log"), 0) << Log(dir_ + "/run3.log");
  meta = ReadJson(dir_ + "/base/run.json");
  EXPECT_EQ(meta["tasks"], Json::array({dir_ + "/tasks"}));
  EXPECT_EQ(meta["invocations"].size(), 3u);
  EXPECT_EQ(meta["invocations"][2]["summary"]["skipped"], 2);
  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/base"}, dir_ + "/eval.log"), 0) << Log(dir_ + "/eval.log");
  EXPECT_EQ(ReadJson(dir_ + "/base/report.json")["tasks"], 4);
}

// Issue 14, defect 4: a lake that does not exist is refused at start-up by run and serve.
TEST_F(CliHarness, AMissingLakeIsRefused) {
  auto args = Baseline("nolake", dir_ + "/tasks");
  args[6] = dir_ + "/no/such/lake";
  EXPECT_EQ(RunCli(args, dir_ + "/run.log"), 3) << Log(dir_ + "/run.log");
  EXPECT_NE(Log(dir_ + "/run.log").find(dir_ + "/no/such/lake"), std::string::npos) << Log(dir_ + "/run.log");
  EXPECT_TRUE(Lines(dir_ + "/nolake/predictions.jsonl").empty());
  EXPECT_EQ(RunCliWithin({"serve", "--index", dir_ + "/idx", "--lake", dir_ + "/no/such/lake", "--listen",
                          "127.0.0.1:0"},
                         dir_ + "/serve.log", 30),
            3)
      << Log(dir_ + "/serve.log");
}

// Issue 14, defect 4: a lake other than the index's is refused unless --force, which run.json records; a
// dataset the catalog names but the lake lacks is not_found, not an empty listing.
TEST_F(CliHarness, ADifferentLakeIsRefusedUnlessForced) {
  // Another lake: none of the index's datasets is in it.
  WriteText(dir_ + "/other-lake/wikipedia/Shelbyville/content.txt", "Shelbyville was founded in 1796.");
  auto args = Baseline("other", dir_ + "/tasks");
  args[6] = dir_ + "/other-lake";
  EXPECT_EQ(RunCli(args, dir_ + "/run.log"), 2) << Log(dir_ + "/run.log");
  std::string log = Log(dir_ + "/run.log");
  EXPECT_NE(log.find("--force"), std::string::npos) << log;
  EXPECT_NE(log.find(dir_ + "/lake"), std::string::npos) << log;
  EXPECT_EQ(RunCliWithin({"serve", "--index", dir_ + "/idx", "--lake", dir_ + "/other-lake", "--listen",
                          "127.0.0.1:0"},
                         dir_ + "/serve.log", 30),
            2)
      << Log(dir_ + "/serve.log");

  args.push_back("--force");
  ASSERT_EQ(RunCli(args, dir_ + "/forced.log"), 0) << Log(dir_ + "/forced.log");
  Json meta = ReadJson(dir_ + "/other/run.json");
  ASSERT_TRUE(meta["warnings"].is_array()) << meta.dump(2);
  ASSERT_EQ(meta["warnings"].size(), 1u) << meta.dump(2);
  EXPECT_NE(meta["warnings"][0].get<std::string>().find("--force"), std::string::npos) << meta.dump(2);
  EXPECT_EQ(meta["lake"]["forced"], true);
  // The baseline lists the files of its top search hit, which this lake does not hold.
  bool listed = false;
  for (const Json& e : Lines(dir_ + "/other/traces/C1.jsonl")) {
    if (e.value("tool", "") != "list_files") continue;
    listed = true;
    // list_files answers per dataset (docs/tools.md): the dataset's entry is not_found, never an empty list.
    Json result = Json::parse(e["result"].get<std::string>());
    EXPECT_EQ(result["by_dataset"]["wikipedia/Springfield"]["error"]["code"], "not_found") << e.dump();
    EXPECT_EQ(result["files"].size(), 0u) << e.dump();
  }
  EXPECT_TRUE(listed);
}

// Issue 30, item 8: one count of tool calls. The model searches, calls a tool it was not given, then
// answers: predictions.jsonl, report.json and report.html all say 2 (submit_answer is not a tool call).
TEST_F(CliHarness, PredictionsAndReportsCountToolCallsAlike) {
  ModelServer srv([](const std::string&, const Json& body) {
    if (!body.contains("tools")) return OpenAiTextStream("OK");
    int turn = 0;
    for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
    if (turn == 0) return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c0");
    if (turn == 1) return OpenAiToolCallStream("no_such_tool", Json::object(), "c1");
    return OpenAiToolCallStream("submit_answer", {{"answer", "The answer is [1,853]"}}, "c2");
  });
  auto args = Llm("calls", srv.Url(), "openai:gpt-5.2");
  args[2] = dir_ + "/tasks/k-1-d-2/task_1.json";
  ASSERT_EQ(RunCli(args, dir_ + "/calls.log"), 0) << Log(dir_ + "/calls.log");
  auto preds = Lines(dir_ + "/calls/predictions.jsonl");
  ASSERT_EQ(preds.size(), 1u);
  EXPECT_EQ(preds[0]["tool_calls"], 2) << preds[0].dump();
  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/calls"}, dir_ + "/eval.log"), 0) << Log(dir_ + "/eval.log");
  Json report = ReadJson(dir_ + "/calls/report.json");
  EXPECT_EQ(report["per_task"][0]["tool_calls"], 2) << report["per_task"][0].dump();
  EXPECT_EQ(report["per_task"][0]["failed_tool_calls"], 1);
  EXPECT_EQ(report["per_task"][0]["cleaned_answer"], "1853");
  EXPECT_DOUBLE_EQ(report["tool_calls"]["mean"].get<double>(), 2.0);
  std::string html = Log(dir_ + "/calls/report.html");
  EXPECT_NE(html.find("— 2 tool calls —"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"scored\">1853</td>"), std::string::npos);
}

// Issue 30, item 10: a lake is identified by its content, not its path. A copy of the indexed lake at
// another path is the same lake (run.json says it moved; no --force, no warning), also for an index whose
// manifest predates the fingerprint (it is computed from the catalog). A lake that really differs is
// refused before anything is written: no empty cassette.jsonl.
TEST_F(CliHarness, ACopyOfTheLakeIsTheSameLakeAndARefusedRunLeavesNoCassette) {
  std::filesystem::copy(dir_ + "/lake", dir_ + "/copy", std::filesystem::copy_options::recursive);
  // The run's output goes beside the copy, not into it: a file more in the lake is another lake.
  auto args = Baseline("copy-run", dir_ + "/tasks");
  args[6] = dir_ + "/copy";
  ASSERT_EQ(RunCli(args, dir_ + "/copy.log"), 0) << Log(dir_ + "/copy.log");
  Json meta = ReadJson(dir_ + "/copy-run/run.json");
  EXPECT_EQ(meta["lake"]["moved"], true) << meta.dump(2);
  EXPECT_EQ(meta["lake"]["forced"], false) << meta.dump(2);
  EXPECT_TRUE(meta["warnings"].empty()) << meta.dump(2);
  EXPECT_EQ(Lines(dir_ + "/copy-run/predictions.jsonl").size(), 4u);

  // An index written before manifest.json recorded the fingerprint: the catalog's files give it.
  Json manifest = ReadJson(dir_ + "/idx/manifest.json");
  ASSERT_TRUE(manifest.contains("lake_content_sha256")) << manifest.dump(2);
  manifest.erase("lake_content_sha256");
  WriteText(dir_ + "/idx/manifest.json", manifest.dump(2));
  args[8] = dir_ + "/copy-old";
  ASSERT_EQ(RunCli(args, dir_ + "/old.log"), 0) << Log(dir_ + "/old.log");
  EXPECT_EQ(ReadJson(dir_ + "/copy-old/run.json")["lake"]["moved"], true);

  // One byte more in one file: not the lake the index was built from.
  WriteText(dir_ + "/copy/wikipedia/Springfield/content.txt", "Springfield was founded in 1821!!");
  auto llm = Llm("refused", "http://127.0.0.1:1", "openai:gpt-5.2");
  llm[6] = dir_ + "/copy";
  EXPECT_EQ(RunCli(llm, dir_ + "/refused.log"), 2) << Log(dir_ + "/refused.log");
  EXPECT_NE(Log(dir_ + "/refused.log").find("--force"), std::string::npos) << Log(dir_ + "/refused.log");
  EXPECT_FALSE(PathExists(dir_ + "/refused/cassette.jsonl"));
  EXPECT_FALSE(PathExists(dir_ + "/refused")) << "a refused run writes nothing";
}

// Issue 14, defect 5: a dead endpoint stops the run at its preflight, before any task, with the network
// error's exit code; a refused key likewise (one request in all); --max-retries bounds the retries.
TEST_F(CliHarness, ADeadOrRefusingEndpointStopsTheRunAtThePreflight) {
  auto dead = Llm("dead", "http://127.0.0.1:1", "openai:gpt-5.2");
  dead.insert(dead.end(), {"--max-retries", "0"});
  EXPECT_EQ(RunCli(dead, dir_ + "/dead.log"), 8) << Log(dir_ + "/dead.log");
  EXPECT_NE(Log(dir_ + "/dead.log").find("preflight"), std::string::npos) << Log(dir_ + "/dead.log");
  EXPECT_TRUE(Lines(dir_ + "/dead/predictions.jsonl").empty());
  Json meta = ReadJson(dir_ + "/dead/run.json");
  EXPECT_EQ(meta["status"], "failed") << meta.dump(2);
  EXPECT_EQ(meta["invocations"][0]["preflight"]["ok"], false) << meta.dump(2);

  ModelServer srv([](const std::string&, const Json&) {
    return JsonReply(401,
                     {{"error", {{"message", "Incorrect API key provided"}, {"code", "invalid_api_key"}}}});
  });
  EXPECT_EQ(RunCli(Llm("denied", srv.Url(), "openai:gpt-5.2"), dir_ + "/denied.log"), 5)
      << Log(dir_ + "/denied.log");
  EXPECT_EQ(srv.calls(), 1);
  EXPECT_NE(Log(dir_ + "/denied.log").find("Incorrect API key"), std::string::npos)
      << Log(dir_ + "/denied.log");
}

// Issue 14, defect 5: failed tasks make the run exit with partial_failure's code (12); --max-failures N
// stops launching tasks after N failures.
TEST_F(CliHarness, FailedTasksExitNonZeroAndMaxFailuresStopsTheRun) {
  // Preflight fine, every task's request refused (400 is final: no retries).
  ModelServer srv([](const std::string&, const Json& body) {
    if (!body.contains("tools")) return OpenAiTextStream("OK");
    return JsonReply(
        400, {{"error", {{"message", "tools are not supported"}, {"type", "invalid_request_error"}}}});
  });
  auto args = Llm("fail", srv.Url(), "openai:gpt-5.2");
  args.insert(args.end(), {"--max-failures", "1", "--json"});
  EXPECT_EQ(RunCli(args, dir_ + "/fail.log"), 12) << Log(dir_ + "/fail.log");
  EXPECT_EQ(Lines(dir_ + "/fail/predictions.jsonl").size(), 1u);
  Json meta = ReadJson(dir_ + "/fail/run.json");
  EXPECT_EQ(meta["status"], "stopped") << meta.dump(2);
  EXPECT_EQ(meta["invocations"][0]["summary"]["stopped"], "max_failures") << meta.dump(2);
  EXPECT_EQ(meta["invocations"][0]["summary"]["not_started"], 3) << meta.dump(2);

  // A cassette that has no answer for --offline: every task fails, and the run says so in its exit code.
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/empty.jsonl", "").ok());
  auto offline = Base("offline");
  offline.insert(offline.end(), {"--agent", "llm", "--model", "openai:gpt-5.2", "--offline", "--cassette",
                                 dir_ + "/empty.jsonl"});
  EXPECT_EQ(RunCli(offline, dir_ + "/offline.log"), 12) << Log(dir_ + "/offline.log");
  EXPECT_NE(Log(dir_ + "/offline.log").find("4 failed"), std::string::npos) << Log(dir_ + "/offline.log");
}

// Issue 14, defect 6: an unpriced model's cost is unknown in predictions, in the CLI, in report.json and in
// report.html, and is left out of sums.
TEST_F(CliHarness, AnUnpricedModelsCostIsUnknownEverywhere) {
  ModelServer srv([](const std::string&, const Json& body) { return Answering(body); });
  ASSERT_EQ(RunCli(Llm("unpriced", srv.Url(), "openai:no-such-price"), dir_ + "/run.log"), 0)
      << Log(dir_ + "/run.log");
  for (const Json& p : Lines(dir_ + "/unpriced/predictions.jsonl"))
    EXPECT_TRUE(p["cost_usd"].is_null()) << p.dump();
  std::string log = Log(dir_ + "/run.log");
  EXPECT_NE(log.find("cost unknown"), std::string::npos) << log;
  EXPECT_EQ(log.find("$0.0000"), std::string::npos) << log;

  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/unpriced"}, dir_ + "/eval.log"), 0) << Log(dir_ + "/eval.log");
  std::string eval_log = Log(dir_ + "/eval.log");
  EXPECT_NE(eval_log.find("cost unknown"), std::string::npos) << eval_log;
  EXPECT_EQ(eval_log.find("$0.0000"), std::string::npos) << eval_log;
  Json report = ReadJson(dir_ + "/unpriced/report.json");
  EXPECT_TRUE(report["cost_usd"].is_null()) << report["cost_usd"];
  EXPECT_EQ(report["cost"]["n"], 0) << report["cost"];
  EXPECT_EQ(report["cost"]["unknown"], 4) << report["cost"];
  EXPECT_TRUE(report["per_task"][0]["cost_usd"].is_null());
  std::string html = Log(dir_ + "/unpriced/report.html");
  EXPECT_EQ(html.find("$0.0000"), std::string::npos);
  EXPECT_NE(html.find(">unknown<"), std::string::npos);
}

}  // namespace
}  // namespace lakeqa::agent
