// The specs of the graph tools (tool_graph.cc): graph_find_nodes, graph_neighbors, graph_query.
#include "tools/internal.h"
#include "tools/spec_internal.h"

namespace lakeqa::tools::spec {
namespace {

Json Limit() { return IntArg("Maximum results (default 20)", 20, 1); }

ToolSpec FindNodes() {
  ToolSpec t;
  t.name = "graph_find_nodes";
  t.description =
      "Find nodes of the lake's knowledge graph by name (or by another property), ranked: exact, "
      "prefix, contains, every word. Returns node ids (\"Label:id\") with label and name.";
  t.input_schema = InputSchema({{"name", Prop("string", "Text to look for, e.g. \"Dennis Rodman\"")},
                                {"label", Prop("string", "Only nodes of this label, e.g. \"Player\"")},
                                {"property", Prop("string", "Match this property instead of the name")},
                                {"limit", Limit()}},
                               {});
  t.handler = &ToolSet::Impl::GraphFindNodes;
  t.mcp = {"Find knowledge-graph nodes by name", true, false, true};
  t.output_schema =
      Obj({{"nodes", ArrayOf(Obj({{"node", T("string")}, {"label", T("string")}, {"name", T("string")}}))},
           {"count", T("integer")}});
  t.prompt_line = "graph_find_nodes(name, label) → knowledge-graph nodes by name, as \"Label:id\"";
  return t;
}

ToolSpec Neighbors() {
  ToolSpec t;
  t.name = "graph_neighbors";
  t.description =
      "Edges at one graph node: relationship type, direction, the node at the other end and the "
      "edge's properties, with edge ids.";
  t.input_schema = InputSchema(
      {{"node", Prop("string", "Node id \"Label:id\" from graph_find_nodes, e.g. \"Player:Q17717\"")},
       {"type", Prop("string", "Only this relationship type, e.g. \"playsFor\"")},
       {"direction", Prop("string", "out, in or both (default both)")},
       {"limit", Limit()}},
      {"node"});
  t.handler = &ToolSet::Impl::GraphNeighbors;
  t.mcp = {"List a graph node's edges", true, false, true};
  t.output_schema =
      Obj({{"edges", ArrayOf(Obj({{"edge", T("string")}, {"type", T("string")}, {"node", T("string")}}))},
           {"count", T("integer")},
           {"total", T("integer")}});
  t.prompt_line = "graph_neighbors(node, type, direction) → the edges at a node and the nodes they reach";
  return t;
}

ToolSpec Query() {
  ToolSpec t;
  t.name = "graph_query";
  t.description =
      "Run a read-only Cypher query (subset: MATCH patterns with labels, property maps and typed "
      "relationships; WHERE with comparisons, CONTAINS, STARTS/ENDS WITH, IN, AND/OR/NOT, CASE, "
      "toFloat/toInteger/replace/toLower; RETURN with aliases, DISTINCT, count/sum/avg/min/max/"
      "collect; ORDER BY, SKIP, LIMIT). Property values are text. Returns rows plus the ids of every "
      "node and edge the match used.";
  t.input_schema = InputSchema(
      {{"cypher", Prop("string",
                       "One Cypher query, e.g. MATCH (t:Team {name: 'Detroit Pistons'}) "
                       "RETURN t.inception")},
       {"show_sql", Prop("boolean", "Also return the SQL the query was translated to (default false)")}},
      {"cypher"});
  t.handler = &ToolSet::Impl::GraphQuery;
  t.mcp = {"Run a read-only Cypher query over the graph", true, false, true};
  Json ids = Strings();
  t.output_schema = Obj({{"columns", ids},
                         {"rows", ArrayOf(T("array"))},
                         {"nodes", ids},
                         {"edges", ids},
                         {"sql", T("string")}});
  t.prompt_line = "graph_query(cypher) → a read-only Cypher query over the knowledge graph";
  return t;
}

}  // namespace

void AddGraphSpecs(std::vector<ToolSpec>& out) {
  out.push_back(FindNodes());
  out.push_back(Neighbors());
  out.push_back(Query());
}

}  // namespace lakeqa::tools::spec
