#include "lakeqa/index/sources.h"

#include <optional>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::index {
namespace {

// "wikidata_id:ID(Player)" → ("ID", "Player"); other names → ("", "").
std::pair<std::string, std::string> TypedColumn(std::string_view c) {
  size_t paren = c.find('(');
  if (paren == std::string_view::npos || c.empty() || c.back() != ')') return {};
  size_t colon = c.rfind(':', paren);
  if (colon == std::string_view::npos) return {};
  return {ToLowerAscii(c.substr(colon + 1, paren - colon - 1)),
          std::string(c.substr(paren + 1, c.size() - paren - 2))};
}

std::vector<std::string> ProfileColumns(const catalog::FileRecord& f) {
  std::vector<std::string> out;
  if (!f.profile || !f.profile->is_object()) return out;
  auto it = f.profile->find("columns");
  if (it == f.profile->end() || !it->is_array()) return out;
  for (const auto& c : *it) {
    if (c.is_object() && c.contains("name") && c["name"].is_string())
      out.push_back(c["name"].get<std::string>());
  }
  return out;
}

// A Neo4j import file's part of the graph summary: "Player" / "Player(name, height)" or
// "playsFor" / "(Player)-[playsFor {start_time}]->(Team)".
struct GraphPart {
  bool relation = false;
  std::string basic, enhanced;
};

std::optional<GraphPart> GraphPartOf(const catalog::FileRecord& f, const std::vector<std::string>& columns) {
  std::string id_label, start, end;
  std::vector<std::string> props;
  for (const auto& c : columns) {
    auto [kind, group] = TypedColumn(c);
    if (kind == "id") id_label = group;
    else if (kind == "start_id") start = group;
    else if (kind == "end_id") end = group;
    else props.push_back(c.substr(0, c.find(':')));
  }
  std::string list;
  for (const auto& p : props) list += (list.empty() ? "" : ", ") + p;
  GraphPart g;
  if (!start.empty() && !end.empty()) {
    std::string stem = f.path.substr(f.path.rfind('/') == std::string::npos ? 0 : f.path.rfind('/') + 1);
    stem = stem.substr(0, stem.rfind('.'));
    if (StartsWith(stem, "relation_")) stem = stem.substr(9);
    g.relation = true;
    g.basic = stem;
    g.enhanced = "(" + start + ")-[" + stem + (list.empty() ? "" : " {" + list + "}") + "]->(" + end + ")";
    return g;
  }
  if (!id_label.empty()) {
    g.basic = id_label;
    g.enhanced = id_label + "(" + list + ")";
    return g;
  }
  return std::nullopt;
}

bool IsTabular(const std::string& format) {
  return format == "csv" || format == "json" || format == "jsonl" || format == "geojson" || format == "xlsx";
}
bool IsProse(const std::string& format) {
  return format == "text" || format == "html" || format == "pdf" || format == "docx";
}

// Appends entries up to a byte cap, then counts what did not fit.
struct Bounded {
  std::string text;
  uint64_t omitted = 0;
  size_t cap = 0;
  void Add(const std::string& entry, const char* sep) {
    if (entry.empty()) return;
    if (omitted > 0 || text.size() + entry.size() + 2 > cap) {
      ++omitted;
      return;
    }
    if (!text.empty()) text += sep;
    text += entry;
  }
  std::string Done() const { return omitted ? text + " ... and " + std::to_string(omitted) + " more" : text; }
};

}  // namespace

std::string SourceOfDataset(const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
  if (d.ns == "wikipedia") return "doc";
  bool tabular = false, prose = false;
  for (const auto& f : files) {
    if (f.is_metadata) continue;
    auto cols = ProfileColumns(f);
    if (GraphPartOf(f, cols)) return "graph";
    tabular = tabular || IsTabular(f.format);
    prose = prose || IsProse(f.format);
  }
  if (tabular) return "table";
  if (prose) return "doc";
  return "";
}

const SourceSummary* SourceSummaries::Find(std::string_view name) const {
  for (const auto& s : sources) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Json SourceSummaries::ToJson() const {
  Json j = Json::object();
  for (const auto& s : sources)
    j[s.name] = {{"datasets", s.datasets}, {"basic", s.basic}, {"enhanced", s.enhanced}};
  return {{"format", "lakeqa-sources-1"}, {"sources", j}};
}

Result<SourceSummaries> SourceSummaries::FromJson(const Json& j, const std::string& where) {
  if (!j.is_object() || j.value("format", "") != "lakeqa-sources-1" || !j.contains("sources"))
    return Corrupt(where + ": not a lakeqa sources file (format lakeqa-sources-1)");
  SourceSummaries out;
  for (const char* name : kSourceNames) {
    SourceSummary s;
    s.name = name;
    if (auto it = j["sources"].find(name); it != j["sources"].end() && it->is_object()) {
      s.datasets = it->value("datasets", uint64_t{0});
      s.basic = it->value("basic", "");
      s.enhanced = it->value("enhanced", "");
    }
    out.sources.push_back(std::move(s));
  }
  return out;
}

Result<SourceSummaries> BuildSourceSummaries(catalog::Catalog& catalog, const std::string& index_dir,
                                             const SourceSummaryOptions& o) {
  std::map<std::string, Bounded> basic, enhanced;
  std::map<std::string, uint64_t> counts;
  for (const char* n : kSourceNames) basic[n].cap = enhanced[n].cap = o.max_summary_bytes;
  // Graph labels first, relations after, each once even when several files carry them.
  std::vector<std::string> graph_nodes_b, graph_nodes_e, graph_rels_b, graph_rels_e;
  std::set<std::string> seen_graph;
  Status s = catalog.ForEachDataset(
      [&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
        std::string src = SourceOfDataset(d, files);
        if (src.empty()) return Status::Ok();
        ++counts[src];
        const std::string& title = d.metadata.title.empty() ? d.dataset_id : d.metadata.title;
        if (src == "doc") {
          basic[src].Add(title, "; ");
          std::string lead(TruncateUtf8(d.metadata.description, 600));
          enhanced[src].Add(title + (lead.empty() ? "" : ": " + lead), "\n");
        } else if (src == "table") {
          basic[src].Add(title, "; ");
          std::string cols;
          for (size_t i = 0; i < d.columns.size() && i < 40; ++i) cols += (i ? ", " : "") + d.columns[i];
          enhanced[src].Add(title + (cols.empty() ? "" : " (" + cols + ")"), "\n");
        } else {
          for (const auto& f : files) {
            if (f.is_metadata) continue;
            auto g = GraphPartOf(f, ProfileColumns(f));
            if (!g || !seen_graph.insert(g->enhanced).second) continue;
            (g->relation ? graph_rels_b : graph_nodes_b).push_back(g->basic);
            (g->relation ? graph_rels_e : graph_nodes_e).push_back(g->enhanced);
          }
        }
        return Status::Ok();
      });
  LAKEQA_RETURN_IF_ERROR(s);
  auto join = [](const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : sep) + x;
    return out;
  };
  SourceSummaries out;
  for (const char* name : kSourceNames) {
    SourceSummary ss;
    ss.name = name;
    ss.datasets = counts[name];
    if (std::string_view(name) == "graph") {
      if (!graph_nodes_b.empty() || !graph_rels_b.empty()) {
        ss.basic = "Node labels: " + join(graph_nodes_b, ", ") +
                   ". Relation types: " + join(graph_rels_b, ", ") + ".";
        ss.enhanced =
            "Nodes: " + join(graph_nodes_e, "; ") + ".\nRelations: " + join(graph_rels_e, "; ") + ".";
      }
    } else if (ss.datasets > 0) {
      std::string what = std::string_view(name) == "doc" ? "Documents" : "Tables";
      ss.basic = what + " (" + std::to_string(ss.datasets) + "): " + basic[name].Done();
      ss.enhanced = what + " (" + std::to_string(ss.datasets) + "):\n" + enhanced[name].Done();
    }
    out.sources.push_back(std::move(ss));
  }
  LAKEQA_RETURN_IF_ERROR(
      WriteFileAtomic(catalog::IndexDir(index_dir).Sources(), DumpJson(out.ToJson(), 2) + "\n"));
  return out;
}

Result<SourceSummaries> LoadSourceSummaries(const std::string& index_dir) {
  std::string path = catalog::IndexDir(index_dir).Sources();
  if (!PathExists(path)) return NotFound("no " + path + " (rebuild the index with `lakeqa index build`)");
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 64 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  return SourceSummaries::FromJson(j, path);
}

Result<std::map<std::string, std::string>> LoadGivenSummaries(const std::string& path) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 16 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  if (!j.is_object())
    return ParseError(path + ": expected an object {\"graph\": ..., \"doc\": ..., \"table\": ...}");
  std::map<std::string, std::string> out;
  for (const char* name : kSourceNames) {
    auto it = j.find(name);
    if (it == j.end() || !it->is_string())
      return ParseError(path + ": no \"" + std::string(name) +
                        "\" summary string (expected graph, doc and table)");
    out[name] = it->get<std::string>();
  }
  return out;
}

}  // namespace lakeqa::index
