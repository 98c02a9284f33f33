// The graph tools: graph_find_nodes, graph_neighbors, graph_query over <index>/graph (graph/graph.h). Every
// result names the node and edge identities it used. The trace records, as lake datasets (the files those
// labels and relationship types were read from), what each tool returned (D_ret: the candidates it showed)
// and what it read (D_acc):
//   graph_find_nodes  returned: the labels of the nodes found;      read: nothing (a search)
//   graph_neighbors   returned: the edges' types and the labels at their other ends;
//                     read: the relationship types of the edges returned (their rows and properties)
//   graph_query       returned and read: the labels and types of every node and edge the match used
#include <algorithm>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/graph/graph.h"
#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

Result<graph::Graph*> GraphOf(ToolSet& t, std::unique_ptr<graph::Graph>& g) {
  if (!g)
    return Status(
        ErrorCode::kUnavailable,
        "this lake has no graph (no Neo4j-import node/relation files were found when the index was built)");
  return g.get();
}

// "cmdbench/graph_nodes_Player" for a lake key "cmdbench/graph_nodes_Player/Player.csv".
std::string DatasetOfKey(const std::string& key) {
  std::string ns, id, path;
  catalog::SplitKey(key, ns, id, path);
  return id.empty() ? "" : ns + "/" + id;
}

void AddUnique(std::vector<std::string>& v, const std::string& x) {
  if (!x.empty() && std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// The datasets behind node keys ("Label:id") and edge keys ("...-[type]->...").
std::vector<std::string> Accessed(const graph::Schema& s, const std::vector<std::string>& nodes,
                                  const std::vector<std::string>& edges) {
  std::vector<std::string> out;
  std::set<std::string> labels, types;
  for (const auto& n : nodes) labels.insert(n.substr(0, n.find(':')));
  for (const auto& e : edges) {
    size_t a = e.find("-["), b = e.find("]->");
    if (a != std::string::npos && b != std::string::npos) types.insert(e.substr(a + 2, b - a - 2));
  }
  for (const auto& l : labels) {
    if (const auto* n = s.Node(l)) AddUnique(out, DatasetOfKey(n->source));
  }
  for (const auto& t : types) {
    if (const auto* r = s.Relation(t)) AddUnique(out, DatasetOfKey(r->source));
  }
  return out;
}

}  // namespace

Status ToolSet::Impl::OpenGraph(ToolSet& t, const std::string& index_dir) {
  const catalog::IndexDir dir(index_dir);
  if (!PathExists(dir.GraphSchema())) return Status::Ok();
  auto g = graph::Graph::Open(dir.Graph());
  if (!g.ok()) return g.status().WithContext("opening the graph of " + index_dir);
  t.graph_ = std::move(*g);
  return Status::Ok();
}

Result<ToolOutput> ToolSet::Impl::GraphFindNodes(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(graph::Graph * g, GraphOf(t, t.graph_));
  LAKEQA_ASSIGN_OR_RETURN(std::string name, ArgString(args, "name", false));
  LAKEQA_ASSIGN_OR_RETURN(std::string label, ArgString(args, "label", false));
  LAKEQA_ASSIGN_OR_RETURN(std::string property, ArgString(args, "property", false));
  LAKEQA_ASSIGN_OR_RETURN(int64_t limit,
                          ArgInt(args, "limit", 20, 1, static_cast<int64_t>(s.limits().max_search_results)));
  LAKEQA_ASSIGN_OR_RETURN(auto found, g->FindNodes(name, label, property, static_cast<size_t>(limit)));
  ToolOutput out;
  Json a = Json::array();
  std::vector<std::string> keys;
  for (const auto& m : found) {
    a.push_back({{"node", m.key}, {"label", m.label}, {"name", m.name}, {"matched", m.matched}});
    keys.push_back(m.key);
  }
  out.result = {{"nodes", a}, {"count", found.size()}};
  out.returned = Accessed(g->schema(), keys, {});
  out.summary = std::to_string(found.size()) + " nodes";
  return out;
}

Result<ToolOutput> ToolSet::Impl::GraphNeighbors(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(graph::Graph * g, GraphOf(t, t.graph_));
  LAKEQA_ASSIGN_OR_RETURN(std::string node, ArgString(args, "node", true));
  LAKEQA_ASSIGN_OR_RETURN(std::string type, ArgString(args, "type", false));
  LAKEQA_ASSIGN_OR_RETURN(std::string direction, ArgString(args, "direction", false));
  LAKEQA_ASSIGN_OR_RETURN(int64_t limit,
                          ArgInt(args, "limit", 20, 1, static_cast<int64_t>(s.limits().max_search_results)));
  uint64_t total = 0;
  LAKEQA_ASSIGN_OR_RETURN(auto edges, g->Neighbors(node, type, direction.empty() ? "both" : direction,
                                                   static_cast<size_t>(limit), &total));
  ToolOutput out;
  Json a = Json::array();
  std::vector<std::string> nodes, ekeys;
  for (const auto& e : edges) {
    a.push_back({{"edge", e.edge_key},
                 {"type", e.type},
                 {"direction", e.direction},
                 {"node", e.node_key},
                 {"node_label", e.node_label},
                 {"node_name", e.node_name},
                 {"properties", e.properties}});
    nodes.push_back(e.node_key);
    ekeys.push_back(e.edge_key);
  }
  out.result = {{"edges", a}, {"count", edges.size()}, {"total", total}};
  if (total > edges.size())
    out.result["note"] = "more edges than the limit: raise limit or filter by type/direction";
  // The nodes at the other ends are shown by id and name only, as a search shows hits: returned, not read.
  // Only the edges returned were read; the relationship types the limit left out were not.
  out.returned = Accessed(g->schema(), nodes, ekeys);
  out.accessed = Accessed(g->schema(), {}, ekeys);
  out.summary = std::to_string(edges.size()) + " of " + std::to_string(total) + " edges";
  return out;
}

// The host path of the index never reaches a client: the graph folder is named "<index>/graph".
static std::string HideGraphDir(std::string text, const std::string& dir) {
  if (dir.empty()) return text;
  for (size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at + 1))
    text.replace(at, dir.size(), "<index>/graph");
  return text;
}

Result<ToolOutput> ToolSet::Impl::GraphQuery(ToolSet& t, Session&, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(graph::Graph * g, GraphOf(t, t.graph_));
  LAKEQA_ASSIGN_OR_RETURN(std::string cypher, ArgString(args, "cypher", true));
  bool show_sql = false;
  if (auto it = args.find("show_sql"); it != args.end() && !it->is_null()) {
    if (!it->is_boolean()) return InvalidArgument("argument 'show_sql' must be true or false");
    show_sql = it->get<bool>();
  }
  auto r = g->Query(cypher);
  if (!r.ok()) return Status(r.status().code(), HideGraphDir(r.status().message(), g->dir()));
  ToolOutput out;
  out.result = r->ToJson(200);
  // The generated SQL (about 1.5 KB of read_csv calls) helps a person debugging a translation, not a model.
  if (show_sql) out.result["sql"] = HideGraphDir(r->sql, g->dir());
  else out.result.erase("sql");
  // The rows and identities it returned are what the match read: both D_ret and D_acc, so a task solved
  // with graph_query alone has its gold datasets retrieved, as one solved by search and download has.
  out.returned = Accessed(g->schema(), r->nodes, r->edges);
  out.accessed = out.returned;
  out.summary = std::to_string(r->result.rows.size()) + " rows; " + std::to_string(r->nodes.size()) +
                " nodes, " + std::to_string(r->edges.size()) + " edges matched";
  return out;
}

}  // namespace lakeqa::tools
