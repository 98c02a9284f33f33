// --provide-provenance, graph questions: the sub-graph the provenance Cypher matches, with the properties of
// its nodes and edges, read by Cypher through the same graph::Graph the graph tools query.
#include <algorithm>
#include <map>

#include "cmdbench/provenance_gold.h"

namespace lakeqa::cmdbench::provenance {
namespace {

std::string Name(std::string_view name) { return "`" + std::string(name) + "`"; }

std::string Literal(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string IdList(const std::vector<std::string>& keys) {
  std::string out = "[";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + Literal(keys[i]);
  return out + "]";
}

// The node label of "Label:id": the longest label of the schema the key starts with.
const graph::NodeType* LabelOf(const graph::Schema& s, std::string_view key) {
  const graph::NodeType* best = nullptr;
  for (const auto& n : s.nodes) {
    if (key.starts_with(n.label + ":") && (best == nullptr || n.label.size() > best->label.size())) best = &n;
  }
  return best;
}

const graph::RelationType* TypeOf(const graph::Schema& s, std::string_view key) {
  for (const auto& r : s.relations) {
    if (key.starts_with(r.start_label + ":") &&
        key.find("-[" + r.type + "]->" + r.end_label + ":") != std::string_view::npos)
      return &r;
  }
  return nullptr;
}

// Runs `cypher`, whose first columns are `ids` identities and the rest the `props` in order; returns the
// elements by their first identity.
Result<std::map<std::string, GoldElement>> ReadElements(graph::Graph& g, const std::string& cypher,
                                                        size_t ids, const std::vector<std::string>& props) {
  LAKEQA_ASSIGN_OR_RETURN(graph::QueryOutput out, g.Query(cypher));
  std::map<std::string, GoldElement> by_key;
  for (const auto& row : out.result.rows) {
    if (row.size() != ids + props.size() || !row[0].is_string()) {
      return Internal("reading the matched graph elements: unexpected row " + DumpJson(Json(row)));
    }
    GoldElement e;
    e.key = row[0].get<std::string>();
    if (ids == 3) {
      e.start = row[1].is_string() ? row[1].get<std::string>() : "";
      e.end = row[2].is_string() ? row[2].get<std::string>() : "";
    }
    e.properties = Json::object();
    for (size_t i = 0; i < props.size(); ++i) {
      if (!row[ids + i].is_null()) e.properties[props[i]] = row[ids + i];
    }
    by_key.emplace(e.key, std::move(e));
  }
  return by_key;
}

std::string PropertyColumns(std::string_view var, const std::vector<std::string>& props) {
  std::string out;
  for (const auto& p : props) out += ", " + std::string(var) + "." + Name(p);
  return out;
}

}  // namespace

Result<GoldSubgraph> MatchGoldSubgraph(graph::Graph& g, std::string_view cypher, size_t max_elements) {
  LAKEQA_ASSIGN_OR_RETURN(graph::QueryOutput matched, g.Query(cypher));
  GoldSubgraph out;
  out.nodes_total = matched.nodes.size();
  out.edges_total = matched.edges.size();
  out.totals_partial = matched.evidence_truncated;
  // A sub-graph question can match many nodes and many edges: both kinds are shown, not only the first.
  size_t take_nodes =
      std::min(matched.nodes.size(),
               std::max(max_elements / 2, max_elements - std::min(max_elements, matched.edges.size())));
  size_t take_edges = std::min(matched.edges.size(), max_elements - take_nodes);
  const graph::Schema& schema = g.schema();

  std::map<const graph::NodeType*, std::vector<std::string>> by_label;
  for (size_t i = 0; i < take_nodes; ++i) {
    const graph::NodeType* n = LabelOf(schema, matched.nodes[i]);
    if (n == nullptr)
      return Internal("matched node " + matched.nodes[i] + " has no label of the graph's schema");
    by_label[n].push_back(matched.nodes[i]);
  }
  std::map<std::string, GoldElement> nodes;
  for (const auto& [n, keys] : by_label) {
    std::string q = "MATCH (n:" + Name(n->label) + ") WHERE id(n) IN " + IdList(keys) + " RETURN id(n)" +
                    PropertyColumns("n", n->properties);
    LAKEQA_ASSIGN_OR_RETURN(auto read, ReadElements(g, q, 1, n->properties));
    nodes.merge(read);
  }
  std::map<const graph::RelationType*, std::vector<std::string>> by_type;
  for (size_t i = 0; i < take_edges; ++i) {
    const graph::RelationType* r = TypeOf(schema, matched.edges[i]);
    if (r == nullptr)
      return Internal("matched edge " + matched.edges[i] + " has no type of the graph's schema");
    by_type[r].push_back(matched.edges[i]);
  }
  std::map<std::string, GoldElement> edges;
  for (const auto& [r, keys] : by_type) {
    std::string q = "MATCH (a:" + Name(r->start_label) + ")-[r:" + Name(r->type) +
                    "]->(b:" + Name(r->end_label) + ") WHERE id(r) IN " + IdList(keys) +
                    " RETURN id(r), id(a), id(b)" + PropertyColumns("r", r->properties);
    LAKEQA_ASSIGN_OR_RETURN(auto read, ReadElements(g, q, 3, r->properties));
    for (auto& [key, e] : read) e.type = r->type;
    edges.merge(read);
  }
  // In the order the query matched them.
  for (size_t i = 0; i < take_nodes; ++i) {
    auto it = nodes.find(matched.nodes[i]);
    if (it == nodes.end()) return Internal("matched node " + matched.nodes[i] + " could not be read back");
    out.nodes.push_back(std::move(it->second));
  }
  for (size_t i = 0; i < take_edges; ++i) {
    auto it = edges.find(matched.edges[i]);
    if (it == edges.end()) return Internal("matched edge " + matched.edges[i] + " could not be read back");
    out.edges.push_back(std::move(it->second));
  }
  return out;
}

}  // namespace lakeqa::cmdbench::provenance
