// The CMDBench page: metrics in CMDBench's layout with values from the report, unknown where the report has
// none, question text escaped, a graph question without gold shown with its error.
#include <gtest/gtest.h>

#include "lakeqa/cmdbench/report_page.h"
#include "lakeqa/common/json.h"

namespace lakeqa::cmdbench {
namespace {

TEST(CmdbenchReport, SourcePageShowsPerClassMacroAndEachQuestion) {
  Json r = {
      {"task", "source"},
      {"questions", 2},
      {"questions_file", "q.json"},
      {"method", "lexical"},
      {"metrics",
       {{"per_class",
         {{"graph", {{"p", 0.5}, {"r", 1.0}, {"f1", 2.0 / 3}, {"support", 1}, {"predicted", 2}}},
          {"doc", {{"p", 0.0}, {"r", 0.0}, {"f1", 0.0}, {"support", 1}, {"predicted", 0}}}}},
        {"macro_p", 0.25},
        {"macro_r", 0.5},
        {"macro_f1", 1.0 / 3},
        {"accuracy", 0.5}}},
      {"per_question",
       {{{"qid", "a"},
         {"question", "Is <b>x</b> & y?"},
         {"gold", {"graph"}},
         {"predicted", {"graph"}},
         {"exact", true}},
        {{"qid", "b"}, {"question", "q"}, {"gold", {"doc"}}, {"predicted", {"graph"}}, {"exact", false}}}}};
  std::string h = RenderCmdbenchHtml(r);
  EXPECT_NE(h.find("<title>CMDBench source discovery</title>"), std::string::npos);
  EXPECT_NE(h.find("<td>graph</td><td class=n>50.00</td><td class=n>100.00</td><td class=n>66.67</td>"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("<b>33.33</b>"), std::string::npos);  // macro F1
  // The table class has no entry in this report: unknown, not 0.
  EXPECT_NE(h.find("<td>table</td><td class=n>unknown</td>"), std::string::npos) << h;
  EXPECT_NE(h.find("Is &lt;b&gt;x&lt;/b&gt; &amp; y?"), std::string::npos);
  EXPECT_EQ(h.find("<b>x</b>"), std::string::npos);
  EXPECT_NE(h.find("<span class=ok>exact</span>"), std::string::npos);
  EXPECT_NE(h.find("<span class=bad>differs</span>"), std::string::npos);
  EXPECT_EQ(h.find("http"), std::string::npos);  // offline: no external resource
}

TEST(CmdbenchReport, GraphPageShowsNodeEdgeAndPerTypeScoresAndQuestionsWithoutGold) {
  Json r = {{"task", "graph"},
            {"questions", 2},
            {"method", "lexical"},
            {"metrics",
             {{"node_p", 0.75},
              {"node_r", 1.0},
              {"node_f1", 6.0 / 7},
              {"edge_p", 0.0},
              {"edge_r", 0.0},
              {"edge_f1", 0.0},
              {"questions_without_gold", 1},
              {"by_type",
               {{"point", {{"node_p", 0.75}, {"node_r", 1.0}, {"node_f1", 6.0 / 7}, {"questions", 1}}}}}}},
            {"per_question",
             {{{"qid", "g1"},
               {"question", "q"},
               {"gold_nodes", {"Team:T1"}},
               {"predicted_nodes", {"Team:T1"}},
               {"node_p", 0.75},
               {"node_r", 1.0},
               {"edge_p", 0.0},
               {"edge_r", 0.0}},
              {{"qid", "g2"},
               {"question", "q"},
               {"error", "provenance cypher: cypher 1:1: unsupported clause WITH"}}}}};
  std::string h = RenderCmdbenchHtml(r);
  EXPECT_NE(h.find("<td>nodes</td><td class=n>75.00</td><td class=n>100.00</td><td class=n>85.71</td>"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("<td>nodes, point (1)</td>"), std::string::npos) << h;
  EXPECT_NE(h.find("1 questions left out"), std::string::npos);
  EXPECT_NE(h.find("unsupported clause WITH"), std::string::npos);
}

TEST(CmdbenchReport, RankedPageShowsTheDiscoveryMetricsAndTheTopHit) {
  Json r = {
      {"task", "table"},
      {"questions", 1},
      {"method", "bm25"},
      {"metrics",
       {{"p@1", 0.0},
        {"r@1", 0.0},
        {"r@3", 1.0},
        {"r@5", 1.0},
        {"r@10", 1.0},
        {"r_precision", 0.0},
        {"mrr", 0.5},
        {"r@1_random_ties", 0.0}}},
      {"per_question",
       {{{"qid", "t"},
         {"question", "q"},
         {"gold", {"cmdbench/t_2"}},
         {"metrics", {{"r@1", 0.0}, {"r@5", 1.0}, {"mrr", 0.5}}},
         {"top_ties", 2},
         {"top", {{{"id", "cmdbench/t_1"}, {"score", 3.0}}, {{"id", "cmdbench/t_2"}, {"score", 3.0}}}}}}}};
  std::string h = RenderCmdbenchHtml(r);
  EXPECT_NE(h.find("<td class=n>100.00</td>"), std::string::npos);
  EXPECT_NE(h.find("<td class=n>0.5</td>"), std::string::npos) << h;  // MRR as a fraction
  EXPECT_NE(h.find("<td>cmdbench/t_1</td>"), std::string::npos) << h;
  EXPECT_NE(h.find("(2 tied at the top)"), std::string::npos);
}

}  // namespace
}  // namespace lakeqa::cmdbench
