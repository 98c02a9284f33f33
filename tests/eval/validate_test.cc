#include <gtest/gtest.h>

#include <filesystem>

#include "eval/test_util.h"
#include "lakeqa/eval/hops.h"
#include "lakeqa/eval/validate.h"

namespace lakeqa::eval {
namespace {

// A three-hop chain task: 1 → 2 → {3, 4}: k = 3, d = 2.
Task ChainTask() {
  Json j = Json::parse(R"({
    "question_id": "C1", "question": "q?", "answer": 5,
    "nodes": {
      "1": {"source": "wikipedia/A/content.txt", "subquestion": "Which county?", "answer": "A"},
      "2": {"source": "datagov/b/files/rows.txt", "subquestion": "Which city in <hop 1 answer>?", "answer": "B"},
      "3": {"source": "datagov/c/files/rows.txt", "subquestion": "Population of <node_2 answer>?", "answer": 2},
      "4": {"source": "datagov/d/files/rows.txt", "subquestion": "Schools in the city from node 2?", "answer": 3}
    },
    "datasets_used": ["wikipedia/A/content.txt", "datagov/b/files/rows.txt", "datagov/c/files/rows.txt",
                      "datagov/d/files/rows.txt"],
    "reasoning_hops": [
      {"hop": 1, "node_ids": [1]}, {"hop": 2, "node_ids": ["2"]}, {"hop_id": 3, "node_ids": [3, 4]}
    ]
  })");
  auto t = TaskFromJson(j, "chain.json");
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  Task task = std::move(*t);
  task.file = "chain.json";
  return task;
}

bool Has(const std::vector<std::string>& list, const std::string& needle) {
  for (const auto& s : list) {
    if (s.find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(ReferencesTest, FindsHopAndNodeReferences) {
  References r = FindReferences("Which of <hop 1 answer> and <node_3 answer: Pierre> and <hop_2 answer>?");
  EXPECT_EQ(r.hops, (std::vector<int>{1, 2}));
  EXPECT_EQ(r.nodes, (std::vector<std::string>{"3"}));
  r = FindReferences("<intersection of node_1, node_2, node_3> <intersection of node 4, 5>");
  EXPECT_EQ(r.nodes, (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  r = FindReferences("<intersection of node_1 and aggregation of nodes 2-4>");
  EXPECT_EQ(r.nodes, (std::vector<std::string>{"1", "2", "3", "4"}));
  r = FindReferences("no references from node 2 outside brackets, <unclosed node_7");
  EXPECT_TRUE(r.nodes.empty());
  r = FindReferences("<nodes 1-999999999>");  // a runaway range is not expanded
  EXPECT_EQ(r.nodes.size(), 2u);
}

TEST(HopsTest, ChainTask) {
  Task t = ChainTask();
  HopStructure h = AnalyzeHops(t);
  EXPECT_EQ(h.k, 3);
  EXPECT_EQ(h.d, 2);
  EXPECT_TRUE(h.errors.empty());
  EXPECT_TRUE(h.warnings.empty()) << h.warnings[0];
  EXPECT_EQ(h.depends_on[2], (std::vector<int>{2}));
  TaskCheck c = CheckTask(t);
  EXPECT_TRUE(c.errors.empty());
}

TEST(HopsTest, ForwardReferenceIsACycle) {
  Task t = ChainTask();
  t.nodes[0].subquestion = "Which county has <hop 3 answer>?";
  HopStructure h = AnalyzeHops(t);
  EXPECT_TRUE(Has(h.errors, "cyclic hop dependencies: node 1 in hop 1 refers to the answer of hop 3"))
      << h.errors.size();
  t = ChainTask();
  t.nodes[1].depends_on = {"node_3"};
  EXPECT_TRUE(Has(AnalyzeHops(t).errors, "node 2 in hop 2 refers to node 3 of the later hop 3"));
}

TEST(HopsTest, CycleWithinAHop) {
  Task t = ChainTask();
  t.nodes[2].subquestion = "x <node_4 answer>";
  t.nodes[3].subquestion = "y <node_3 answer>";
  HopStructure h = AnalyzeHops(t);
  EXPECT_TRUE(Has(h.errors, "cyclic node dependencies: node 3 → node 4 → node 3"))
      << (h.errors.empty() ? "" : h.errors[0]);
}

TEST(HopsTest, StructuralProblems) {
  Task t = ChainTask();
  t.hops[2].node_ids.push_back("9");
  t.hops[1].node_ids.push_back("1");
  t.hops.push_back(Hop{3, {}, {}, Json()});
  t.nodes[1].subquestion = "<node_8 answer> <hop 7 answer> <hop 2 answer>";
  HopStructure h = AnalyzeHops(t);
  EXPECT_TRUE(Has(h.errors, "hop 3 lists node 9, which is not in \"nodes\""));
  EXPECT_TRUE(Has(h.errors, "duplicate hop number 3"));
  EXPECT_TRUE(Has(h.errors, "node 2 refers to node 8, which does not exist"));
  EXPECT_TRUE(Has(h.errors, "node 2 refers to hop 7, which does not exist"));
  EXPECT_TRUE(Has(h.warnings, "node 1 is listed in hop 1 and again in hop 2"));
  EXPECT_TRUE(Has(h.warnings, "node 2 in hop 2 refers to the answer of its own hop"));
  EXPECT_TRUE(Has(h.warnings, "hop 3 lists no nodes"));
  t.hops.clear();
  EXPECT_TRUE(Has(AnalyzeHops(t).errors, "no reasoning hops"));
}

TEST(ValidateTest, SourceMustBeInDatasetsUsed) {
  Task t = ChainTask();
  t.datasets_used.erase(t.datasets_used.begin() + 2);
  t.datasets_used.push_back("datagov");
  TaskCheck c = CheckTask(t);
  EXPECT_TRUE(Has(c.errors, "node 3 source \"datagov/c/files/rows.txt\" is not listed in datasets_used"));
  EXPECT_TRUE(Has(c.errors, "datasets_used: \"datagov\" is not a lake path"));
}

TEST(ValidateTest, FolderMismatchIsAWarningWithTheReason) {
  Task t = ChainTask();
  t.folder_k = 4;
  t.folder_d = 2;
  TaskCheck c = CheckTask(t);
  EXPECT_TRUE(c.errors.empty());
  EXPECT_TRUE(
      Has(c.warnings, "does not match folder k-4-d-2: k = 3 (longest hop path) but the folder says 4"));
}

TEST(ValidateTest, DuplicateTaskIdsAcrossFiles) {
  LoadResult r;
  r.files = 2;
  r.tasks = {ChainTask(), ChainTask()};
  r.tasks[1].file = "other.json";
  r.errors.push_back(LoadError{"bad.json", 3, 7, ParseError("bad.json:3:7: invalid JSON: x")});
  ValidationReport v = Validate(r);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.tasks_valid, 1u);
  EXPECT_EQ(v.errors, 2u);
  ASSERT_EQ(v.issues.size(), 2u);
  EXPECT_EQ(v.issues[0].Format(), "bad.json:3:7: error: invalid JSON: x");
  EXPECT_EQ(v.issues[1].Format(), "other.json: error: [C1] duplicate task id (first in chain.json)");
  Json j = v.ToJson();
  EXPECT_EQ(j["errors"], 2);
  EXPECT_EQ(j["issues"][1]["task"], "C1");
}

// The released LakeQA task folders: 1007 files, one of them malformed (a merge conflict left in it).
TEST(RealTasksTest, LakeQaFull) {
  std::string root = testing::SharedData() + "/lakeqa-tasks/lakeqa-full";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "shared data not found: " << root;
  LoadResult r = LoadTasks({root});
  EXPECT_EQ(r.files, 1007u);
  EXPECT_EQ(r.tasks.size(), 1006u);
  ASSERT_EQ(r.errors.size(), 1u);
  const LoadError& e = r.errors[0];
  EXPECT_EQ(e.file, root + "/k-5-d-3/task_37.json");
  EXPECT_EQ(e.line, 64u);
  EXPECT_EQ(e.column, 1u);
  EXPECT_NE(e.status.message().find("task_37.json:64:1: invalid JSON"), std::string::npos)
      << e.status.message();

  ValidationReport v = Validate(r);
  // Four released tasks name a node in a hop that their "nodes" object does not have (checked by hand:
  // k-4-d-3/task_22.json has nodes 1-8 and hop 4 lists 7, 8, 9). Those are real defects of the data; every
  // other task is semantically valid.
  const std::vector<std::string> defective = {"k-4-d-3/task_22.json", "k-4-d-3/task_24.json",
                                              "k-4-d-3/task_25.json", "k-5-d-3/task_48.json"};
  size_t defects_seen = 0;
  for (const Issue& i : v.issues) {
    if (i.severity != Severity::kError || i.where.find("task_37") != std::string::npos) continue;
    bool known = false;
    for (const auto& d : defective) known = known || i.where.find(d) != std::string::npos;
    if (known && i.Format().find("which is not in \"nodes\"") != std::string::npos) ++defects_seen;
    else ADD_FAILURE() << i.Format();
  }
  EXPECT_EQ(defects_seen, defective.size());
  EXPECT_EQ(v.tasks_valid, 1006u - defective.size());
  EXPECT_EQ(v.errors, 1u + defective.size());  // the malformed file and the four defective tasks
  EXPECT_EQ(v.labelled, 1006u);
  EXPECT_EQ(v.k_match, 985u);
  EXPECT_EQ(v.d_match, 994u);
  EXPECT_EQ(v.both_match, 977u);
}

TEST(RealTasksTest, LakeQaMini) {
  std::string root = testing::SharedData() + "/lakeqa-tasks/lakeqa_mini";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "shared data not found: " << root;
  LoadResult r = LoadTasks({root});
  EXPECT_EQ(r.files, 135u);
  EXPECT_EQ(r.tasks.size(), 135u);
  EXPECT_TRUE(r.errors.empty());
  ValidationReport v = Validate(r);
  EXPECT_TRUE(v.ok()) << (v.issues.empty() ? "" : v.issues[0].Format());
  EXPECT_EQ(v.both_match, 120u);
}

}  // namespace
}  // namespace lakeqa::eval
