// GraphBuilder: Neo4j-import CSV files → the graph folder (graph.h). The whole graph is held while it is
// checked (relation endpoints need every node id), so its size is that of the node and relation files.
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/csv.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/graph/graph.h"

namespace lakeqa::graph {
namespace {

// "wikidata_id:ID(Player)" → name "wikidata_id", kind "ID", group "Player"; "born:int" → ("born", "int", "").
struct Column {
  std::string name, kind, group;
};

Column ParseColumn(std::string_view c) {
  Column out;
  size_t colon = c.rfind(':');
  if (colon == std::string_view::npos) {
    out.name = std::string(c);
    return out;
  }
  // A ':' inside the "(...)" group is part of the group, so look for the kind before any '('.
  size_t paren = c.find('(');
  if (paren != std::string_view::npos && c.back() == ')') {
    size_t kc = c.rfind(':', paren);
    if (kc != std::string_view::npos) {
      out.name = std::string(c.substr(0, kc));
      out.kind = std::string(c.substr(kc + 1, paren - kc - 1));
      out.group = std::string(c.substr(paren + 1, c.size() - paren - 2));
      return out;
    }
  }
  out.name = std::string(c.substr(0, colon));
  out.kind = std::string(c.substr(colon + 1));
  return out;
}

bool IsKind(const Column& c, std::string_view k) { return ToLowerAscii(c.kind) == ToLowerAscii(k); }

uint32_t Fnv1a(std::string_view s, uint32_t h = 2166136261u) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// A row whose field count differs from the header's is skipped (a problem, not an error), in node and
// relationship files alike.
std::optional<std::string> RowWidthProblem(size_t fields, size_t header) {
  if (fields == header) return std::nullopt;
  return "has " + std::to_string(fields) + " fields, the header has " + std::to_string(header) +
         "; row skipped";
}

}  // namespace

std::vector<std::string> CsvHeaderOf(std::string_view text) { return CsvFirstRecord(text); }

FileKind ClassifyHeader(const std::vector<std::string>& header) {
  bool id = false, start = false, end = false;
  for (const auto& h : header) {
    Column c = ParseColumn(h);
    id = id || IsKind(c, "ID");
    start = start || IsKind(c, "START_ID");
    end = end || IsKind(c, "END_ID");
  }
  if (start && end) return FileKind::kRelations;
  if (id && !start && !end) return FileKind::kNodes;
  return FileKind::kNone;
}

std::string NodeKey(std::string_view label, std::string_view id) {
  return std::string(label) + ":" + std::string(id);
}

std::string EdgeKey(std::string_view start_label, std::string_view start_id, std::string_view type,
                    std::string_view end_label, std::string_view end_id,
                    const std::vector<std::string>& props) {
  uint32_t h = 2166136261u;
  for (const auto& p : props) {
    h = Fnv1a(p, h);
    h = Fnv1a(std::string_view("\0", 1), h);
  }
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", h);
  return NodeKey(start_label, start_id) + "-[" + std::string(type) + "]->" + NodeKey(end_label, end_id) +
         "#" + hex;
}

struct GraphBuilder::Impl {
  struct Nodes {
    NodeType type;
    std::vector<std::vector<std::string>> rows;  // id, then properties
    std::unordered_set<std::string> ids;
  };
  struct Edge {
    std::string start, end;
    std::vector<std::string> props;
    uint64_t line = 0;
  };
  struct Edges {
    RelationType type;
    std::vector<Edge> rows;
  };
  std::map<std::string, Nodes> nodes;  // by label
  std::map<std::string, Edges> edges;  // by type
  std::vector<std::string> node_order, edge_order;
};

GraphBuilder::GraphBuilder(size_t max_problems)
    : impl_(std::make_unique<Impl>()), max_problems_(max_problems) {}
GraphBuilder::~GraphBuilder() = default;

void GraphBuilder::AddProblem(const std::string& source, uint64_t line, std::string message) {
  ++schema_.problems_total;
  if (schema_.problems.size() < max_problems_) schema_.problems.push_back({source, line, std::move(message)});
}

Status GraphBuilder::AddFile(const std::string& source, std::string_view stem, std::string_view csv) {
  if (!impl_) impl_ = std::make_unique<Impl>();
  CsvRecords rec(csv);
  std::vector<std::string> header;
  uint64_t line = 0;
  if (!rec.Next(header, line)) return InvalidArgument(source + ": empty file (no header)");
  FileKind kind = ClassifyHeader(header);
  if (kind == FileKind::kNone)
    return InvalidArgument(source +
                           ": not a Neo4j import file (no :ID column, and no :START_ID and :END_ID columns)");
  ++files_;
  std::vector<Column> cols;
  for (const auto& h : header) cols.push_back(ParseColumn(h));
  std::vector<std::string> fields;
  if (kind == FileKind::kNodes) {
    size_t id_col = 0;
    for (size_t i = 0; i < cols.size(); ++i) {
      if (IsKind(cols[i], "ID")) id_col = i;
    }
    std::string label = cols[id_col].group;
    if (label.empty()) {
      // ":ID" without a group: the label is the file's stem (or a :LABEL column, which this format needs
      // only for multi-label nodes; lakeqa gives each node one label).
      label = std::string(stem);
    }
    if (impl_->nodes.count(label)) {
      AddProblem(source, 1,
                 "a second node file for label " + label + " (first: " + impl_->nodes[label].type.source +
                     "); this file is skipped");
      return Status::Ok();
    }
    Impl::Nodes& n = impl_->nodes[label];
    impl_->node_order.push_back(label);
    n.type.label = label;
    n.type.id_column = cols[id_col].name.empty() ? "id" : cols[id_col].name;
    n.type.source = source;
    std::vector<size_t> prop_cols;
    for (size_t i = 0; i < cols.size(); ++i) {
      if (i == id_col || IsKind(cols[i], "LABEL") || IsKind(cols[i], "IGNORE")) continue;
      prop_cols.push_back(i);
      n.type.properties.push_back(cols[i].name);
      n.type.types.push_back(cols[i].kind);
    }
    while (rec.Next(fields, line)) {
      if (auto why = RowWidthProblem(fields.size(), cols.size())) {
        AddProblem(source, line, *why);
        continue;
      }
      const std::string& id = fields[id_col];
      if (id.empty()) {
        AddProblem(source, line, "empty node id; row skipped");
        continue;
      }
      if (!n.ids.insert(id).second) {
        AddProblem(source, line, "duplicate " + label + " id '" + id + "'; the first row is kept");
        continue;
      }
      std::vector<std::string> row;
      row.push_back(id);
      for (size_t c : prop_cols) row.push_back(std::move(fields[c]));
      n.rows.push_back(std::move(row));
    }
    n.type.count = n.rows.size();
    return Status::Ok();
  }
  size_t start_col = 0, end_col = 0;
  std::optional<size_t> type_col;
  std::vector<size_t> prop_cols;
  RelationType base;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (IsKind(cols[i], "START_ID")) start_col = i, base.start_label = cols[i].group;
    else if (IsKind(cols[i], "END_ID")) end_col = i, base.end_label = cols[i].group;
    else if (IsKind(cols[i], "TYPE")) type_col = i;
    else if (!IsKind(cols[i], "IGNORE")) {
      prop_cols.push_back(i);
      base.properties.push_back(cols[i].name);
      base.types.push_back(cols[i].kind);
    }
  }
  if (base.start_label.empty() || base.end_label.empty())
    return InvalidArgument(source + ": :START_ID and :END_ID must name their label, as in :START_ID(Player)");
  std::string file_type(stem);
  if (StartsWith(file_type, "relation_")) file_type = file_type.substr(9);
  base.source = source;
  while (rec.Next(fields, line)) {
    if (auto why = RowWidthProblem(fields.size(), cols.size())) {
      AddProblem(source, line, *why);
      continue;
    }
    std::string type = type_col ? fields[*type_col] : file_type;
    if (type.empty()) {
      AddProblem(source, line, "empty relationship type; row skipped");
      continue;
    }
    auto it = impl_->edges.find(type);
    if (it == impl_->edges.end()) {
      it = impl_->edges.emplace(type, Impl::Edges{}).first;
      it->second.type = base;
      it->second.type.type = type;
      impl_->edge_order.push_back(type);
    } else if (it->second.type.start_label != base.start_label ||
               it->second.type.end_label != base.end_label || it->second.type.properties != base.properties) {
      AddProblem(source, line,
                 "relationship type " + type + " was first read from " + it->second.type.source +
                     " with other endpoint labels or properties; row skipped");
      continue;
    }
    Impl::Edge e;
    e.start = fields[start_col];
    e.end = fields[end_col];
    e.line = line;
    for (size_t c : prop_cols) e.props.push_back(std::move(fields[c]));
    it->second.rows.push_back(std::move(e));
  }
  return Status::Ok();
}

Status GraphBuilder::Write(const std::string& dir) {
  if (!impl_) impl_ = std::make_unique<Impl>();
  schema_.nodes.clear();
  schema_.relations.clear();
  LAKEQA_RETURN_IF_ERROR(RemoveAll(dir + "/nodes"));
  LAKEQA_RETURN_IF_ERROR(RemoveAll(dir + "/edges"));
  LAKEQA_RETURN_IF_ERROR(MakeDirs(dir + "/nodes"));
  LAKEQA_RETURN_IF_ERROR(MakeDirs(dir + "/edges"));
  for (size_t i = 0; i < impl_->node_order.size(); ++i) {
    auto& n = impl_->nodes[impl_->node_order[i]];
    n.type.file = "nodes/" + std::to_string(i) + ".csv";
    std::string out = "_key,_id";
    for (const auto& p : n.type.properties) {
      out += ',';
      AppendCsvField(p, out, CsvQuote::kNonEmpty);
    }
    out += '\n';
    for (const auto& row : n.rows) {
      AppendCsvField(NodeKey(n.type.label, row[0]), out, CsvQuote::kNonEmpty);
      for (const auto& v : row) {
        out += ',';
        AppendCsvField(v, out, CsvQuote::kNonEmpty);
      }
      out += '\n';
    }
    LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/" + n.type.file, out));
    schema_.nodes.push_back(n.type);
  }
  for (size_t i = 0; i < impl_->edge_order.size(); ++i) {
    auto& e = impl_->edges[impl_->edge_order[i]];
    RelationType& t = e.type;
    t.file = "edges/" + std::to_string(i) + ".csv";
    auto start_nodes = impl_->nodes.find(t.start_label);
    auto end_nodes = impl_->nodes.find(t.end_label);
    std::string out = "_key,_start,_end";
    for (const auto& p : t.properties) {
      out += ',';
      AppendCsvField(p, out, CsvQuote::kNonEmpty);
    }
    out += '\n';
    uint64_t kept = 0;
    for (const auto& row : e.rows) {
      // Every row naming an unknown node is reported on its own line: a silently smaller graph would
      // change query answers without anyone knowing why.
      bool ok = true;
      if (start_nodes == impl_->nodes.end() || !start_nodes->second.ids.count(row.start)) {
        AddProblem(t.source, row.line,
                   "start id '" + row.start + "' is not a " + t.start_label + " node; edge skipped");
        ok = false;
      }
      if (end_nodes == impl_->nodes.end() || !end_nodes->second.ids.count(row.end)) {
        AddProblem(t.source, row.line,
                   "end id '" + row.end + "' is not a " + t.end_label + " node; edge skipped");
        ok = false;
      }
      if (!ok) continue;
      AppendCsvField(EdgeKey(t.start_label, row.start, t.type, t.end_label, row.end, row.props), out,
                     CsvQuote::kNonEmpty);
      out += ',';
      AppendCsvField(row.start, out, CsvQuote::kNonEmpty);
      out += ',';
      AppendCsvField(row.end, out, CsvQuote::kNonEmpty);
      for (const auto& v : row.props) {
        out += ',';
        AppendCsvField(v, out, CsvQuote::kNonEmpty);
      }
      out += '\n';
      ++kept;
    }
    t.count = kept;
    LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/" + t.file, out));
    schema_.relations.push_back(t);
  }
  return WriteFileAtomic(dir + "/" + std::string(catalog::IndexDir::kGraphSchemaName),
                         DumpJson(schema_.ToJson(), 2) + "\n");
}

}  // namespace lakeqa::graph
