// CMDBench metrics with hand-computed values, and its question files (wrong kinds refused).
#include <gtest/gtest.h>

#include "eval/test_util.h"
#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::cmdbench {
namespace {

using namespace eval;

using V = std::vector<std::string>;

TEST(CmdbenchSourceMetrics, PerClassAndMacroAsScikitLearn) {
  // gold / predicted:
  //   q1 {graph}        / {graph}          graph TP
  //   q2 {doc, graph}   / {graph}          graph TP, doc FN
  //   q3 {doc}          / {doc, table}     doc TP, table FP
  //   q4 {table}        / {}               table FN
  // graph: TP 2, FP 0, FN 0 → P 1, R 1, F1 1
  // doc:   TP 1, FP 0, FN 1 → P 1, R 1/2, F1 2/3
  // table: TP 0, FP 1, FN 1 → P 0, R 0, F1 0
  // macro P = 2/3, R = 1/2, F1 = (1 + 2/3 + 0)/3 = 5/9; accuracy = 1/4 (q1 only)
  auto s = ScoreSourceSelection({{"graph"}, {"doc", "graph"}, {"doc"}, {"table"}},
                                {{"graph"}, {"graph"}, {"doc", "table"}, {}});
  EXPECT_DOUBLE_EQ(s.per_class["graph"].f1, 1.0);
  EXPECT_DOUBLE_EQ(s.per_class["doc"].p, 1.0);
  EXPECT_DOUBLE_EQ(s.per_class["doc"].r, 0.5);
  EXPECT_DOUBLE_EQ(s.per_class["doc"].f1, 2.0 / 3);
  EXPECT_DOUBLE_EQ(s.per_class["table"].p, 0.0);
  EXPECT_DOUBLE_EQ(s.per_class["table"].f1, 0.0);
  EXPECT_DOUBLE_EQ(s.macro_p, 2.0 / 3);
  EXPECT_DOUBLE_EQ(s.macro_r, 0.5);
  EXPECT_DOUBLE_EQ(s.macro_f1, 5.0 / 9);
  EXPECT_DOUBLE_EQ(s.accuracy, 0.25);
  EXPECT_EQ(s.per_class["doc"].support, 2u);
}

TEST(CmdbenchSourceMetrics, SelectAllIsPrevalenceBased) {
  // Select-all on 3 graph, 1 doc, 2 table questions (6 in all): P = prevalence, R = 1,
  // F1 = 2p/(1+p): graph 2*.5/1.5 = 2/3, doc 2*(1/6)/(7/6) = 2/7, table 2*(1/3)/(4/3) = 1/2.
  std::vector<V> gold = {{"graph"}, {"graph"}, {"graph"}, {"doc"}, {"table"}, {"table"}};
  std::vector<V> all(6, V{"graph", "doc", "table"});
  auto s = ScoreSourceSelection(gold, all);
  EXPECT_DOUBLE_EQ(s.per_class["graph"].f1, 2.0 / 3);
  EXPECT_DOUBLE_EQ(s.per_class["doc"].f1, 2.0 / 7);
  EXPECT_DOUBLE_EQ(s.per_class["table"].f1, 0.5);
  EXPECT_DOUBLE_EQ(s.macro_f1, (2.0 / 3 + 2.0 / 7 + 0.5) / 3);
  EXPECT_DOUBLE_EQ(s.accuracy, 0.0);
}

TEST(CmdbenchGraphMetrics, F1IsTheHarmonicMeanOfAveragedPrecisionAndRecall) {
  // q1 (point): pred {a}, gold {a}         → P 1,   R 1
  // q2 (path):  pred {a, b, c, d}, gold {a, e} → P 1/4, R 1/2; edges pred {}, gold {x} → 0, 0
  // q3 (path):  pred {}, gold {b}          → P 0,   R 0
  // node P = (1 + 1/4 + 0)/3 = 5/12, R = (1 + 1/2 + 0)/3 = 1/2, F1 = 2·(5/12)(1/2)/(5/12 + 1/2) = 5/11
  std::vector<GraphQuestionScore> qs = {
      {"point", ScoreSet({"a"}, {"a"}), ScoreSet({}, {})},
      {"path", ScoreSet({"a", "b", "c", "d"}, {"a", "e"}), ScoreSet({}, {"x"})},
      {"path", ScoreSet({}, {"b"}), ScoreSet({"y"}, {"y"})},
  };
  auto g = AggregateGraphScores(qs);
  EXPECT_DOUBLE_EQ(g.node_p, 5.0 / 12);
  EXPECT_DOUBLE_EQ(g.node_r, 0.5);
  EXPECT_DOUBLE_EQ(g.node_f1, 5.0 / 11);
  // Edges: P (0 + 0 + 1)/3, R (0 [empty gold counts 0, as CMDBench] + 0 + 1)/3.
  EXPECT_DOUBLE_EQ(g.edge_p, 1.0 / 3);
  EXPECT_DOUBLE_EQ(g.edge_r, 1.0 / 3);
  EXPECT_DOUBLE_EQ(g.node_by_type["path"].p, 1.0 / 8);
  EXPECT_DOUBLE_EQ(g.node_by_type["path"].r, 0.25);
  EXPECT_EQ(g.questions_by_type["point"], 1u);
  // Duplicates count once.
  auto d = ScoreSet({"a", "a", "b"}, {"a"});
  EXPECT_DOUBLE_EQ(d.p, 0.5);
  EXPECT_DOUBLE_EQ(d.r, 1.0);
}

class CmdbenchFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("lakeqa-cmdbench-files");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    EXPECT_TRUE(WriteFileAtomic(dir_ + "/" + name, text).ok());
    return dir_ + "/" + name;
  }
  std::string dir_;
};

TEST_F(CmdbenchFiles, ReadsEachKind) {
  auto src = LoadCmdbenchQuestionFile(
      Write(
          "s.json",
          R"([{"qid": 7, "question": "q?", "provenance_sources": ["doc", "graph"], "original_source": "graph"}])"),
      CmdbenchKind::kSource);
  ASSERT_TRUE(src.ok()) << src.status().ToString();
  EXPECT_EQ((*src)[0].qid, "7");
  EXPECT_EQ((*src)[0].sources, (V{"doc", "graph"}));
  auto table = LoadCmdbenchQuestionFile(Write("t.json", R"([{"qid": "a", "question": "q?", "answer": "37",
                           "provenance_table": {"table": "t_1_2_3", "column": "['date', 'high points']"}}])"),
                                        CmdbenchKind::kTable);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)[0].tables, V{"t_1_2_3"});
  EXPECT_EQ((*table)[0].columns, (V{"date", "high points"}));
  auto doc = LoadCmdbenchQuestionFile(
      Write("d.json", R"([{"qid": "d", "question": "q?", "answer": "x", "provenance_doc": {"paragraphs": [
          {"wikipedia_title": "A", "paragraph_id": 2, "text": "t"}, {"wikipedia_title": "B", "paragraph_id": 1},
          {"wikipedia_title": "A", "paragraph_id": 3}]}}])"),
      CmdbenchKind::kDoc);
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_EQ((*doc)[0].DocTitles(), (V{"A", "B"}));
  auto graph = LoadCmdbenchQuestionFile(
      Write("g.json", R"([{"qid": "g", "question": "q?", "answer": "1970", "provenance_graph": {
          "cypher": "MATCH (t:Team) RETURN t", "node_ids": [5208], "edge_ids": [], "type": "point"}}])"),
      CmdbenchKind::kGraph);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ((*graph)[0].graph_type, "point");
  EXPECT_EQ((*graph)[0].neo4j_node_ids, std::vector<int64_t>{5208});
}

TEST_F(CmdbenchFiles, AFileOfTheWrongKindIsRefusedWithWhatWasExpected) {
  std::string p = Write("s.json", R"([{"qid": "1", "question": "q?", "provenance_sources": ["graph"]}])");
  auto r = LoadCmdbenchQuestionFile(p, CmdbenchKind::kGraph);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(
      r.status().message().find("expected provenance_graph (a CMDBench graph question file), item 0 has "
                                "provenance_sources (use --task source for this file)"),
      std::string::npos)
      << r.status().message();
  auto bad_source = LoadCmdbenchQuestionFile(
      Write("b.json", R"([{"question": "q?", "provenance_sources": ["web"]}])"), CmdbenchKind::kSource);
  ASSERT_FALSE(bad_source.ok());
  EXPECT_NE(bad_source.status().message().find("item 0: provenance_sources holds 'web'"), std::string::npos)
      << bad_source.status().message();
  EXPECT_FALSE(
      LoadCmdbenchQuestionFile(Write("o.json", R"({"question": "q?"})"), CmdbenchKind::kSource).ok());
  auto none = LoadCmdbenchQuestionFile(Write("n.json", R"([{"question": "q?"}])"), CmdbenchKind::kDoc);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no \"provenance_doc\""), std::string::npos);
}

// Routing questions from files of every kind: a modality file's questions are labelled with it, a qid in
// two files is kept once with its provenance_sources label, and bad items are errors naming the file.
TEST_F(CmdbenchFiles, RoutingQuestionsFromFilesOfEveryKind) {
  std::string src =
      Write("s.json", R"([{"qid": "g1", "question": "drafted?", "provenance_sources": ["doc", "graph"]},
                                         {"question": "no qid?", "provenance_sources": ["table"]}])");
  std::string graph =
      Write("g.json",
            R"([{"qid": "g1", "question": "drafted?", "provenance_graph": {"cypher": "MATCH (n) RETURN n"}},
                                          {"qid": "g2", "question": "born?", "provenance_graph": {"cypher": "MATCH (n) RETURN n"}}])");
  std::string table =
      Write("t.json", R"([{"qid": "t1", "question": "points?", "provenance_table": {"table": "t_1"}}])");
  std::string doc = Write(
      "d.json", R"([{"question": "city?", "provenance_doc": {"paragraphs": [{"wikipedia_title": "X"}]}}])");
  size_t dups = 9;
  // The graph file first: the source file's label for g1 still wins.
  auto qs = LoadCmdbenchRoutingQuestions({graph, src, table, doc}, &dups);
  ASSERT_TRUE(qs.ok()) << qs.status().ToString();
  EXPECT_EQ(dups, 1u);
  ASSERT_EQ(qs->size(), 5u);
  EXPECT_EQ((*qs)[0].qid, "g1");
  EXPECT_EQ((*qs)[0].sources, (std::vector<std::string>{"doc", "graph"}));
  EXPECT_EQ((*qs)[0].kind, CmdbenchKind::kSource);
  EXPECT_EQ((*qs)[1].sources, std::vector<std::string>{"graph"});
  EXPECT_EQ((*qs)[1].kind, CmdbenchKind::kGraph);
  EXPECT_EQ((*qs)[2].qid, src + "#1");  // no qid: named by file and position, never merged
  EXPECT_EQ((*qs)[2].sources, std::vector<std::string>{"table"});
  EXPECT_EQ((*qs)[3].sources, std::vector<std::string>{"table"});
  EXPECT_EQ((*qs)[4].sources, std::vector<std::string>{"doc"});
  // One source file alone reads as before.
  auto one = LoadCmdbenchRoutingQuestions({src});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 2u);
  // Bad input.
  EXPECT_FALSE(LoadCmdbenchRoutingQuestions({}).ok());
  auto none = LoadCmdbenchRoutingQuestions({Write("n.json", R"([{"qid": "x", "question": "q?"}])")});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("n.json: item 0: no provenance_sources"), std::string::npos)
      << none.status().message();
  auto bad =
      LoadCmdbenchRoutingQuestions({Write("b.json", R"([{"question": "q?", "provenance_table": {}}])")});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("b.json: item 0"), std::string::npos) << bad.status().message();
  EXPECT_EQ(LoadCmdbenchRoutingQuestions({dir_ + "/absent.json"}).status().code(), ErrorCode::kNotFound);
}

TEST(CmdbenchSharedExamples, TheGivenExamplesLoad) {
  std::string dir = eval::testing::SharedData() + "/cmdbench-nba/examples";
  if (!PathExists(dir)) GTEST_SKIP() << dir << " is absent";
  EXPECT_EQ(LoadCmdbenchQuestionFile(dir + "/q_source_examples.json", CmdbenchKind::kSource)->size(), 4u);
  EXPECT_EQ(LoadCmdbenchQuestionFile(dir + "/q_graph_examples.json", CmdbenchKind::kGraph)->size(), 3u);
  EXPECT_EQ(LoadCmdbenchQuestionFile(dir + "/q_doc_examples.json", CmdbenchKind::kDoc)->size(), 3u);
  EXPECT_EQ(LoadCmdbenchQuestionFile(dir + "/q_table_examples.json", CmdbenchKind::kTable)->size(), 5u);
  // As one routing collection: 15 items, 14 questions (the first graph example is also a source example,
  // labelled graph in both).
  size_t dups = 0;
  auto all = LoadCmdbenchRoutingQuestions({dir + "/q_source_examples.json", dir + "/q_doc_examples.json",
                                           dir + "/q_graph_examples.json", dir + "/q_table_examples.json"},
                                          &dups);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->size(), 14u);
  EXPECT_EQ(dups, 1u);
}

}  // namespace
}  // namespace lakeqa::cmdbench
