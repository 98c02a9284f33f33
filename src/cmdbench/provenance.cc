// `lakeqa run --provide-provenance` (cmdbench/provenance.h): what each kind of CMDBench question is handed
// and how it is worded. The contents are read by provenance_table.cc, provenance_graph.cc and
// provenance_doc.cc.
#include "lakeqa/cmdbench/provenance.h"

#include <map>
#include <memory>

#include <fmt/format.h>

#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/strings.h"

#include "cmdbench/provenance_gold.h"

namespace lakeqa::cmdbench {
namespace {

// The bounds of what one question is handed. CMDBench's oracle writes the gold element into the prompt; its
// gold tables are WikiSQL tables of tens of rows and most gold sub-graphs a handful of elements, but a table
// may hold thousands of rows and a sub-graph question match hundreds of edges. 16 KiB (about 4k tokens) per
// table, sub-graph, paragraph set or source keeps the first message inside every model's context and a run's
// cost near that of normal discovery; a cut is always said, with the totals, and the tools reach the rest.
constexpr size_t kMaxTableRows = 100;
constexpr size_t kMaxBytes = 16 << 10;
constexpr size_t kMaxGraphElements = 200;

// What run.json's config says each kind was given.
const std::map<CmdbenchKind, std::string>& Modes() {
  static const auto* modes = new std::map<CmdbenchKind, std::string>{
      {CmdbenchKind::kTable,
       fmt::format(
           "the gold table's dataset id, provenance columns and rows as CSV (at most {} rows and {} KiB "
           "per table), read from the lake",
           kMaxTableRows, kMaxBytes >> 10)},
      {CmdbenchKind::kGraph,
       fmt::format(
           "the sub-graph the provenance Cypher matches in the index's graph: nodes with their properties, "
           "edges with start, type, end and properties (at most {} elements and {} KiB)",
           kMaxGraphElements, kMaxBytes >> 10)},
      {CmdbenchKind::kDoc,
       fmt::format("each gold paragraph with its page title and id, read from the page in the lake, else the "
                   "question file's text (at most {} KiB)",
                   kMaxBytes >> 10)},
      {CmdbenchKind::kSource, "the gold source(s) by name; the graph's node labels and relationship types"},
  };
  return *modes;
}

constexpr std::string_view kIntro =
    "\n\nPROVENANCE (given for this run, no need to search for it): the answer is in";

std::string Count(uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Cuts `text` to `budget` bytes at a character boundary, saying so; returns whether it cut.
bool CutTo(std::string& text, size_t budget) {
  if (text.size() <= budget) return false;
  size_t total = text.size();
  text = std::string(TruncateUtf8(text, budget)) + fmt::format(" [cut at {} of {} bytes]", budget, total);
  return true;
}

struct Given {
  uint64_t tasks = 0, cut = 0, from_question_file = 0;
};

class Provider {
 public:
  explicit Provider(const ProvenanceSources& s) : s_(s) {}

  // The text appended to the task's question; `given` counts it, and whether a bound cut it.
  Result<std::string> Of(const eval::Task& t, const CmdbenchQuestion& q, Given& given) {
    switch (q.kind) {
      case CmdbenchKind::kTable: return Table(t, q, given);
      case CmdbenchKind::kGraph: return Subgraph(q, given);
      case CmdbenchKind::kDoc: return Paragraphs(q, given);
      case CmdbenchKind::kSource: return Sources(q, given);
    }
    return Internal("unknown CMDBench question kind");
  }

 private:
  Result<std::string> Table(const eval::Task& t, const CmdbenchQuestion& q, Given& given) {
    std::string out;
    std::string columns;
    for (const auto& c : q.columns) columns += (columns.empty() ? "" : ", ") + c;
    // The task's nodes are its gold files (CmdbenchGoldFiles), one per table.
    for (const eval::Node& n : t.nodes) {
      LAKEQA_ASSIGN_OR_RETURN(eval::DatasetRef ds, eval::ParseDatasetPath(n.source));
      LAKEQA_ASSIGN_OR_RETURN(provenance::GoldTable table,
                              provenance::ReadGoldTable(*s_.lake, n.source, kMaxTableRows, kMaxBytes));
      bool cut = table.rows_kept < table.rows_total;
      given.cut += cut ? 1 : 0;
      out += fmt::format("\n- the table {} (lake file {}){}; its rows as CSV{}:\n{}", ds.Key(), n.source,
                         columns.empty() ? "" : "; provenance columns " + columns,
                         cut ? fmt::format(" (first {} of {} rows)", table.rows_kept, table.rows_total) : "",
                         table.csv);
    }
    return out;
  }

  Result<std::string> Subgraph(const CmdbenchQuestion& q, Given& given) {
    LAKEQA_ASSIGN_OR_RETURN(graph::Graph * g, Graph());
    LAKEQA_ASSIGN_OR_RETURN(provenance::GoldSubgraph sub,
                            provenance::MatchGoldSubgraph(*g, q.cypher, kMaxGraphElements));
    std::string lines;
    size_t nodes = 0, edges = 0;
    auto props = [](const Json& p) { return p.empty() ? std::string() : " " + DumpJson(p); };
    // As with the element bound, nodes leave the edges at least half of the bytes when there are edges.
    size_t node_bytes = sub.edges.empty() ? kMaxBytes : kMaxBytes / 2;
    for (const auto& n : sub.nodes) {
      std::string line = "  node " + n.key + props(n.properties) + "\n";
      if (lines.size() + line.size() > node_bytes) break;
      lines += line;
      ++nodes;
    }
    for (const auto& e : sub.edges) {
      std::string line = fmt::format("  edge {}: start {}, type {}, end {}{}\n", e.key, e.start, e.type,
                                     e.end, props(e.properties));
      if (lines.size() + line.size() > kMaxBytes) break;
      lines += line;
      ++edges;
    }
    bool cut = nodes < sub.nodes_total || edges < sub.edges_total;
    given.cut += cut ? 1 : 0;
    std::string at_least = sub.totals_partial ? "at least " : "";
    return fmt::format(
        "\n- the sub-graph its provenance query matches in the graph: {}{}, {}{}{}:\n{}", at_least,
        Count(sub.nodes_total, "node"), at_least, Count(sub.edges_total, "edge"),
        cut ? fmt::format(" (the first {} and {} shown)", Count(nodes, "node"), Count(edges, "edge")) : "",
        lines);
  }

  Result<std::string> Paragraphs(const CmdbenchQuestion& q, Given& given) {
    std::string out;
    size_t budget = kMaxBytes;
    bool cut = false;
    for (const auto& p : q.paragraphs) {
      LAKEQA_ASSIGN_OR_RETURN(provenance::GoldParagraph gp, provenance::ReadGoldParagraph(*s_.lake, p));
      given.from_question_file += gp.from_lake ? 0 : 1;
      std::string text = gp.text;
      cut = CutTo(text, budget) || cut;
      budget -= std::min(budget, text.size());
      std::string id = p.paragraph_id < 0 ? std::string("(no id)") : std::to_string(p.paragraph_id);
      out += gp.from_lake ? fmt::format("\n- the page {}, paragraph {} (lake file {}):\n{}\n", p.title, id,
                                        gp.key, text)
                          : fmt::format(
                                "\n- the page {}, paragraph {} (not in the lake: {}; the question file's "
                                "text):\n{}\n",
                                p.title, id, gp.why_not_lake, text);
    }
    given.cut += cut ? 1 : 0;
    return out;
  }

  // The routing oracle: which source, and for the graph what is in it, but nothing of the answer's data.
  Result<std::string> Sources(const CmdbenchQuestion& q, Given& given) {
    std::string out;
    for (const auto& s : q.sources) {
      if (s == "doc") {
        out += "\n- the doc source: the Wikipedia pages (lake namespace wikipedia, one dataset per page)";
      } else if (s == "table") {
        out +=
            "\n- the table source: the lake's tables (CMDBench's WikiSQL tables are the datasets "
            "cmdbench/<table>)";
      } else if (s == "graph") {
        LAKEQA_ASSIGN_OR_RETURN(graph::Graph * g, Graph());
        std::string labels, types;
        for (const auto& n : g->schema().nodes) labels += (labels.empty() ? "" : ", ") + n.label;
        for (const auto& r : g->schema().relations) {
          types +=
              fmt::format("{}({})-[{}]->({})", types.empty() ? "" : ", ", r.start_label, r.type, r.end_label);
        }
        std::string line = "the graph source: node labels " + labels + "; relationship types " + types;
        given.cut += CutTo(line, kMaxBytes) ? 1 : 0;
        out += "\n- " + line;
      } else {
        return InvalidArgument("unknown source '" + s + "' (the sources are graph, doc, table)");
      }
    }
    return out;
  }

  Result<graph::Graph*> Graph() {
    if (graph_) return graph_.get();
    if (s_.index_dir.empty())
      return InvalidArgument("the gold sub-graph is read from the index's graph: pass --index");
    auto g = graph::Graph::Open(catalog::IndexDir(s_.index_dir).Graph());
    if (!g.ok()) return g.status().WithContext("opening the index's graph for the gold sub-graph");
    graph_ = std::move(*g);
    return graph_.get();
  }

  const ProvenanceSources& s_;
  std::unique_ptr<graph::Graph> graph_;
};

}  // namespace

Result<Json> ProvideCmdbenchProvenance(std::vector<eval::Task>& tasks, const ProvenanceSources& sources) {
  // Every task is checked before anything is read: a task set with one non-CMDBench task is refused at once.
  for (const auto& t : tasks) {
    if (Of(t) == nullptr) {
      return InvalidArgument(
          fmt::format("--provide-provenance hands the agent a CMDBench question's provenance; "
                      "task {} ({}) is not a CMDBench question",
                      t.id, t.Where()));
    }
  }
  if (sources.lake == nullptr)
    return InvalidArgument("--provide-provenance reads the gold from the lake: pass --lake");
  Provider provider(sources);
  std::map<CmdbenchKind, Given> given;
  for (auto& t : tasks) {
    const CmdbenchQuestion& q = *Of(t);
    Given& g = given[q.kind];
    auto text = provider.Of(t, q, g);
    if (!text.ok()) {
      return Status(text.status().code(),
                    fmt::format("--provide-provenance: task {} ({}, a CMDBench {} question): {}", t.id,
                                t.Where(), CmdbenchKindName(q.kind), text.status().message()));
    }
    ++g.tasks;
    // The prompt puts its own blank line after the question.
    while (text->ends_with('\n')) text->pop_back();
    t.question += std::string(kIntro) + *text;
  }
  Json out = Json::object();
  for (const auto& [kind, g] : given) {
    Json k = {{"tasks", g.tasks}, {"given", Modes().at(kind)}, {"cut", g.cut}};
    if (kind == CmdbenchKind::kDoc) k["paragraphs_from_question_file"] = g.from_question_file;
    out[std::string(CmdbenchKindName(kind))] = std::move(k);
  }
  return out;
}

}  // namespace lakeqa::cmdbench
