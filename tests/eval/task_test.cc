#include <gtest/gtest.h>

#include <filesystem>

#include "eval/test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/eval/validate.h"

namespace lakeqa::eval {
namespace {

// A small valid task: node 3 combines nodes 1 and 2 (hop 1) → k = 2, d = 2.
Json ValidTask() {
  return Json::parse(R"({
    "question_id": "T1",
    "question": "What is the largest city in the county both lists share?",
    "answer": "Montpelier",
    "nodes": {
      "1": {"source": "datagov/a/files/rows.txt", "fact": "f1", "subquestion": "Which counties?", "answer": ["X", "Y"]},
      "2": {"source": "datagov/b/files/rows.txt", "fact": "f2", "subquestion": "Which counties?", "answer": ["Y"]},
      "3": {"source": "wikipedia/Y/content.txt", "fact": "f3",
            "subquestion": "What is the largest city in <intersection of node_1, node_2>?", "answer": "Montpelier"}
    },
    "datasets_used": ["datagov/a/files/rows.txt", "datagov/a/signed-metadata.txt", "datagov/b/files/rows.txt",
                      "wikipedia/Y/content.txt"],
    "reasoning_hops": [
      {"hop": 1, "node_ids": [1, 2], "reasoning": ["intersect"], "answer": "Y"},
      {"hop": 2, "node_ids": [3], "reasoning": "look up", "answer": "Montpelier"}
    ]
  })");
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-eval");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string Write(const std::string& rel, const std::string& text) {
    std::string path = dir_ + "/" + rel;
    EXPECT_TRUE(MakeDirs(std::filesystem::path(path).parent_path().string()).ok());
    EXPECT_TRUE(WriteFileAtomic(path, text).ok());
    return path;
  }
  // Loads one document and returns the single error message (or "" when it loaded).
  std::string LoadError(const std::string& text) {
    LoadResult r = ParseTaskDocument(text, "x/task.json");
    return r.errors.empty() ? "" : r.errors[0].status.message();
  }
  std::string dir_;
};

TEST_F(TempDir, LoadsAValidTask) {
  std::string path = Write("k-2-d-2/task_1.json", ValidTask().dump(2));
  LoadResult r = LoadTasks({dir_});
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].status.message();
  ASSERT_EQ(r.tasks.size(), 1u);
  const Task& t = r.tasks[0];
  EXPECT_EQ(t.id, "T1");
  EXPECT_EQ(t.file, path);
  EXPECT_EQ(t.nodes.size(), 3u);
  EXPECT_EQ(t.nodes[2].id, "3");
  EXPECT_EQ(t.hops[0].node_ids, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(t.hops[1].reasoning, (std::vector<std::string>{"look up"}));
  EXPECT_EQ(t.folder_k, 2);
  EXPECT_EQ(t.folder_d, 2);
  EXPECT_EQ(t.AnswerText(), "Montpelier");
  EXPECT_EQ(GoldDatasets(t), (std::vector<std::string>{"datagov/a", "datagov/b", "wikipedia/Y"}));
  ValidationReport v = Validate(r);
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.warnings, 0u) << v.issues[0].Format();
  EXPECT_EQ(v.both_match, 1u);
}

TEST(DatasetPathTest, SplitsNamespaceAndId) {
  auto r = ParseDatasetPath("datagov/fy-2023/files/rows.txt");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Key(), "datagov/fy-2023");
  EXPECT_EQ(ParseDatasetPath("wikipedia/Bear_Lake_County,_Idaho")->Key(),
            "wikipedia/Bear_Lake_County,_Idaho");
  EXPECT_FALSE(ParseDatasetPath("datagov").ok());
  EXPECT_FALSE(ParseDatasetPath("datagov//x").ok());
  EXPECT_FALSE(ParseDatasetPath("/abs/path").ok());
}

TEST_F(TempDir, MalformedDocumentsGiveClearErrors) {
  EXPECT_NE(LoadError("").find("x/task.json: empty file"), std::string::npos);
  EXPECT_NE(LoadError("  \n").find("empty file"), std::string::npos);
  std::string e = LoadError("{\n  \"question_id\": \"a\",\n  oops\n}");
  EXPECT_NE(e.find("x/task.json:3:3: invalid JSON"), std::string::npos) << e;
  EXPECT_NE(LoadError("42").find("expected a task object"), std::string::npos);
  EXPECT_NE(LoadError("[1]").find("x/task.json[0]: a LakeQA task must be a JSON object, got number"),
            std::string::npos);

  Json j = ValidTask();
  j.erase("answer");
  e = LoadError(j.dump());
  EXPECT_NE(e.find("x/task.json: missing field \"answer\""), std::string::npos) << e;

  j = ValidTask();
  j["nodes"] = Json::array();
  EXPECT_NE(LoadError(j.dump()).find("field \"nodes\" must be an object keyed by node id, got array"),
            std::string::npos);

  j = ValidTask();
  j["question"] = 7;
  j["datasets_used"] = "datagov/a";
  j["nodes"]["2"]["source"] = Json::array();
  j["reasoning_hops"][0]["node_ids"] = {1, 2.5};
  e = LoadError(j.dump());
  // Every problem of the task is listed, not just the first.
  EXPECT_NE(e.find("field \"question\" must be a string, got number"), std::string::npos) << e;
  EXPECT_NE(e.find("field \"datasets_used\" must be an array of lake paths, got string"), std::string::npos)
      << e;
  EXPECT_NE(e.find("node \"2\": field \"source\" must be a string, got array"), std::string::npos) << e;
  EXPECT_NE(e.find("reasoning_hops[0]: \"node_ids\" entries must be integers or strings, got 2.5"),
            std::string::npos)
      << e;
}

TEST_F(TempDir, DuplicateNodeIdsAreRejected) {
  std::string text = ValidTask().dump(2);
  // Turn node "2"'s key into a second "1".
  size_t p = text.find("\"2\": {");
  ASSERT_NE(p, std::string::npos);
  text.replace(p, 3, "\"1\"");
  std::string e = LoadError(text);
  EXPECT_NE(e.find("x/task.json: duplicate key \"1\" in \"nodes\""), std::string::npos) << e;
}

TEST_F(TempDir, JsonlReportsTheBadLineAndLoadsTheRest) {
  Json a = ValidTask(), b = ValidTask();
  b["question_id"] = "T2";
  std::string path =
      Write("tasks.jsonl", a.dump() + "\n\n{\"question_id\": \"T3\", \n" + b.dump() + "\n[1,2]\n");
  LoadResult r = LoadTasks({path});
  ASSERT_EQ(r.tasks.size(), 2u);
  EXPECT_EQ(r.tasks[0].line, 1u);
  EXPECT_EQ(r.tasks[1].line, 4u);
  EXPECT_EQ(r.tasks[1].Where(), path + ":4");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].line, 3u);
  EXPECT_NE(r.errors[0].status.message().find(path + ":3:"), std::string::npos)
      << r.errors[0].status.message();
  EXPECT_EQ(r.errors[1].line, 5u);
  EXPECT_NE(r.errors[1].status.message().find(path + ":5: a JSONL line must hold one task object"),
            std::string::npos);
}

TEST_F(TempDir, MissingPathIsReported) {
  LoadResult r = LoadTasks({dir_ + "/nope"});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].status.code(), ErrorCode::kNotFound);
}

TEST_F(TempDir, FolderWithoutTaskFilesIsNotFound) {
  Write("notes/readme.txt", "no tasks here");
  LoadResult r = LoadTasks({dir_ + "/notes"});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].status.code(), ErrorCode::kNotFound);
  EXPECT_NE(r.errors[0].status.message().find("no *.json or *.jsonl task files"), std::string::npos);
}

TEST_F(TempDir, NaturalOrderInFolders) {
  for (int i : {10, 2, 1}) {
    Json t = ValidTask();
    t["question_id"] = "T" + std::to_string(i);
    Write("k-2-d-2/task_" + std::to_string(i) + ".json", t.dump());
  }
  LoadResult r = LoadTasks({dir_});
  ASSERT_EQ(r.tasks.size(), 3u);
  EXPECT_EQ(r.tasks[0].id, "T1");
  EXPECT_EQ(r.tasks[1].id, "T2");
  EXPECT_EQ(r.tasks[2].id, "T10");
}

}  // namespace
}  // namespace lakeqa::eval
