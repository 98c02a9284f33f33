#include "lakeqa/common/strings.h"
#include "lakeqa/graph/graph.h"

namespace lakeqa::graph {

Json Problem::ToJson() const { return {{"source", source}, {"line", line}, {"message", message}}; }

const NodeType* Schema::Node(std::string_view label) const {
  for (const auto& n : nodes) {
    if (n.label == label) return &n;
  }
  return nullptr;
}

const RelationType* Schema::Relation(std::string_view type) const {
  for (const auto& r : relations) {
    if (r.type == type) return &r;
  }
  return nullptr;
}

Json Schema::ToJson() const {
  Json n = Json::array(), r = Json::array(), p = Json::array();
  for (const auto& x : nodes)
    n.push_back({{"label", x.label},
                 {"id_column", x.id_column},
                 {"properties", x.properties},
                 {"types", x.types},
                 {"source", x.source},
                 {"file", x.file},
                 {"count", x.count}});
  for (const auto& x : relations)
    r.push_back({{"type", x.type},
                 {"start", x.start_label},
                 {"end", x.end_label},
                 {"properties", x.properties},
                 {"types", x.types},
                 {"source", x.source},
                 {"file", x.file},
                 {"count", x.count}});
  for (const auto& x : problems) p.push_back(x.ToJson());
  return {{"format", "lakeqa-graph-1"},
          {"nodes", n},
          {"relations", r},
          {"problems", p},
          {"problems_total", problems_total}};
}

Result<Schema> Schema::FromJson(const Json& j) {
  Schema s;
  try {
    if (j.value("format", "") != "lakeqa-graph-1")
      return Corrupt("graph schema: unknown format '" + j.value("format", "") +
                     "' (expected lakeqa-graph-1)");
    for (const auto& x : j.at("nodes")) {
      NodeType t;
      t.label = x.at("label").get<std::string>();
      t.id_column = x.at("id_column").get<std::string>();
      t.properties = x.at("properties").get<std::vector<std::string>>();
      t.types = x.value("types", std::vector<std::string>(t.properties.size()));
      t.source = x.value("source", "");
      t.file = x.at("file").get<std::string>();
      t.count = x.value("count", uint64_t{0});
      s.nodes.push_back(std::move(t));
    }
    for (const auto& x : j.at("relations")) {
      RelationType t;
      t.type = x.at("type").get<std::string>();
      t.start_label = x.at("start").get<std::string>();
      t.end_label = x.at("end").get<std::string>();
      t.properties = x.at("properties").get<std::vector<std::string>>();
      t.types = x.value("types", std::vector<std::string>(t.properties.size()));
      t.source = x.value("source", "");
      t.file = x.at("file").get<std::string>();
      t.count = x.value("count", uint64_t{0});
      s.relations.push_back(std::move(t));
    }
    for (const auto& x : j.value("problems", Json::array()))
      s.problems.push_back({x.value("source", ""), x.value("line", uint64_t{0}), x.value("message", "")});
    s.problems_total = j.value("problems_total", uint64_t{s.problems.size()});
  } catch (const std::exception& e) {
    return Corrupt(std::string("graph schema: ") + e.what());
  }
  return s;
}

std::string Schema::Describe() const {
  std::string out = "Node labels and properties:\n";
  for (const auto& n : nodes) {
    out += "  " + n.label + " (" + std::to_string(n.count) + " nodes): " + n.id_column;
    for (const auto& p : n.properties) out += ", " + p;
    out += "\n";
  }
  out += "Relationships:\n";
  for (const auto& r : relations) {
    out += "  (:" + r.start_label + ")-[:" + r.type;
    if (!r.properties.empty()) {
      out += " {";
      for (size_t i = 0; i < r.properties.size(); ++i) out += (i ? ", " : "") + r.properties[i];
      out += "}";
    }
    out += "]->(:" + r.end_label + ") (" + std::to_string(r.count) + " edges)\n";
  }
  out += "All property values are text.";
  return out;
}

}  // namespace lakeqa::graph
