// `lakeqa graph query --index <dir> "<cypher>"`, `lakeqa graph find --index <dir> <text> [--label L]
// [--property P]`, `lakeqa graph neighbors --index <dir> <node> [--type T] [--direction out|in|both]`,
// `lakeqa graph schema --index <dir>`: the graph view of <index>/graph (docs/cmdbench.md), as the
// graph_query / graph_find_nodes / graph_neighbors tools see it.
#include <fmt/format.h>

#include "cli/command.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/graph/graph.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index, text, label, property, type, direction = "both";
  size_t limit = 20;
  OutputOptions out;
};

Result<std::unique_ptr<graph::Graph>> OpenGraph(const Opts& o) {
  return graph::Graph::Open(catalog::IndexDir(o.index).Graph());
}

int Query(const Opts& o) {
  auto g = OpenGraph(o);
  if (!g.ok()) return Fail(g.status(), o.out);
  auto r = (*g)->Query(o.text);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (o.out.json) {
    PrintJson(r->ToJson());
    return 0;
  }
  fmt::print("{}\n", fmt::join(r->result.columns, "\t"));
  for (const auto& row : r->result.rows) {
    std::vector<std::string> cells;
    for (const auto& v : row) cells.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    fmt::print("{}\n", fmt::join(cells, "\t"));
  }
  fmt::print("({} rows{}; matched {} nodes, {} edges{})\n", r->result.rows.size(),
             r->result.truncated ? ", truncated" : "", r->nodes.size(), r->edges.size(),
             r->evidence_truncated ? ", partial" : "");
  return 0;
}

int Find(const Opts& o) {
  auto g = OpenGraph(o);
  if (!g.ok()) return Fail(g.status(), o.out);
  auto r = (*g)->FindNodes(o.text, o.label, o.property, o.limit);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (o.out.json) {
    Json a = Json::array();
    for (const auto& m : *r)
      a.push_back({{"node", m.key}, {"label", m.label}, {"name", m.name}, {"matched", m.matched}});
    PrintJson({{"nodes", a}});
    return 0;
  }
  for (const auto& m : *r) fmt::print("{}\t{}\t({})\n", m.key, m.name, m.matched);
  return 0;
}

int Neighbors(const Opts& o) {
  auto g = OpenGraph(o);
  if (!g.ok()) return Fail(g.status(), o.out);
  uint64_t total = 0;
  auto r = (*g)->Neighbors(o.text, o.type, o.direction, o.limit, &total);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (o.out.json) {
    Json a = Json::array();
    for (const auto& e : *r)
      a.push_back({{"edge", e.edge_key},
                   {"type", e.type},
                   {"direction", e.direction},
                   {"node", e.node_key},
                   {"name", e.node_name},
                   {"properties", e.properties}});
    PrintJson({{"edges", a}, {"total", total}});
    return 0;
  }
  for (const auto& e : *r)
    fmt::print("{} {}\t{}\t{}\t{}\n", e.direction == "out" ? "->" : "<-", e.type, e.node_key, e.node_name,
               e.properties.dump());
  fmt::print("({} of {} edges)\n", r->size(), total);
  return 0;
}

int SchemaVerb(const Opts& o) {
  auto g = OpenGraph(o);
  if (!g.ok()) return Fail(g.status(), o.out);
  if (o.out.json) PrintJson((*g)->schema().ToJson());
  else fmt::print("{}\n", (*g)->schema().Describe());
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  CLI::App* group =
      Commands::Group(root, "graph", "Query the graph view of an index (Cypher subset, nodes, neighbours)");
  auto add = [&](const char* name, const char* help, int (*fn)(const Opts&), const char* positional) {
    auto o = std::make_shared<Opts>();
    CLI::App* cmd = group->add_subcommand(name, help);
    cmd->add_option("--index", o->index, "Index directory (from `lakeqa index build`)")->required();
    if (positional) cmd->add_option(positional, o->text, positional)->required(std::string(name) != "find");
    if (std::string(name) == "find") {
      cmd->add_option("--label", o->label, "Only nodes of this label");
      cmd->add_option("--property", o->property, "Match this property instead of the name");
    }
    if (std::string(name) == "neighbors") {
      cmd->add_option("--type", o->type, "Only edges of this relationship type");
      cmd->add_option("--direction", o->direction, "out, in or both")->capture_default_str();
    }
    if (std::string(name) != "query" && std::string(name) != "schema")
      cmd->add_option("--limit", o->limit, "Maximum results")->capture_default_str();
    AddOutputOptions(cmd, o->out);
    commands.Bind(cmd, [o, fn] { return fn(*o); });
  };
  add("query", "Run a query of the Cypher subset", &Query, "cypher");
  add("find", "Find nodes by name or property", &Find, "text");
  add("neighbors", "Edges at a node (\"Label:id\")", &Neighbors, "node");
  add("schema", "Labels, properties and relationship types", &SchemaVerb, nullptr);
});

}  // namespace
}  // namespace lakeqa::cli
