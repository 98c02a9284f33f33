// The graph builder (identities, problems per row) and the node search / neighbour queries.
#include <gtest/gtest.h>

#include <filesystem>

#include "graph/fixture.h"

namespace lakeqa::graph::testing {
namespace {

TEST_F(SmallGraph, RelationRowsNamingUnknownNodesAreReportedPerRow) {
  const Schema& s = graph_->schema();
  ASSERT_EQ(s.problems_total, 2u);
  EXPECT_EQ(s.problems[0].source, "relation_draftedBy.csv");
  EXPECT_EQ(s.problems[0].line, 4u);  // header is line 1: "P9,T2,2000"
  EXPECT_EQ(s.problems[0].message, "start id 'P9' is not a Player node; edge skipped");
  EXPECT_EQ(s.problems[1].line, 5u);
  EXPECT_EQ(s.problems[1].message, "end id 'T7' is not a Team node; edge skipped");
  EXPECT_EQ(s.Relation("draftedBy")->count, 2u);
  EXPECT_EQ(s.Relation("playsFor")->count, 4u);
  EXPECT_EQ(s.Node("Player")->count, 4u);
}

TEST(GraphBuilderTest, MalformedRowsAndDuplicateIdsAreProblemsNotFailures) {
  GraphBuilder b;
  ASSERT_TRUE(b.AddFile("P.csv", "P", "id:ID(P),name\nA,x\nA,y\nB\n\"C\",\"multi\nline\"\n").ok());
  EXPECT_FALSE(b.AddFile("junk.csv", "junk", "a,b\n1,2\n").ok());
  EXPECT_FALSE(b.AddFile("empty.csv", "empty", "").ok());
  ASSERT_EQ(b.schema().problems_total, 2u);
  EXPECT_EQ(b.schema().problems[0].line, 3u);
  EXPECT_EQ(b.schema().problems[0].message, "duplicate P id 'A'; the first row is kept");
  EXPECT_EQ(b.schema().problems[1].line, 4u);
  EXPECT_EQ(b.schema().problems[1].message, "has 1 fields, the header has 2; row skipped");
  auto d = MakeTempDir("lakeqa-graph-b");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(b.Write(*d).ok());
  auto g = Graph::Open(*d);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  auto r = (*g)->Query("MATCH (n:P) RETURN n.name ORDER BY n.name");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->result.rows, (std::vector<std::vector<Json>>{{"multi\nline"}, {"x"}}));
  (void)RemoveAll(*d);
}

// `--index index` (relative) must work: the translated SQL names the files by the graph's path, which the
// sandbox compares with its root as absolute paths.
TEST(GraphBuilderTest, AGraphOpenedByARelativePathAnswersQueries) {
  GraphBuilder b;
  ASSERT_TRUE(b.AddFile("P.csv", "P", "id:ID(P),name\nA,x\n").ok());
  auto d = MakeTempDir("lakeqa-graph-rel");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(b.Write(*d).ok());
  std::string rel = std::filesystem::relative(*d).string();
  ASSERT_FALSE(rel.empty() || rel[0] == '/') << rel;
  auto g = Graph::Open(rel);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  auto r = (*g)->Query("MATCH (n:P) RETURN n.name");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->result.rows, (std::vector<std::vector<Json>>{{"x"}}));
  (void)RemoveAll(*d);
}

TEST(GraphIdentityTest, KeysComeFromTheDataNotInsertionOrder) {
  EXPECT_EQ(NodeKey("Player", "Q1"), "Player:Q1");
  std::string a = EdgeKey("Player", "Q1", "playsFor", "Team", "Q2", {"1990", "10"});
  EXPECT_EQ(a.substr(0, a.find('#')), "Player:Q1-[playsFor]->Team:Q2");
  EXPECT_EQ(a.size(), std::string("Player:Q1-[playsFor]->Team:Q2#").size() + 8);
  EXPECT_EQ(a, EdgeKey("Player", "Q1", "playsFor", "Team", "Q2", {"1990", "10"}));
  EXPECT_NE(a, EdgeKey("Player", "Q1", "playsFor", "Team", "Q2", {"1991", "10"}));
  // Field boundaries count: ("ab", "c") is not ("a", "bc").
  EXPECT_NE(EdgeKey("A", "1", "t", "B", "2", {"ab", "c"}), EdgeKey("A", "1", "t", "B", "2", {"a", "bc"}));
}

TEST(GraphHeaderTest, ClassifiesNeo4jImportHeaders) {
  EXPECT_EQ(ClassifyHeader(CsvHeaderOf("wikidata_id:ID(Player),name\n")), FileKind::kNodes);
  EXPECT_EQ(ClassifyHeader(CsvHeaderOf(":START_ID(Player),:END_ID(Team),time\n")), FileKind::kRelations);
  EXPECT_EQ(ClassifyHeader(CsvHeaderOf("a,b,c\n")), FileKind::kNone);
}

TEST_F(SmallGraph, FindNodesRanksExactThenPrefixThenContains) {
  auto r = graph_->FindNodes("guy", "", "", 10);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].key, "Player:P2");  // equal score (contains): shorter name first
  EXPECT_EQ((*r)[0].matched, "name contains");
  auto exact = graph_->FindNodes("Detroit Pistons", "", "", 10);
  ASSERT_TRUE(exact.ok());
  ASSERT_EQ(exact->size(), 1u);
  EXPECT_EQ((*exact)[0].key, "Team:T1");
  EXPECT_EQ((*exact)[0].matched, "name exact");
  auto words = graph_->FindNodes("golden warriors", "Team", "", 10);
  ASSERT_TRUE(words.ok());
  ASSERT_EQ(words->size(), 1u);
  EXPECT_EQ((*words)[0].matched, "name every word");
  auto prop = graph_->FindNodes("1946", "Team", "inception", 10);
  ASSERT_TRUE(prop.ok());
  ASSERT_EQ(prop->size(), 1u);
  EXPECT_EQ((*prop)[0].name, "Golden State Warriors");
  EXPECT_FALSE(graph_->FindNodes("x", "Nope", "", 10).ok());
  EXPECT_FALSE(graph_->FindNodes("x", "Team", "height", 10).ok());
}

TEST_F(SmallGraph, NeighborsByTypeDirectionAndLimit) {
  uint64_t total = 0;
  auto r = graph_->Neighbors("Team:T2", "", "in", 2, &total);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // In-edges of T2: draftedBy from P2, P3; playsFor from P1, P2, P3 = 5.
  EXPECT_EQ(total, 5u);
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].type, "draftedBy");
  EXPECT_EQ((*r)[0].direction, "in");
  EXPECT_EQ((*r)[0].node_name, "Short Guy");
  EXPECT_EQ((*r)[0].properties, (Json{{"time", "1999"}}));
  auto out = graph_->Neighbors("P1", "playsFor", "out", 10, &total);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(total, 2u);
  EXPECT_EQ((*out)[0].node_key, "Team:T1");
  EXPECT_FALSE(graph_->Neighbors("Team:T9", "", "both", 10, &total).ok());
  EXPECT_FALSE(graph_->Neighbors("Team:T1", "marriedTo", "both", 10, &total).ok());
  EXPECT_FALSE(graph_->Neighbors("Team:T1", "", "sideways", 10, &total).ok());
}

}  // namespace
}  // namespace lakeqa::graph::testing
