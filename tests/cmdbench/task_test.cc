// CMDBench question files as tasks (moved from tests/eval/task_test.cc with the format, which CMDBench
// registers): each kind's gold files, the Cypher names, the modalities, errors naming the item.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/test_util.h"
#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/eval/validate.h"

namespace lakeqa::cmdbench {
namespace {

using namespace eval;

TEST(CmdBenchTest, QuestionListMapsToTasks) {
  std::string text = R"([
    {"qid": "ex1", "question": "How many points?", "answer": "37",
     "provenance_table": {"table": "t_1_13619135_7", "column": "['date', 'team']"}},
    {"qid": "ex2", "question": "No source", "answer": "x"}
  ])";
  LoadResult r = ParseTaskDocument(text, "q.json");
  ASSERT_EQ(r.tasks.size(), 1u);
  const Task& t = r.tasks[0];
  EXPECT_EQ(t.format, kFormat);
  EXPECT_EQ(t.id, "ex1");
  EXPECT_EQ(t.AnswerText(), "37");
  EXPECT_EQ(GoldDatasets(t), (std::vector<std::string>{"cmdbench/t_1_13619135_7"}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].status.message().find("q.json[1]: no provenance_* record"), std::string::npos);
  EXPECT_TRUE(Validate(r).issues.size() == 1u);
}

// Every kind maps to the gold files of lakeqa's cmdbench lake (CmdbenchGoldFiles): a table to its CSV, a
// document question to each distinct page's content.txt, a graph question to the node file of each label and
// the relation file of each type its Cypher names; a source question has no node, its gold is a modality.
TEST(CmdBenchTest, EveryKindMapsToItsGoldFiles) {
  LoadResult r = ParseTaskDocument(R"([
    {"qid": "t", "question": "q", "answer": "37", "provenance_table": {"table": "t_1_2_3", "column": "['a', 'b']"}},
    {"qid": "g", "question": "q", "answer": "y", "provenance_graph": {"type": "path", "node_ids": [1],
     "cypher": "MATCH (p:Player {name: 'A (x:Fake)'})-[r:playsFor|draftedBy]->(t:Team) WHERE toFloat(p.height) > 2 RETURN t"}},
    {"qid": "d", "question": "q", "answer": "y", "provenance_doc": {"paragraphs": [
      {"wikipedia_title": "Washington Wizards", "paragraph_id": 3, "text": "They play in Washington.\n"},
      {"wikipedia_title": "Washington Wizards", "paragraph_id": 0, "text": "Washington Wizards\n"},
      {"wikipedia_title": "Capital One Arena", "paragraph_id": 1}]}},
    {"qid": "s", "question": "q", "answer": "y", "provenance_sources": ["graph", "doc"]}
  ])",
                                   "q.json");
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].status.ToString();
  ASSERT_EQ(r.tasks.size(), 4u);
  const Task& t = r.tasks[0];
  ASSERT_EQ(t.nodes.size(), 1u);
  EXPECT_EQ(t.nodes[0].source, "cmdbench/t_1_2_3/t_1_2_3.csv");
  EXPECT_EQ(t.nodes[0].fact, "columns a, b of t_1_2_3");
  EXPECT_EQ(GoldDatasets(t), (std::vector<std::string>{"cmdbench/t_1_2_3"}));
  ASSERT_TRUE(Of(t));
  EXPECT_EQ(Of(t)->kind, CmdbenchKind::kTable);

  const Task& g = r.tasks[1];
  EXPECT_EQ(GoldDatasets(g), (std::vector<std::string>{
                                 "cmdbench/graph_nodes_Player", "cmdbench/graph_nodes_Team",
                                 "cmdbench/graph_relation_playsFor", "cmdbench/graph_relation_draftedBy"}));
  EXPECT_EQ(g.nodes[0].source, "cmdbench/graph_nodes_Player/Player.csv");
  EXPECT_EQ(g.nodes[2].source, "cmdbench/graph_relation_playsFor/relation_playsFor.csv");
  EXPECT_EQ(Of(g)->graph_type, "path");

  const Task& d = r.tasks[2];
  EXPECT_EQ(GoldDatasets(d),
            (std::vector<std::string>{"wikipedia/Washington_Wizards", "wikipedia/Capital_One_Arena"}));
  EXPECT_EQ(d.nodes[0].source, "wikipedia/Washington_Wizards/content.txt");
  EXPECT_EQ(d.nodes[0].fact,
            "paragraph 3 of Washington Wizards: They play in Washington. paragraph 0 of Washington Wizards: "
            "Washington Wizards");
  EXPECT_EQ(d.nodes[1].fact, "paragraph 1 of Capital One Arena");

  const Task& s = r.tasks[3];
  EXPECT_TRUE(s.nodes.empty());
  EXPECT_TRUE(GoldDatasets(s).empty());
  EXPECT_EQ(Of(s)->sources, (std::vector<std::string>{"graph", "doc"}));
  // Validation accepts all four (a source question without nodes is not an error).
  EXPECT_TRUE(Validate(r).ok()) << Validate(r).issues[0].Format();
}

TEST(CmdBenchTest, CypherPatternNamesSkipLiteralsCallsAndLists) {
  CypherNames n = CypherPatternNames(
      "MATCH (a:Player:Person)<-[:coachedBy|:draftedBy]-(t), (c {name: \"x:y (z:W)\"}) // (q:Comment)\n"
      "WHERE a.name IN ['p:Q', 'r'] AND toLower(a.name) CONTAINS 'x' /* [s:Hidden] */ RETURN `t`, count(*)");
  EXPECT_EQ(n.labels, (std::vector<std::string>{"Player", "Person"}));
  EXPECT_EQ(n.types, (std::vector<std::string>{"coachedBy", "draftedBy"}));
  EXPECT_TRUE(CypherPatternNames("MATCH (n) RETURN n").labels.empty());
  EXPECT_EQ(CypherPatternNames("MATCH (`my v`:`Odd Label`) RETURN 1").labels,
            (std::vector<std::string>{"Odd Label"}));
}

TEST(CmdBenchTest, ModalityOfADatasetFollowsTheCmdbenchLakeLayout) {
  EXPECT_EQ(CmdbenchModalityOf("wikipedia/Brazil"), "doc");
  EXPECT_EQ(CmdbenchModalityOf("cmdbench/graph_nodes_Player"), "graph");
  EXPECT_EQ(CmdbenchModalityOf("cmdbench/graph_relation_playsFor"), "graph");
  EXPECT_EQ(CmdbenchModalityOf("cmdbench/t_1_2_3"), "table");
  EXPECT_EQ(CmdbenchModalityOf("datagov/graph_nodes_x"), "table");
}

// A malformed record of a known kind is a parse error naming the item; a record with no provenance too.
TEST(CmdBenchTest, MalformedProvenanceIsAParseErrorNamingTheItem) {
  LoadResult r = ParseTaskDocument(R"([
    {"qid": "g", "question": "q", "answer": "y", "provenance_graph": {"node_ids": [1]}},
    {"qid": "d", "question": "q", "answer": "y", "provenance_doc": {"paragraphs": [{"paragraph_id": 1}]}},
    {"qid": "s", "question": "q", "answer": "y", "provenance_sources": ["web"]},
    {"qid": "n", "question": "q", "answer": "y"}
  ])",
                                   "q.json");
  EXPECT_TRUE(r.tasks.empty());
  ASSERT_EQ(r.errors.size(), 4u);
  const char* want[] = {"q.json[0] (g): provenance_graph must be an object with a \"cypher\" string",
                        "q.json[1] (d): a paragraph without \"wikipedia_title\"",
                        "q.json[2] (s): provenance_sources holds 'web'", "q.json[3]: no provenance_* record"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r.errors[i].status.code(), ErrorCode::kParseError) << r.errors[i].status.ToString();
    EXPECT_NE(r.errors[i].status.message().find(want[i]), std::string::npos) << r.errors[i].status.message();
  }
}

TEST(CmdBenchTest, RealQuestionFile) {
  std::string path = eval::testing::SharedData() + "/cmdbench-nba/examples/q_table_examples.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "shared data not found: " << path;
  LoadResult r = LoadTasks({path});
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.tasks.size(), 5u);
  EXPECT_EQ(r.tasks[2].AnswerText(), "Florida State");
  EXPECT_EQ(GoldDatasets(r.tasks[2]), (std::vector<std::string>{"cmdbench/t_2_11734041_3"}));
  EXPECT_TRUE(Validate(r).ok());
}

}  // namespace
}  // namespace lakeqa::cmdbench
