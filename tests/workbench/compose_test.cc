// The composer's model: structure (k, n, d), the exact LakeQA JSON, import round trips, export findings.
#include <gtest/gtest.h>

#include <filesystem>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/hops.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/workbench/compose.h"

namespace lakeqa::workbench {
namespace {

ProjectNode N(std::string key, std::string source, std::string fact, std::string sub, Json answer,
              int hop = 0) {
  ProjectNode n;
  n.key = std::move(key);
  n.source = std::move(source);
  n.fact = std::move(fact);
  n.subquestion = std::move(sub);
  n.answer = std::move(answer);
  n.hop = hop;
  return n;
}

ProjectTask Chain() {
  ProjectTask t;
  t.question_id = "WB1";
  t.question = "How many airports are in the capital of Georgia?";
  t.answer = "3";
  t.nodes = {
      N("1", "wikipedia/Georgia/content.txt", "answer = 'Atlanta'", "What is the capital of Georgia?",
        "Atlanta"),
      N("2", "datagov/airports/files/rows.txt",
        "import pandas as pd\nanswer = str((pd.read_csv(local_path)['city'] == '<node_1 answer>').sum())",
        "How many airports are in <node_1 answer>?", "3")};
  return t;
}

TEST(Structure, ChainOfTwoIsTwoHops) {
  Structure s = AnalyzeStructure(Chain());
  EXPECT_EQ(s.k, 2);
  EXPECT_EQ(s.n, 2u);
  EXPECT_EQ(s.d, 1);
  ASSERT_EQ(s.edges.size(), 1u);
  EXPECT_EQ(s.edges[0], std::make_pair(std::string("1"), std::string("2")));
  EXPECT_EQ(s.hop_of["1"], 1);
  EXPECT_EQ(s.hop_of["2"], 2);
  EXPECT_TRUE(s.errors.empty()) << s.errors[0];
  EXPECT_EQ(StructureFolder(s), "k-2-d-1");
}

TEST(Structure, ParallelFactsJoinedByAThirdNode) {
  ProjectTask t = Chain();
  t.nodes[1].fact = "answer = '3'";
  t.nodes[1].subquestion = "How many airports are in Atlanta?";
  t.nodes.push_back(N("3", "datagov/airports/files/rows.txt", "answer = '3'",
                      "Which is larger, <node_1 answer> or <node_2 answer>?", "3"));
  Structure s = AnalyzeStructure(t);
  // Nodes 1 and 2 use nothing: one hop of two nodes; node 3 uses both.
  EXPECT_EQ(s.k, 2);
  EXPECT_EQ(s.d, 2);
  EXPECT_EQ(s.n, 3u);
  EXPECT_EQ(s.hop_of["3"], 2);
}

TEST(Structure, UnknownReferenceAndCycleAreErrorsNamingTheNode) {
  ProjectTask t = Chain();
  t.nodes[0].subquestion = "What comes before <node_2 answer>?";
  Structure s = AnalyzeStructure(t);
  ASSERT_FALSE(s.errors.empty());
  bool cycle = false;
  for (const auto& e : s.errors) cycle |= e.find("cycle") != std::string::npos;
  EXPECT_TRUE(cycle);
  t = Chain();
  t.nodes[1].subquestion = "How many airports are in <node_7 answer>?";
  s = AnalyzeStructure(t);
  ASSERT_FALSE(s.errors.empty());
  EXPECT_NE(s.errors[0].find("node 2 uses <node_7 answer>"), std::string::npos) << s.errors[0];
}

TEST(Structure, ExplicitHopBeforeWhatItUsesIsAnError) {
  ProjectTask t = Chain();
  t.nodes[1].hop = 1;
  Structure s = AnalyzeStructure(t);
  ASSERT_FALSE(s.errors.empty());
  EXPECT_NE(s.errors[0].find("node 2 is in hop 1"), std::string::npos) << s.errors[0];
}

TEST(Export, LakeQaJsonFillsPlaceholdersInCodeOnly) {
  Json j = ToLakeQaJson(Chain());
  std::vector<std::string> keys;
  for (auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"question_id", "question", "answer", "nodes", "datasets_used",
                                            "reasoning_hops"}));
  const Json& n2 = j["nodes"]["2"];
  EXPECT_NE(n2["fact"].get<std::string>().find("== 'Atlanta'"), std::string::npos);
  EXPECT_EQ(n2["subquestion"], "How many airports are in <node_1 answer>?");
  EXPECT_EQ(j["datasets_used"],
            Json::array({"wikipedia/Georgia/content.txt", "datagov/airports/files/rows.txt"}));
  ASSERT_EQ(j["reasoning_hops"].size(), 2u);
  EXPECT_EQ(j["reasoning_hops"][1]["node_ids"], Json::array({2}));
  EXPECT_EQ(j["reasoning_hops"][1]["answer"], "3");
  EXPECT_EQ(j["reasoning_hops"][0]["answer"], "Atlanta");
  // eval reads it back with the same structure.
  auto t = eval::TaskFromJson(j, "exported");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  eval::HopStructure hs = eval::AnalyzeHops(*t);
  EXPECT_EQ(hs.k, 2);
  EXPECT_EQ(hs.d, 1);
}

// Every demo task file survives import → export unchanged (up to key order and formatting).
TEST(Export, DemoTasksRoundTripExactly) {
  std::string dir = lakeqa::build_paths::SourceDir() + "/demo/tasks";
  if (!PathExists(dir)) GTEST_SKIP() << dir << " is missing";
  eval::LoadResult loaded = eval::LoadTasks({dir});
  ASSERT_GT(loaded.tasks.size(), 20u);
  for (const eval::Task& task : loaded.tasks) {
    auto text = ReadFile(task.file);
    ASSERT_TRUE(text.ok());
    Json original = Json::parse(*text);
    Json exported = ToLakeQaJson(FromEvalTask(task));
    // Node ids in hops are numbers in the files, as the export writes them; compare as parsed values.
    EXPECT_EQ(nlohmann::json::parse(exported.dump()), nlohmann::json::parse(original.dump())) << task.file;
  }
}

// The released files vary in form (hops as "hop_id" or unnumbered, reasoning as a string, null or "question",
// extra node keys such as "limit"): whatever lakeqa reads of a task survives import and export.
TEST(Export, RealLakeQaTasksRoundTrip) {
  std::string dir = lakeqa::build_paths::SourceDir() + "/../shared/data/lakeqa-tasks/lakeqa_mini";
  if (!PathExists(dir)) dir = "/work/shared/data/lakeqa-tasks/lakeqa_mini";
  if (!PathExists(dir)) GTEST_SKIP() << "the LakeQA task data is absent";
  eval::LoadResult loaded = eval::LoadTasks({dir});
  ASSERT_FALSE(loaded.tasks.empty());
  for (const eval::Task& task : loaded.tasks) {
    Json exported = Json::parse(ToLakeQaJson(FromEvalTask(task)).dump());
    auto back = eval::TaskFromJson(exported, task.file);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(back->id, task.id) << task.file;
    EXPECT_EQ(back->question, task.question) << task.file;
    EXPECT_EQ(back->answer, task.answer) << task.file;
    EXPECT_EQ(back->datasets_used, task.datasets_used) << task.file;
    ASSERT_EQ(back->nodes.size(), task.nodes.size()) << task.file;
    for (size_t i = 0; i < task.nodes.size(); ++i) {
      const eval::Node &a = back->nodes[i], &b = task.nodes[i];
      EXPECT_TRUE(a.id == b.id && a.source == b.source && a.fact == b.fact &&
                  a.subquestion == b.subquestion && a.answer == b.answer)
          << task.file << " node " << b.id;
    }
    // A hop with no nodes of its own (it only combines earlier answers; one released task has one) is not
    // kept: hops are rebuilt from the nodes' hops, numbered without gaps (docs/ui.md, "Import").
    std::vector<eval::Hop> want;
    for (const eval::Hop& h : task.hops) {
      if (!h.node_ids.empty()) want.push_back(h);
    }
    bool renumbered = want.size() != task.hops.size();
    ASSERT_EQ(back->hops.size(), want.size()) << task.file;
    for (size_t i = 0; i < want.size(); ++i) {
      const eval::Hop &a = back->hops[i], &b = want[i];
      EXPECT_TRUE((renumbered || a.number == b.number) && a.node_ids == b.node_ids &&
                  a.reasoning == b.reasoning && a.answer == b.answer)
          << task.file << " hop " << b.number;
    }
  }
}

TEST(Findings, NameTheNodeAndTheField) {
  ProjectTask t = Chain();
  t.nodes[1].answer = "";
  t.nodes[0].source = "wikipedia";
  t.question = "";
  auto f = CheckTask(t, nullptr);
  ASSERT_TRUE(HasErrors(f));
  auto has = [&](const std::string& node, const std::string& field, const std::string& text) {
    for (const auto& x : f) {
      if (x.severity == "error" && x.node == node && x.field == field &&
          x.message.find(text) != std::string::npos)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(has("2", "answer", "node 2: the answer is empty"));
  EXPECT_TRUE(has("1", "source", "node 1: source"));
  EXPECT_TRUE(has("", "question", "the question is empty"));
}

TEST(Findings, SourceMissingFromTheCatalogAndStaleRuns) {
  ProjectTask t = Chain();
  auto f = CheckTask(t, [](const std::string& p) { return p != "datagov/airports/files/rows.txt"; });
  bool missing = false, unrun = false;
  for (const auto& x : f) {
    missing |= x.node == "2" && x.field == "source" &&
               x.message.find("not a file of the lake's catalog") != std::string::npos;
    unrun |= x.severity == "warning" && x.field == "fact" &&
             x.message.find("has not been run") != std::string::npos;
  }
  EXPECT_TRUE(missing);
  EXPECT_TRUE(unrun);
  // A recorded run of the same code with the same answer: no warning for that node.
  std::string code =
      "import pandas as pd\nanswer = str((pd.read_csv(local_path)['city'] == 'Atlanta').sum())";
  t.nodes[1].last_run = {{"ok", true}, {"answer", "3"}, {"code_hash", CodeHash(code)}};
  f = CheckTask(t, nullptr);
  for (const auto& x : f) EXPECT_FALSE(x.node == "2" && x.field == "fact") << x.message;
  t.nodes[1].fact += "\n";
  f = CheckTask(t, nullptr);
  bool stale = false;
  for (const auto& x : f)
    stale |= x.node == "2" && x.message.find("changed since its last run") != std::string::npos;
  EXPECT_TRUE(stale);
}

TEST(Dependencies, CodePlaceholdersOnlyInTheirExactShape) {
  ProjectNode n =
      N("3", "a/b/c", "x = a <node_1 answer> b\nif y <node_2 > 3: pass\nz = '<node 4 answer>'", "", Json());
  EXPECT_EQ(NodeDependencies(n), (std::vector<std::string>{"1", "4"}));
}

}  // namespace
}  // namespace lakeqa::workbench
