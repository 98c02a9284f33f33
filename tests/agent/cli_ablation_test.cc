// `lakeqa run --ablate ... --epochs K` end to end through the CLI, the real tools (index, lake, sandbox) and
// a scripted OpenAI-protocol model: bad input, the per-task refusal of tasks without the gold data an oracle
// needs, what the run folder records, epoch-aware resume, and `lakeqa eval` / `eval compare` on the result.
#include <mutex>

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
using testing::WriteText;

// search_keyword, then the answer; every first user message is kept.
struct Model {
  std::mutex mu;
  std::vector<std::string> first_messages;
  std::vector<std::vector<std::string>> tool_lists;
  ModelServer srv{[this](const std::string&, const Json& body) {
    if (!body.contains("tools")) return OpenAiTextStream("OK");  // the preflight
    int turn = 0;
    for (const Json& m : body["messages"]) turn += m["role"] == "assistant";
    if (turn == 0) {
      std::lock_guard<std::mutex> lock(mu);
      first_messages.push_back(body["messages"][1]["content"].get<std::string>());
      std::vector<std::string> names;
      for (const Json& t : body["tools"]) names.push_back(t["function"]["name"].get<std::string>());
      tool_lists.push_back(names);
      return OpenAiToolCallStream("search_keyword", {{"keywords", {"parks"}}}, "c0");
    }
    return OpenAiToolCallStream("submit_answer", {{"answer", "[1853]"}}, "c1");
  }};
  std::vector<std::string> Args() {
    return {"--agent", "llm", "--model", "openai:gpt-5.2", "--base-url", srv.Url() + "/v1"};
  }
};

class CliAblation : public CliRun {
 protected:
  std::vector<std::string> With(const std::string& out, std::vector<std::string> extra, Model& m) {
    auto args = Base(out);
    auto more = m.Args();
    args.insert(args.end(), more.begin(), more.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

TEST_F(CliAblation, BadInputIsRefusedWithTheValidSet) {
  Model m;
  EXPECT_EQ(RunCli(With("bad1", {"--ablate", "search=perfect"}, m), dir_ + "/bad1.log"), 2);
  std::string log = *ReadFile(dir_ + "/bad1.log");
  EXPECT_NE(log.find("unknown level \"perfect\""), std::string::npos) << log;
  EXPECT_NE(log.find("search=naive|standard|preloaded|ideal"), std::string::npos) << log;
  EXPECT_EQ(RunCli(With("bad2", {"--ablate", "profile=ideal"}, m), dir_ + "/bad2.log"), 2);
  EXPECT_NE(ReadFile(dir_ + "/bad2.log")->find("unknown stage \"profile\""), std::string::npos);
  EXPECT_EQ(RunCli(With("bad3", {"--epochs", "0"}, m), dir_ + "/bad3.log"), 2);
  EXPECT_NE(ReadFile(dir_ + "/bad3.log")->find("--epochs must be at least 1"), std::string::npos);
  auto oracle = Base("bad4");
  oracle.insert(oracle.end(), {"--agent", "oracle", "--ablate", "search=ideal", "--json"});
  EXPECT_EQ(RunCli(oracle, dir_ + "/bad4.log"), 2);
  Json err = Json::parse(*ReadFile(dir_ + "/bad4.log"));
  EXPECT_NE(err["error"]["message"].get<std::string>().find("--agent llm only"), std::string::npos);
  EXPECT_EQ(m.srv.calls(), 0);  // nothing reached the model
  EXPECT_FALSE(PathExists(dir_ + "/bad1/run.json"));
}

TEST_F(CliAblation, AnAblatedRunRecordsItselfAndRefusesToMix) {
  // A fifth task whose second node has no subquestion: decompose=ideal cannot run it; the rest run.
  Json extra = testing::Task("C5", "answer = '32'\n");
  extra["nodes"]["2"]["subquestion"] = "";
  WriteText(dir_ + "/extra/task_5.json", extra.dump());
  Model m;
  auto args = With("abl", {"--ablate", "search=preloaded", "--ablate", "decompose=ideal", "--json"}, m);
  args.insert(args.end(), {"--tasks", dir_ + "/extra"});
  int rc = RunCli(args, dir_ + "/abl.log");
  std::string log = *ReadFile(dir_ + "/abl.log");
  EXPECT_EQ(rc, 12) << log;  // partial failure: one task was not run
  EXPECT_NE(log.find("not run"), std::string::npos) << log;
  EXPECT_NE(log.find("C5: decompose=ideal needs every node's subquestion, and node 2 has none"),
            std::string::npos)
      << log;
  auto preds = Lines(dir_ + "/abl/predictions.jsonl");
  ASSERT_EQ(preds.size(), 4u) << log;
  for (const Json& p : preds) EXPECT_EQ(p["answer"], "1853");

  Json run = Json::parse(*ReadFile(dir_ + "/abl/run.json"));
  EXPECT_EQ(run["ablation"],
            (Json{{"search", "preloaded"}, {"decompose", "ideal"}, {"compute", "standard"}}));
  EXPECT_EQ(run["invocations"][0]["not_run"][0]["task_id"], "C5");
  // The trace: the setup download (by the ablation) and the model's turns, each naming the ablation.
  auto trace = Lines(dir_ + "/abl/traces/C1.jsonl");
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_EQ(trace[0]["tool"], "download");
  EXPECT_EQ(trace[0]["by"], "ablation");
  EXPECT_EQ(trace[0]["status"], "ok") << trace[0].dump();
  for (const Json& e : trace) EXPECT_EQ(e["ablation"], "search=preloaded,decompose=ideal");
  // The model was told where the real tools put the gold files, and the chain.
  ASSERT_EQ(m.first_messages.size(), 4u);
  for (const std::string& msg : m.first_messages) {
    EXPECT_NE(msg.find("/sandbox/datagov/city-parks-inventory/files/rows.txt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("- node 2: Springfield founded"), std::string::npos) << msg;
  }

  // Resuming the folder with another ablation is refused before any model call.
  int calls = m.srv.calls();
  EXPECT_EQ(RunCli(With("abl", {"--ablate", "search=ideal"}, m), dir_ + "/abl2.log"), 4);
  EXPECT_NE(ReadFile(dir_ + "/abl2.log")
                ->find("holds a run with the ablation search=preloaded,decompose=ideal, not "
                       "search=ideal"),
            std::string::npos)
      << *ReadFile(dir_ + "/abl2.log");
  EXPECT_EQ(RunCli(With("abl", {}, m), dir_ + "/abl3.log"), 4);
  EXPECT_EQ(m.srv.calls(), calls);
}

TEST_F(CliAblation, EpochsRunResumeAndScoreEveryEpoch) {
  Model m;
  ASSERT_EQ(RunCli(With("ep", {"--epochs", "2"}, m), dir_ + "/ep.log"), 0) << *ReadFile(dir_ + "/ep.log");
  auto preds = Lines(dir_ + "/ep/predictions.jsonl");
  ASSERT_EQ(preds.size(), 8u);
  std::map<int, int> per_epoch;
  for (const Json& p : preds) ++per_epoch[p["epoch"].get<int>()];
  EXPECT_EQ(per_epoch, (std::map<int, int>{{1, 4}, {2, 4}}));
  EXPECT_TRUE(PathExists(dir_ + "/ep/traces/C1.jsonl"));
  EXPECT_TRUE(PathExists(dir_ + "/ep/traces/epoch-2/C1.jsonl"));
  EXPECT_EQ(Lines(dir_ + "/ep/traces/epoch-2/C1.jsonl")[0]["epoch"], 2);
  EXPECT_TRUE(PathExists(dir_ + "/ep/cassette.epoch-2.jsonl"));
  EXPECT_EQ(Json::parse(*ReadFile(dir_ + "/ep/run.json"))["epochs"], 2);
  // 1 preflight + 4 tasks × 2 epochs × 2 turns; the cassette of epoch 1 did not answer epoch 2.
  EXPECT_EQ(m.srv.calls(), 17);

  // Resume is epoch-aware: nothing left to run. A third epoch runs only epoch 3.
  ASSERT_EQ(RunCli(With("ep", {"--epochs", "2"}, m), dir_ + "/ep2.log"), 0);
  EXPECT_EQ(m.srv.calls(), 17);
  ASSERT_EQ(RunCli(With("ep", {"--epochs", "3", "--json"}, m), dir_ + "/ep3.log"), 0)
      << *ReadFile(dir_ + "/ep3.log");
  Json sum = Json::parse(*ReadFile(dir_ + "/ep3.log"));
  EXPECT_EQ(sum["skipped"], 8);
  EXPECT_EQ(sum["ran"], 4);
  EXPECT_EQ(sum["epochs"], 3);
  EXPECT_EQ(Lines(dir_ + "/ep/predictions.jsonl").size(), 12u);

  // Scoring: every epoch answered 1853 on every task.
  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/ep", "--json"}, dir_ + "/eval.log"), 0)
      << *ReadFile(dir_ + "/eval.log");
  Json ev = Json::parse(*ReadFile(dir_ + "/eval.log"));
  EXPECT_EQ(ev["epochs"]["epochs"], 3);
  EXPECT_EQ(ev["epochs"]["complete_tasks"], 4);
  EXPECT_EQ(ev["epochs"]["pass_hat_k"]["3"], 1.0);
  EXPECT_EQ(ev["epochs"]["variance"], 0.0);
  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/ep"}, dir_ + "/eval-text.log"), 0);
  EXPECT_NE(ReadFile(dir_ + "/eval-text.log")->find("pass^k: k=1 100.00% k=2 100.00% k=3 100.00%"),
            std::string::npos)
      << *ReadFile(dir_ + "/eval-text.log");
  EXPECT_NE(ReadFile(dir_ + "/ep/report.html")->find("id=\"epochs\""), std::string::npos);

  // A search=naive variant beside it, compared in text, JSON and HTML.
  ASSERT_EQ(RunCli(With("naive", {"--ablate", "search=naive"}, m), dir_ + "/naive.log"), 0)
      << *ReadFile(dir_ + "/naive.log");
  ASSERT_EQ(RunCli({"eval", "--run", dir_ + "/naive"}, dir_ + "/eval2.log"), 0);
  ASSERT_EQ(RunCli({"eval", "compare", dir_ + "/ep", dir_ + "/naive", "--html", dir_ + "/cmp.html", "--json"},
                   dir_ + "/cmp.log"),
            0)
      << *ReadFile(dir_ + "/cmp.log");
  Json cmp = Json::parse(*ReadFile(dir_ + "/cmp.log"));
  EXPECT_EQ(cmp["ablation"]["rows"][0]["ablation"], "search=naive");
  EXPECT_EQ(cmp["ablation"]["rows"][0]["paired_tasks"], 4);
  EXPECT_EQ(cmp["html"], dir_ + "/cmp.html");
  EXPECT_NE(ReadFile(dir_ + "/cmp.html")->find("data-chart=\"ablation-gain\""), std::string::npos);
  // Under search=naive the model never had search_keyword (its call was an unknown-tool error).
  ASSERT_FALSE(m.tool_lists.empty());
  const auto& last = m.tool_lists.back();
  EXPECT_EQ(std::find(last.begin(), last.end(), "search_keyword"), last.end());
}

}  // namespace
}  // namespace lakeqa::agent
