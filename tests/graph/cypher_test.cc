// One test per clause of the Cypher subset (include/lakeqa/graph/cypher.h) on the hand-made graph of
// fixture.h; expected rows and identities are worked out by hand from the fixture's CSV text.
#include <gtest/gtest.h>

#include <set>

#include "graph/fixture.h"
#include "lakeqa/graph/cypher.h"

namespace lakeqa::graph::testing {
namespace {

using Rows = std::vector<std::vector<Json>>;

class CypherTest : public SmallGraph {
 protected:
  QueryOutput Q(const std::string& cypher) {
    auto r = graph_->Query(cypher);
    EXPECT_TRUE(r.ok()) << cypher << "\n" << r.status().ToString();
    return r.ok() ? std::move(*r) : QueryOutput{};
  }
  Status Err(const std::string& cypher) {
    auto r = graph_->Query(cypher);
    EXPECT_FALSE(r.ok()) << cypher;
    return r.ok() ? Status::Ok() : r.status();
  }
  static std::string EdgeOf(const char* s, const char* type, const char* e, std::vector<std::string> props) {
    std::string sl = s[0] == 'P' ? "Player" : "Team", el = e[0] == 'T' ? "Team" : "Coach";
    return EdgeKey(sl, s, type, el, e, props);
  }
};

TEST_F(CypherTest, MatchLabelAndPropertyMapIsAPointQuery) {
  auto o = Q("MATCH (t:Team {name: 'Detroit Pistons'}) RETURN t.inception AS inception");
  EXPECT_EQ(o.result.columns, std::vector<std::string>{"inception"});
  EXPECT_EQ(o.result.rows, (Rows{{"1941"}}));
  EXPECT_EQ(o.nodes, std::vector<std::string>{"Team:T1"});
  EXPECT_TRUE(o.edges.empty());
}

TEST_F(CypherTest, RelationshipWithTypeAndVariableNamesTheEdge) {
  auto o =
      Q("MATCH (p:Player {name: 'Dennis Rodman'})-[r:playsFor]->(t:Team {name: 'Detroit Pistons'}) "
        "RETURN r.sport_number AS sport_number");
  EXPECT_EQ(o.result.rows, (Rows{{"10"}}));
  EXPECT_EQ(o.nodes, (std::vector<std::string>{"Player:P1", "Team:T1"}));
  EXPECT_EQ(o.edges, std::vector<std::string>{EdgeOf("P1", "playsFor", "T1", {"1986", "10"})});
}

TEST_F(CypherTest, WhereComparesTextPropertiesWithNumbersAsNumbers) {
  auto o = Q("MATCH (t:Team) WHERE t.inception > 1945 RETURN t.name");
  EXPECT_EQ(o.result.columns, std::vector<std::string>{"t.name"});
  EXPECT_EQ(o.result.rows, (Rows{{"Golden State Warriors"}}));
  auto eq = Q("MATCH (t:Team) WHERE t.inception = 1941 RETURN t.name");
  EXPECT_EQ(eq.result.rows, (Rows{{"Detroit Pistons"}}));
  auto ne = Q("MATCH (t:Team) WHERE t.name <> 'Detroit Pistons' AND t.name != 'x' RETURN t.name");
  EXPECT_EQ(ne.result.rows, (Rows{{"Golden State Warriors"}}));
}

TEST_F(CypherTest, CaseContainsToFloatReplaceAsInCmdbenchsHeightQuestion) {
  // The CMDBench example's shape: heights in centimetres or metres, compared in centimetres.
  auto o =
      Q("MATCH (p:Player)-[r:draftedBy]->(t:Team {name: 'Golden State Warriors'}) WHERE CASE WHEN p.height "
        "CONTAINS 'centimetre' THEN toFloat(replace(p.height, ' centimetre', '')) WHEN p.height CONTAINS "
        "'metre' "
        "THEN toFloat(replace(p.height, ' metre', '')) * 100 ELSE 0 END > 210 RETURN p.name, p.height");
  EXPECT_EQ(o.result.rows, (Rows{{"Tall Guy", "2.2 metre"}}));
  // Evidence: every match of MATCH + WHERE (CMDBench's RETURN * rewrite), here the one drafted tall player.
  EXPECT_EQ(o.nodes, (std::vector<std::string>{"Player:P2", "Team:T2"}));
  EXPECT_EQ(o.edges, std::vector<std::string>{EdgeOf("P2", "draftedBy", "T2", {"1998"})});
  // Simple CASE form.
  auto s =
      Q("MATCH (t:Team) RETURN CASE t.name WHEN 'Detroit Pistons' THEN 'DET' ELSE 'other' END AS code "
        "ORDER BY code");
  EXPECT_EQ(s.result.rows, (Rows{{"DET"}, {"other"}}));
}

TEST_F(CypherTest, AndOrNotXor) {
  auto o = Q(
      "MATCH (p:Player) WHERE (p.name = 'Tall Guy' OR p.name = 'Short Guy') AND NOT p.name CONTAINS 'Short' "
      "RETURN p.name");
  EXPECT_EQ(o.result.rows, (Rows{{"Tall Guy"}}));
  auto x = Q("MATCH (p:Player) WHERE p.name CONTAINS 'Guy' XOR p.name CONTAINS 'Tall' RETURN p.name");
  EXPECT_EQ(x.result.rows, (Rows{{"Short Guy"}}));
}

TEST_F(CypherTest, OrderBySkipLimit) {
  auto o = Q("MATCH (p:Player) RETURN p.name AS name ORDER BY name DESC SKIP 1 LIMIT 2");
  // Names descending: Tall Guy, Short Guy, Dennis Rodman, Comma, Name.
  EXPECT_EQ(o.result.rows, (Rows{{"Short Guy"}, {"Dennis Rodman"}}));
  // Evidence ignores ORDER BY / SKIP / LIMIT: all four players matched.
  EXPECT_EQ(o.nodes.size(), 4u);
  auto e =
      Q("MATCH (p:Player) RETURN p.name ORDER BY toFloat(replace(p.height, ' centimetre', '')) ASC LIMIT 1");
  EXPECT_EQ(e.result.rows, (Rows{{"Short Guy"}}));
}

TEST_F(CypherTest, CountGroupsByTheOtherReturnItems) {
  auto o =
      Q("MATCH (p:Player)-[r:playsFor]->(t:Team) RETURN t.name AS team, count(p) AS players ORDER BY players "
        "DESC");
  EXPECT_EQ(o.result.rows, (Rows{{"Golden State Warriors", 3}, {"Detroit Pistons", 1}}));
  auto all = Q("MATCH (p:Player) RETURN count(*)");
  EXPECT_EQ(all.result.rows, (Rows{{4}}));
  EXPECT_EQ(all.result.columns, std::vector<std::string>{"count(*)"});
  auto d = Q("MATCH (p:Player)-[:playsFor]->(t:Team) RETURN count(DISTINCT t) AS teams");
  EXPECT_EQ(d.result.rows, (Rows{{2}}));
  auto agg = Q(
      "MATCH (p:Player)-[r:playsFor]->(t:Team) RETURN sum(r.sport_number) AS s, min(r.start_time) AS first, "
      "max(r.start_time) AS last, collect(DISTINCT t.name) AS names");
  ASSERT_EQ(agg.result.rows.size(), 1u);
  EXPECT_EQ(agg.result.rows[0][0], 113.0);  // 10 + 5 + 7 + 91
  EXPECT_EQ(agg.result.rows[0][1], "1986");
  EXPECT_EQ(agg.result.rows[0][2], "2001");
}

TEST_F(CypherTest, TwoRelationshipsInOnePattern) {
  auto o = Q("MATCH (p:Player)-[r:playsFor]->(t:Team)-[c:coachedBy]->(k:Coach) RETURN p.name, k.name");
  EXPECT_EQ(o.result.rows, (Rows{{"Dennis Rodman", "Coach One"}}));
  EXPECT_EQ(o.nodes, (std::vector<std::string>{"Coach:C1", "Player:P1", "Team:T1"}));
  EXPECT_EQ(o.edges.size(), 2u);
}

TEST_F(CypherTest, DirectionsLeftAndUndirected) {
  auto left = Q("MATCH (t:Team {name: 'Detroit Pistons'})<-[r:playsFor]-(p:Player) RETURN p.name");
  EXPECT_EQ(left.result.rows, (Rows{{"Dennis Rodman"}}));
  auto both = Q("MATCH (t:Team {name: 'Detroit Pistons'})-[r:playsFor]-(p:Player) RETURN p.name");
  EXPECT_EQ(both.result.rows, (Rows{{"Dennis Rodman"}}));
  auto wrong = Q("MATCH (t:Team)-[r:playsFor]->(p:Player) RETURN p.name");  // no Team→Player playsFor
  EXPECT_TRUE(wrong.result.rows.empty());
  auto shorthand = Q("MATCH (t:Team {name: 'Detroit Pistons'})<--(p:Player) RETURN count(*) AS n");
  EXPECT_EQ(shorthand.result.rows, (Rows{{1}}));
}

TEST_F(CypherTest, UntypedAndAlternativeTypesMatchEveryFittingType) {
  // Short Guy: playsFor T2 and draftedBy T2 (his draftedBy T7 row names no team and was dropped at build).
  auto o = Q("MATCH (p:Player {name: 'Short Guy'})-[r]->(t:Team) RETURN type(r) AS type ORDER BY type");
  EXPECT_EQ(o.result.rows, (Rows{{"draftedBy"}, {"playsFor"}}));
  auto alt = Q("MATCH (p:Player {name: 'Short Guy'})-[r:playsFor|draftedBy]->(t:Team) RETURN count(r) AS n");
  EXPECT_EQ(alt.result.rows, (Rows{{2}}));
}

TEST_F(CypherTest, LabelsFollowFromTypedRelationships) {
  auto o = Q("MATCH (p)-[:coachedBy]->(c) RETURN p.name, c.name");
  EXPECT_EQ(o.result.rows, (Rows{{"Detroit Pistons", "Coach One"}}));
}

TEST_F(CypherTest, CommaSeparatedPatternsJoinOnSharedVariables) {
  auto o = Q("MATCH (p:Player)-[:playsFor]->(t:Team), (p)-[:draftedBy]->(t) RETURN p.name ORDER BY p.name");
  // Both plays for and was drafted by the same team: Tall Guy (T2) and Short Guy (T2).
  EXPECT_EQ(o.result.rows, (Rows{{"Short Guy"}, {"Tall Guy"}}));
  auto two =
      Q("MATCH (p:Player {name: 'Tall Guy'}) MATCH (p)-[:playsFor]->(t:Team) WHERE t.inception > 1900 "
        "RETURN t.name");
  EXPECT_EQ(two.result.rows, (Rows{{"Golden State Warriors"}}));
}

TEST_F(CypherTest, ReturnDistinctAndStar) {
  auto o = Q("MATCH (p:Player)-[:playsFor]->(t:Team) RETURN DISTINCT t.name ORDER BY t.name");
  EXPECT_EQ(o.result.rows, (Rows{{"Detroit Pistons"}, {"Golden State Warriors"}}));
  auto star = Q("MATCH (t:Team {name: 'Detroit Pistons'}) RETURN *");
  ASSERT_EQ(star.result.rows.size(), 1u);
  EXPECT_EQ(star.result.columns, std::vector<std::string>{"t"});
  // A node in RETURN is its identity and properties.
  EXPECT_NE(star.result.rows[0][0].dump().find("Team:T1"), std::string::npos);
}

TEST_F(CypherTest, InStartsEndsWithRegexIsNull) {
  EXPECT_EQ(Q("MATCH (p:Player) WHERE p.name IN ['Tall Guy', 'Nobody'] RETURN p.name").result.rows,
            (Rows{{"Tall Guy"}}));
  EXPECT_EQ(Q("MATCH (p:Player) WHERE p.name STARTS WITH 'Den' RETURN p.name").result.rows,
            (Rows{{"Dennis Rodman"}}));
  EXPECT_EQ(Q("MATCH (p:Player) WHERE p.name ENDS WITH 'Name' RETURN p.name").result.rows,
            (Rows{{"Comma, Name"}}));
  EXPECT_EQ(Q("MATCH (p:Player) WHERE p.name =~ '(?i)dennis.*' RETURN p.name").result.rows,
            (Rows{{"Dennis Rodman"}}));
  EXPECT_EQ(Q("MATCH (p:Player) WHERE p.height IS NULL RETURN p.name").result.rows, (Rows{{"Comma, Name"}}));
  EXPECT_EQ(Q("MATCH (p:Player) WHERE p.height IS NOT NULL RETURN count(*)").result.rows, (Rows{{3}}));
  EXPECT_EQ(
      Q("MATCH (p:Player) WHERE toLower(p.name) = toLower('TALL GUY') RETURN toUpper(p.name)").result.rows,
      (Rows{{"TALL GUY"}}));
}

TEST_F(CypherTest, FunctionsAndArithmetic) {
  auto o =
      Q("MATCH (t:Team {name: 'Detroit Pistons'}) RETURN toInteger(t.inception) + 1 AS next, t.name + '!' AS "
        "s, "
        "substring(t.name, 0, 7) AS sub, size(t.name) AS n, coalesce(null, 'x') AS c, id(t) AS id");
  ASSERT_EQ(o.result.rows.size(), 1u);
  EXPECT_EQ(o.result.rows[0][0], 1942);
  EXPECT_EQ(o.result.rows[0][1], "Detroit Pistons!");
  EXPECT_EQ(o.result.rows[0][2], "Detroit");
  EXPECT_EQ(o.result.rows[0][3], 15);
  EXPECT_EQ(o.result.rows[0][4], "x");
  EXPECT_EQ(o.result.rows[0][5], "Team:T1");
}

TEST_F(CypherTest, MalformedAndUnsupportedQueriesNameThePositionAndClause) {
  Status with = Err("MATCH (p:Player)\nWITH p RETURN p.name");
  EXPECT_EQ(with.code(), ErrorCode::kUnsupported);
  EXPECT_NE(with.message().find("cypher 2:1: unsupported clause WITH"), std::string::npos) << with.message();
  Status create = Err("CREATE (p:Player {name: 'x'})");
  EXPECT_NE(create.message().find("cypher 1:1: unsupported clause CREATE: graph queries are read-only"),
            std::string::npos)
      << create.message();
  Status optional = Err("MATCH (p:Player) OPTIONAL MATCH (p)-[:playsFor]->(t) RETURN p");
  EXPECT_NE(optional.message().find("1:18: unsupported clause OPTIONAL"), std::string::npos)
      << optional.message();
  Status varlen = Err("MATCH (p:Player)-[r:playsFor*1..2]->(t:Team) RETURN p");
  EXPECT_NE(varlen.message().find("1:29: unsupported variable-length"), std::string::npos)
      << varlen.message();
  Status label = Err("MATCH (p:Plyer) RETURN p");
  EXPECT_NE(label.message().find("1:10: unknown node label 'Plyer'; the labels are Player, Team, Coach"),
            std::string::npos)
      << label.message();
  Status prop = Err("MATCH (p:Player) RETURN p.heigth");
  EXPECT_NE(prop.message().find("1:27: Player has no property 'heigth'"), std::string::npos)
      << prop.message();
  Status syntax = Err("MATCH (p:Player RETURN p");
  EXPECT_EQ(syntax.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(syntax.message().find("1:17: expected ')' to close the node pattern, found 'RETURN'"),
            std::string::npos)
      << syntax.message();
  Status unterminated = Err("MATCH (p:Player {name: 'x}) RETURN p");
  EXPECT_NE(unterminated.message().find("1:24: unterminated string literal"), std::string::npos)
      << unterminated.message();
  Status param = Err("MATCH (p:Player {name: $name}) RETURN p");
  EXPECT_NE(param.message().find("unsupported parameter $name"), std::string::npos) << param.message();
  Status unbound = Err("MATCH (p:Player) RETURN q.name");
  EXPECT_NE(unbound.message().find("variable 'q' is not defined"), std::string::npos) << unbound.message();
  Status nolabel = Err("MATCH (x) RETURN x");
  EXPECT_NE(nolabel.message().find("1:8: node 'x' has no label"), std::string::npos) << nolabel.message();
  EXPECT_FALSE(graph_->Query("").ok());
  Status trailing = Err("MATCH (p:Player) RETURN p.name LIMIT 1 extra");
  EXPECT_NE(trailing.message().find("1:40: expected the end of the query"), std::string::npos)
      << trailing.message();
}

TEST_F(CypherTest, TranslationIsOneReadOnlySelect) {
  TableSource t;
  t.nodes = [](const NodeType& n) { return "nodes_" + n.label; };
  t.edges = [](const RelationType& r) { return "edges_" + r.type; };
  auto tr = TranslateCypher(
      "MATCH (p:Player)-[r:playsFor]->(t:Team) WHERE t.inception > 1945 RETURN p.name LIMIT 3",
      graph_->schema(), t);
  ASSERT_TRUE(tr.ok()) << tr.status().ToString();
  EXPECT_EQ(tr->sql,
            "SELECT \"p\".\"name\" AS \"p.name\" FROM nodes_Player AS \"p\", nodes_Team AS \"t\", "
            "edges_playsFor AS \"r\" "
            "WHERE \"r\"._start = \"p\"._id AND \"r\"._end = \"t\"._id AND (TRY_CAST(\"t\".\"inception\" AS "
            "DOUBLE) > 1945) "
            "LIMIT 3");
  EXPECT_EQ(tr->node_columns, (std::vector<std::string>{"node_p", "node_t"}));
  EXPECT_EQ(tr->edge_columns, std::vector<std::string>{"edge_r"});
}

}  // namespace
}  // namespace lakeqa::graph::testing
