// Graph: the built graph folder opened for queries. Every query — Cypher, node search, neighbours — is SQL
// run by one exec::SqlSandbox rooted at the graph folder (so read-only, time-limited and capped exactly as
// the `query` tool is); calls are serialised because a DuckDB connection is not shared between threads.
#include <algorithm>
#include <filesystem>
#include <set>

#include "graph/sql_quote.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/exec/sql.h"
#include "lakeqa/graph/cypher.h"
#include "lakeqa/graph/graph.h"

namespace lakeqa::graph {
namespace {

// The columns are known, so DuckDB need not sniff the file on every query.
std::string ReadCsvSql(const std::string& path, const std::vector<std::string>& fixed,
                       const std::vector<std::string>& properties) {
  std::string cols;
  for (const auto& c : fixed) cols += (cols.empty() ? "" : ", ") + SqlStr(c) + ": 'VARCHAR'";
  for (const auto& c : properties) cols += ", " + SqlStr(c) + ": 'VARCHAR'";
  return "read_csv(" + SqlStr(path) +
         ", header=true, auto_detect=false, delim=',', quote='\"', escape='\"', columns={" + cols + "})";
}

// The property a node is named by: "name" when the label has it, else its id.
std::string NameColumn(const NodeType& n) {
  return std::find(n.properties.begin(), n.properties.end(), "name") != n.properties.end() ? QuoteId("name")
                                                                                           : "_id";
}

std::string AsText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

}  // namespace

Json QueryOutput::ToJson(size_t max_ids) const {
  Json j = result.ToJson();
  auto capped = [&](const std::vector<std::string>& v) {
    Json a = Json::array();
    for (size_t i = 0; i < v.size() && i < max_ids; ++i) a.push_back(v[i]);
    return a;
  };
  j["nodes"] = capped(nodes);
  j["edges"] = capped(edges);
  j["nodes_total"] = nodes.size();
  j["edges_total"] = edges.size();
  if (nodes.size() > max_ids || edges.size() > max_ids) j["ids_cut_at"] = max_ids;
  j["evidence_truncated"] = evidence_truncated;
  j["sql"] = sql;
  return j;
}

Graph::~Graph() = default;

Result<std::unique_ptr<Graph>> Graph::Open(const std::string& given_dir, const GraphOptions& options) {
  // Absolute: the SQL names the node and edge files by this path, and the sandbox allows only paths under
  // its root, which it compares as absolute paths (a relative --index made every query a permission error).
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(given_dir, ec);
  const std::string dir = ec ? given_dir : abs.lexically_normal().string();
  std::string path = dir + "/" + std::string(catalog::IndexDir::kGraphSchemaName);
  if (!PathExists(path))
    return NotFound("no graph at " + dir +
                    " (no schema.json; `lakeqa index build` writes it when the lake has Neo4j-import node "
                    "and relation files)");
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 64 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  auto g = std::unique_ptr<Graph>(new Graph());
  LAKEQA_ASSIGN_OR_RETURN(g->schema_, Schema::FromJson(j));
  g->dir_ = dir;
  g->options_ = options;
  exec::SqlLimits limits = options.limits;
  // The evidence query reads more rows than a result may show; results are cut to the caller's caps below.
  limits.max_rows = std::max<uint64_t>(limits.max_rows, options.max_evidence_rows + 1);
  limits.max_result_bytes = std::max<uint64_t>(limits.max_result_bytes, 64ULL << 20);
  auto sb = exec::SqlSandbox::Open(dir, limits);
  if (!sb.ok()) return sb.status().WithContext("opening the graph at " + dir);
  g->sql_ = std::move(*sb);
  return g;
}

Result<exec::SqlResult> Graph::Run(const std::string& sql) { return sql_->Query(sql); }

std::string Graph::NodeTable(const NodeType& n) const {
  return ReadCsvSql(dir_ + "/" + n.file, {"_key", "_id"}, n.properties);
}

std::string Graph::EdgeTable(const RelationType& r) const {
  return ReadCsvSql(dir_ + "/" + r.file, {"_key", "_start", "_end"}, r.properties);
}

Result<QueryOutput> Graph::Query(std::string_view cypher) {
  TableSource tables;
  tables.nodes = [&](const NodeType& n) { return NodeTable(n); };
  tables.edges = [&](const RelationType& r) { return EdgeTable(r); };
  LAKEQA_ASSIGN_OR_RETURN(Translation t, TranslateCypher(cypher, schema_, tables));
  std::lock_guard<std::mutex> lock(mu_);
  QueryOutput out;
  out.sql = t.sql;
  auto r = Run(t.sql);
  if (!r.ok()) return Status(r.status().code(), r.status().message() + " [translated SQL: " + t.sql + "]");
  out.result = std::move(*r);
  // The caller's caps, as the query tool applies them.
  uint64_t bytes = 0;
  for (size_t i = 0; i < out.result.rows.size(); ++i) {
    bytes += DumpJson(Json(out.result.rows[i])).size() + 1;
    if (i >= options_.limits.max_rows || bytes > options_.limits.max_result_bytes) {
      out.result.rows.resize(i);
      out.result.truncated = true;
      break;
    }
  }
  auto ev = Run(t.evidence_sql + " LIMIT " + std::to_string(options_.max_evidence_rows + 1));
  if (!ev.ok()) return ev.status().WithContext("reading the nodes and edges the query matched");
  std::set<std::string> nodes, edges;
  size_t rows = ev->rows.size();
  out.evidence_truncated = rows > options_.max_evidence_rows || ev->truncated;
  for (size_t i = 0; i < rows && i < options_.max_evidence_rows; ++i) {
    const auto& row = ev->rows[i];
    for (size_t c = 0; c < row.size() && c < ev->columns.size(); ++c) {
      if (!row[c].is_string()) continue;
      if (c < t.node_columns.size()) nodes.insert(row[c].get<std::string>());
      else edges.insert(row[c].get<std::string>());
    }
  }
  out.nodes.assign(nodes.begin(), nodes.end());
  out.edges.assign(edges.begin(), edges.end());
  return out;
}

Result<std::vector<NodeMatch>> Graph::FindNodes(std::string_view text_in, std::string_view label,
                                                std::string_view property, size_t limit) {
  std::string text = ToLowerAscii(Trim(text_in));
  std::vector<const NodeType*> types;
  for (const auto& n : schema_.nodes) {
    if (label.empty() || n.label == label) types.push_back(&n);
  }
  if (types.empty()) {
    std::string labels;
    for (const auto& n : schema_.nodes) labels += (labels.empty() ? "" : ", ") + n.label;
    return NotFound("no node label '" + std::string(label) + "'; the labels are " + labels);
  }
  if (text.empty() && label.empty())
    return InvalidArgument("give a name (or property value) to look for, or a label to list");
  std::vector<std::string> words;
  for (auto w : Split(text, ' ')) {
    if (!Trim(w).empty()) words.push_back(std::string(Trim(w)));
  }
  std::string u;
  for (const auto* n : types) {
    std::string col;
    if (property.empty() || property == "name") {
      col = NameColumn(*n);
    } else if (property == n->id_column) {
      col = "_id";
    } else if (std::find(n->properties.begin(), n->properties.end(), property) != n->properties.end()) {
      col = QuoteId(property);
    } else {
      if (!label.empty()) {
        std::string props = n->id_column;
        for (const auto& p : n->properties) props += ", " + p;
        return InvalidArgument(n->label + " has no property '" + std::string(property) +
                               "'; its properties are " + props);
      }
      continue;  // other labels may have it
    }
    std::string x = "lower(CAST(" + col + " AS VARCHAR))";
    std::string score, cond;
    if (text.empty()) {
      score = "0";
      cond = "true";
    } else {
      std::string all;
      for (const auto& w : words)
        all += (all.empty() ? "" : " AND ") + std::string("contains(" + x + ", " + SqlStr(w) + ")");
      score = "CASE WHEN " + x + " = " + SqlStr(text) + " THEN 4 WHEN starts_with(" + x + ", " +
              SqlStr(text) + ") THEN 3 WHEN contains(" + x + ", " + SqlStr(text) + ") THEN 2 ELSE 1 END";
      cond = all.empty() ? "true" : all;
    }
    u += (u.empty() ? "" : " UNION ALL ") + std::string("SELECT _key, ") + SqlStr(n->label) +
         " AS label, CAST(" + NameColumn(*n) + " AS VARCHAR) AS name, " + score + " AS score, " +
         SqlStr(property.empty() ? "name" : std::string(property)) + " AS matched FROM " + NodeTable(*n) +
         " WHERE " + cond;
  }
  if (u.empty()) return InvalidArgument("no node label has a property '" + std::string(property) + "'");
  std::string sql = "SELECT _key, label, name, score, matched FROM (" + u +
                    ") ORDER BY score DESC, length(name), _key LIMIT " + std::to_string(limit);
  std::lock_guard<std::mutex> lock(mu_);
  LAKEQA_ASSIGN_OR_RETURN(exec::SqlResult r, Run(sql));
  static const char* const kHow[] = {"", "every word", "contains", "prefix", "exact"};
  std::vector<NodeMatch> out;
  for (const auto& row : r.rows) {
    NodeMatch m;
    m.key = AsText(row[0]);
    m.label = AsText(row[1]);
    m.name = AsText(row[2]);
    m.score = row[3].is_number() ? row[3].get<double>() : 0;
    int s = static_cast<int>(m.score);
    m.matched = text.empty() ? "listed" : AsText(row[4]) + " " + kHow[std::clamp(s, 0, 4)];
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::string> Graph::ResolveNode(std::string_view ref_in) {
  std::string ref(Trim(ref_in));
  if (ref.empty()) return InvalidArgument("empty node reference (give \"Label:id\", e.g. \"Player:Q17717\")");
  size_t colon = ref.find(':');
  std::vector<std::pair<const NodeType*, std::string>> candidates;
  if (colon != std::string::npos && schema_.Node(ref.substr(0, colon))) {
    candidates.push_back({schema_.Node(ref.substr(0, colon)), ref.substr(colon + 1)});
  } else {
    for (const auto& n : schema_.nodes) candidates.push_back({&n, ref});
  }
  std::string u;
  for (const auto& [n, id] : candidates)
    u += (u.empty() ? "" : " UNION ALL ") + std::string("SELECT _key FROM ") + NodeTable(*n) +
         " WHERE _id = " + SqlStr(id);
  std::lock_guard<std::mutex> lock(mu_);
  LAKEQA_ASSIGN_OR_RETURN(exec::SqlResult r, Run(u + " LIMIT 20"));
  if (r.rows.empty())
    return NotFound(
        "no node '" + ref +
        "' (a node is named \"Label:id\", e.g. \"Player:Q17717\"; graph_find_nodes finds ids by name)");
  if (r.rows.size() > 1) {
    std::string keys;
    for (const auto& row : r.rows) keys += (keys.empty() ? "" : ", ") + AsText(row[0]);
    return InvalidArgument("'" + ref + "' names several nodes (" + keys + "); give the label too");
  }
  return AsText(r.rows[0][0]);
}

Result<std::vector<NeighborEdge>> Graph::Neighbors(std::string_view node, std::string_view type,
                                                   std::string_view direction, size_t limit,
                                                   uint64_t* total) {
  if (direction != "out" && direction != "in" && direction != "both")
    return InvalidArgument("direction must be out, in or both, got '" + std::string(direction) + "'");
  if (!type.empty() && !schema_.Relation(type)) {
    std::string types;
    for (const auto& r : schema_.relations) types += (types.empty() ? "" : ", ") + r.type;
    return NotFound("no relationship type '" + std::string(type) + "'; the types are " + types);
  }
  LAKEQA_ASSIGN_OR_RETURN(std::string key, ResolveNode(node));
  size_t colon = key.find(':');
  std::string label = key.substr(0, colon), id = key.substr(colon + 1);
  std::string u;
  for (const auto& r : schema_.relations) {
    if (!type.empty() && r.type != type) continue;
    for (int side = 0; side < 2; ++side) {
      bool out = side == 0;
      if ((out && direction == "in") || (!out && direction == "out")) continue;
      if ((out ? r.start_label : r.end_label) != label) continue;
      const NodeType* other = schema_.Node(out ? r.end_label : r.start_label);
      std::string props;
      for (const auto& p : r.properties)
        props += (props.empty() ? "" : ", ") + QuoteId(p) + " := e." + QuoteId(p);
      std::string other_col = out ? "e._end" : "e._start";
      u += (u.empty() ? "" : " UNION ALL ") + std::string("SELECT e._key, ") + SqlStr(r.type) + " AS type, " +
           SqlStr(out ? "out" : "in") + " AS dir, " + SqlStr(other->label + ":") + " || " + other_col +
           " AS other, " + SqlStr(other->label) + " AS other_label, CAST(n." + NameColumn(*other) +
           " AS VARCHAR) AS other_name, " +
           (props.empty() ? std::string("'{}'") : "CAST(to_json(struct_pack(" + props + ")) AS VARCHAR)") +
           " AS props FROM " + EdgeTable(r) + " AS e LEFT JOIN " + NodeTable(*other) +
           " AS n ON n._id = " + other_col + " WHERE " + (out ? "e._start" : "e._end") + " = " + SqlStr(id);
    }
  }
  std::vector<NeighborEdge> edges;
  if (total) *total = 0;
  if (u.empty()) return edges;
  std::string sql = "SELECT *, count(*) OVER () AS total FROM (" + u +
                    ") ORDER BY type, dir, other_name, _key LIMIT " + std::to_string(limit);
  std::lock_guard<std::mutex> lock(mu_);
  LAKEQA_ASSIGN_OR_RETURN(exec::SqlResult r, Run(sql));
  for (const auto& row : r.rows) {
    NeighborEdge e;
    e.edge_key = AsText(row[0]);
    e.type = AsText(row[1]);
    e.direction = AsText(row[2]);
    e.node_key = AsText(row[3]);
    e.node_label = AsText(row[4]);
    e.node_name = AsText(row[5]);
    auto p = ParseJson(AsText(row[6]), "edge properties");
    Json props = Json::object();
    if (p.ok() && p->is_object()) {
      for (const auto& [k, v] : p->items()) {
        if (!v.is_null()) props[k] = v;
      }
    }
    e.properties = std::move(props);
    if (total && row[7].is_number()) *total = row[7].get<uint64_t>();
    edges.push_back(std::move(e));
  }
  return edges;
}

}  // namespace lakeqa::graph
