// agent::PrepareAgentRun and AgentRun::Run, the library side of `lakeqa run`, called directly: a small lake
// indexed by graph::BuildIndex, the oracle run over its tasks and scored by eval::EvaluateRun, and the
// refusals that must leave no run folder behind.
#include "lakeqa/agent/run_agents.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/evaluate_run.h"
#include "lakeqa/graph/index_pipeline.h"
#include "lakeqa/lake/local_store.h"

#include "agent/cli_fixture.h"

namespace lakeqa::agent::testing {
namespace {

class RunAgentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = *MakeTempDir("run-agents");
    // The code sandbox runs as an unprivileged user that must be able to reach the run folder.
    std::filesystem::permissions(dir_,
                                 std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    WriteText(dir_ + "/lake/datagov/city-parks-inventory/files/rows.txt", "name,acres\nA,10\nB,32\nC,5\n");
    WriteText(dir_ + "/lake/datagov/city-parks-inventory/metadata.json",
              "{\"title\": \"City Parks Inventory\"}");
    WriteText(dir_ + "/lake/wikipedia/Springfield/content.txt", "Springfield was founded in 1821.");
    const std::string fact =
        "import csv\nrows = list(csv.DictReader(open(local_path)))\nanswer = str(max(int(r['acres']) for r "
        "in rows))\n";
    for (int i = 1; i <= 2; ++i)
      WriteText(dir_ + "/tasks/k-1-d-2/task_" + std::to_string(i) + ".json",
                Task("C" + std::to_string(i), fact).dump());
    lake::LocalStore store(dir_ + "/lake");
    graph::IndexBuildOptions bo;
    bo.index_dir = dir_ + "/idx";
    bo.progress = false;
    auto built = graph::BuildIndex(store, bo);
    ASSERT_TRUE(built.ok()) << built.status().ToString();
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  AgentRunOptions Options(const std::string& agent) const {
    AgentRunOptions o;
    o.tasks = {dir_ + "/tasks"};
    o.index = dir_ + "/idx";
    o.lake = dir_ + "/lake";
    o.agent = agent;
    o.out = dir_ + "/run-" + agent;
    o.progress = false;
    return o;
  }
  std::string dir_;
};

TEST_F(RunAgentsTest, TheOracleRunsEveryTaskAndItsRunScoresFullExactMatch) {
  AgentRunOptions o = Options("oracle");
  o.parallel = 2;
  auto prepared = PrepareAgentRun(o);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  std::atomic<bool> cancel{false};
  auto r = (*prepared)->Run(cancel);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->failed.empty()) << r->failed;
  EXPECT_EQ(r->summary.tasks, 2u);
  EXPECT_EQ(r->summary.ran, 2u);
  EXPECT_EQ(r->summary.answered, 2u);
  EXPECT_FALSE(r->summary.interrupted);
  Json j = r->ToJson(o.out);
  EXPECT_EQ(j["out"], o.out);
  EXPECT_EQ(j["not_run"], Json::array());
  Json meta = Json::parse(*ReadFile(o.out + "/run.json"));
  EXPECT_EQ(meta["agent"], "oracle");
  EXPECT_EQ(meta["config"]["parallel"], 2);
  EXPECT_EQ(meta["config"]["cassette"], Json());  // only the llm agent records model calls
  EXPECT_EQ(meta["config"]["prompt"]["profile"], "lakeqa");

  eval::EvaluateRunOptions eo;
  eo.run_dir = o.out;  // the tasks come from run.json
  auto score = eval::EvaluateRun(eo);
  ASSERT_TRUE(score.ok()) << score.status().ToString();
  EXPECT_EQ(score->tasks.size(), 2u);
  EXPECT_EQ(score->em, 1.0);
  EXPECT_TRUE(PathExists(o.out + "/report.json"));
  EXPECT_TRUE(PathExists(o.out + "/report.html"));
}

// Every refusal before the tools open leaves no run folder; replay's missing traces are found after (as the
// CLI always did), so only its message is checked.
TEST_F(RunAgentsTest, RefusedOptionsNameTheFlagAndLeaveNoRunFolder) {
  struct Case {
    std::string what;
    std::function<void(AgentRunOptions&)> change;
    std::string message;
    bool leaves_nothing = true;
  };
  const std::vector<Case> cases = {
      {"no turns", [](AgentRunOptions& o) { o.max_turns = 0; }, "--max-turns"},
      {"no epochs", [](AgentRunOptions& o) { o.epochs = 0; }, "--epochs"},
      {"an unknown agent", [](AgentRunOptions& o) { o.agent = "wizard"; }, "expected llm, oracle"},
      {"llm without a model", [](AgentRunOptions& o) { o.agent = "llm"; }, "--model"},
      {"replay without traces", [](AgentRunOptions& o) { o.agent = "replay"; }, "--traces", false},
      {"an ablation of the oracle", [](AgentRunOptions& o) { o.ablate = {"search=ideal"}; },
       "--agent llm only"},
      {"a bad result view", [](AgentRunOptions& o) { o.result_view = "tiny"; }, "--result-view"},
      {"no tasks", [&](AgentRunOptions& o) { o.tasks = {dir_ + "/nothing-here"}; }, "no task"},
      {"a missing lake", [&](AgentRunOptions& o) { o.lake = dir_ + "/no-lake"; }, "no-lake"},
  };
  for (const Case& c : cases) {
    AgentRunOptions o = Options("oracle");
    o.out = dir_ + "/refused-" + std::to_string(&c - cases.data());
    c.change(o);
    auto prepared = PrepareAgentRun(o);
    ASSERT_FALSE(prepared.ok()) << c.what;
    EXPECT_NE(prepared.status().message().find(c.message), std::string::npos)
        << c.what << ": " << prepared.status().ToString();
    if (c.leaves_nothing) {
      EXPECT_FALSE(PathExists(o.out)) << c.what;
    }
  }
}

TEST_F(RunAgentsTest, TaskFilesThatDoNotLoadAreNamedAndTheRestRun) {
  WriteText(dir_ + "/tasks/k-1-d-2/task_bad.json", "{not json");
  AgentRunOptions o = Options("baseline");
  std::vector<std::string> notes;
  o.on_note = [&](const std::string& line) { notes.push_back(line); };
  auto prepared = PrepareAgentRun(o);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes[0].rfind("skipped: ", 0), 0u) << notes[0];
  EXPECT_NE(notes[0].find("task_bad.json"), std::string::npos) << notes[0];
  std::atomic<bool> cancel{false};
  auto r = (*prepared)->Run(cancel);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->summary.tasks, 2u);
}

TEST_F(RunAgentsTest, ACancelledRunStartsNoTaskAndSaysSo) {
  auto prepared = PrepareAgentRun(Options("baseline"));
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  std::atomic<bool> cancel{true};
  auto r = (*prepared)->Run(cancel);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->summary.interrupted);
  EXPECT_EQ(r->summary.ran, 0u);
}

TEST(CassetteOfEpoch, EpochOneKeepsThePathLaterEpochsGetTheirOwn) {
  EXPECT_EQ(CassetteOfEpoch("/r/cassette.jsonl", 1), "/r/cassette.jsonl");
  EXPECT_EQ(CassetteOfEpoch("/r/cassette.jsonl", 3), "/r/cassette.epoch-3.jsonl");
  EXPECT_EQ(CassetteOfEpoch("/r/calls", 2), "/r/calls.epoch-2.jsonl");
}

}  // namespace
}  // namespace lakeqa::agent::testing
