#include "lakeqa/cmdbench/cmdbench.h"

#include <algorithm>
#include <set>

#include "lakeqa/common/fs.h"

namespace lakeqa::cmdbench {

using namespace eval;  // the core types a benchmark builds on

namespace {

const CmdbenchKind kKinds[] = {CmdbenchKind::kSource, CmdbenchKind::kTable, CmdbenchKind::kDoc,
                               CmdbenchKind::kGraph};
const char* const kClasses[] = {"graph", "doc", "table"};  // CMDBench's label order

std::string Describe(CmdbenchKind k) {
  return std::string(CmdbenchProvenanceKey(k)) + " (a CMDBench " + std::string(CmdbenchKindName(k)) +
         " question file)";
}

std::vector<std::string> Strings(const Json& j) {
  std::vector<std::string> out;
  if (j.is_string()) out.push_back(j.get<std::string>());
  if (j.is_array()) {
    for (const auto& e : j) {
      if (e.is_string()) out.push_back(e.get<std::string>());
    }
  }
  return out;
}

// "['date', 'team']" (CMDBench writes Python list reprs) or a JSON list.
std::vector<std::string> Columns(const Json& j) {
  if (j.is_array()) return Strings(j);
  std::vector<std::string> out;
  if (!j.is_string()) return out;
  std::string s = j.get<std::string>(), cur;
  bool in = false;
  char q = 0;
  for (char c : s) {
    if (!in && (c == '\'' || c == '"')) {
      in = true;
      q = c;
      cur.clear();
    } else if (in && c == q) {
      in = false;
      out.push_back(cur);
    } else if (in) {
      cur += c;
    }
  }
  return out;
}

}  // namespace

std::string_view CmdbenchKindName(CmdbenchKind k) {
  switch (k) {
    case CmdbenchKind::kSource: return "source";
    case CmdbenchKind::kTable: return "table";
    case CmdbenchKind::kDoc: return "doc";
    case CmdbenchKind::kGraph: return "graph";
  }
  return "?";
}

std::string_view CmdbenchProvenanceKey(CmdbenchKind k) {
  switch (k) {
    case CmdbenchKind::kSource: return "provenance_sources";
    case CmdbenchKind::kTable: return "provenance_table";
    case CmdbenchKind::kDoc: return "provenance_doc";
    case CmdbenchKind::kGraph: return "provenance_graph";
  }
  return "?";
}

std::string CmdbenchQuestion::AnswerText() const {
  if (answer.is_null()) return "";
  if (answer.is_string()) return answer.get<std::string>();
  return answer.dump();
}

std::vector<std::string> CmdbenchQuestion::DocTitles() const {
  std::vector<std::string> out;
  for (const auto& p : paragraphs) {
    if (std::find(out.begin(), out.end(), p.title) == out.end()) out.push_back(p.title);
  }
  return out;
}

Result<CmdbenchQuestion> ParseCmdbenchQuestion(const Json& item, const std::string& where_in,
                                               CmdbenchKind kind) {
  std::string where = where_in;
  if (!item.is_object()) return ParseError(where + ": expected an object");
  CmdbenchQuestion q;
  q.kind = kind;
  if (auto it = item.find("qid"); it != item.end())
    q.qid = it->is_string() ? it->get<std::string>() : it->dump();
  if (!q.qid.empty()) where += " (" + q.qid + ")";
  auto qt = item.find("question");
  if (qt == item.end() || !qt->is_string() || qt->get<std::string>().empty())
    return ParseError(where + ": no \"question\" string");
  q.question = qt->get<std::string>();
  if (auto a = item.find("answer"); a != item.end()) q.answer = *a;
  const std::string key(CmdbenchProvenanceKey(kind));
  auto pv = item.find(key);
  if (pv == item.end()) return ParseError(where + ": no \"" + key + "\"");
  switch (kind) {
    case CmdbenchKind::kSource: {
      q.sources = Strings(*pv);
      if (q.sources.empty()) return ParseError(where + ": provenance_sources names no source");
      for (const auto& s : q.sources) {
        if (s != "graph" && s != "doc" && s != "table")
          return ParseError(where + ": provenance_sources holds '" + s +
                            "'; the sources are graph, doc, table");
      }
      if (auto o = item.find("original_source"); o != item.end() && o->is_string()) q.original_source = *o;
      break;
    }
    case CmdbenchKind::kTable: {
      if (!pv->is_object() || !pv->contains("table"))
        return ParseError(where + ": provenance_table must be an object with \"table\"");
      q.tables = Strings((*pv)["table"]);
      if (q.tables.empty()) return ParseError(where + ": provenance_table.table names no table");
      if (pv->contains("column")) q.columns = Columns((*pv)["column"]);
      break;
    }
    case CmdbenchKind::kDoc: {
      if (!pv->is_object() || !pv->contains("paragraphs") || !(*pv)["paragraphs"].is_array())
        return ParseError(where + ": provenance_doc must be an object with a \"paragraphs\" list");
      for (const auto& p : (*pv)["paragraphs"]) {
        CmdbenchParagraph para;
        if (!p.is_object() || !p.contains("wikipedia_title") || !p["wikipedia_title"].is_string() ||
            p["wikipedia_title"].get<std::string>().empty())
          return ParseError(where + ": a paragraph without \"wikipedia_title\"");
        para.title = p["wikipedia_title"].get<std::string>();
        if (p.contains("paragraph_id") && p["paragraph_id"].is_number_integer())
          para.paragraph_id = p["paragraph_id"].get<int64_t>();
        if (p.contains("text") && p["text"].is_string()) para.text = p["text"].get<std::string>();
        q.paragraphs.push_back(std::move(para));
      }
      if (q.paragraphs.empty()) return ParseError(where + ": provenance_doc.paragraphs is empty");
      break;
    }
    case CmdbenchKind::kGraph: {
      if (!pv->is_object() || !pv->contains("cypher") || !(*pv)["cypher"].is_string())
        return ParseError(where + ": provenance_graph must be an object with a \"cypher\" string");
      q.cypher = (*pv)["cypher"].get<std::string>();
      if (auto t = pv->find("type"); t != pv->end() && t->is_string()) q.graph_type = t->get<std::string>();
      for (const char* k : {"node_ids", "edge_ids"}) {
        auto ids = pv->find(k);
        if (ids == pv->end() || !ids->is_array()) continue;
        for (const auto& v : *ids) {
          if (v.is_number_integer())
            (std::string(k) == "node_ids" ? q.neo4j_node_ids : q.neo4j_edge_ids).push_back(v.get<int64_t>());
        }
      }
      break;
    }
  }
  return q;
}

std::optional<CmdbenchKind> CmdbenchKindOf(const Json& item) {
  if (!item.is_object()) return std::nullopt;
  for (CmdbenchKind k : kKinds) {
    auto it = item.find(std::string(CmdbenchProvenanceKey(k)));
    if (it != item.end() && !it->is_null()) return k;
  }
  return std::nullopt;
}

Result<std::vector<CmdbenchQuestion>> LoadCmdbenchQuestionFile(const std::string& path,
                                                               CmdbenchKind expected) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 256ull << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  if (!j.is_array()) return ParseError(path + ": expected a JSON array of CMDBench questions");
  std::vector<CmdbenchQuestion> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const Json& item = j[i];
    const std::string key(CmdbenchProvenanceKey(expected));
    if (item.is_object() && !item.contains(key)) {
      for (CmdbenchKind k : kKinds) {
        if (k != expected && item.contains(std::string(CmdbenchProvenanceKey(k))))
          return InvalidArgument(path + ": expected " + Describe(expected) + ", item " + std::to_string(i) +
                                 " has " + std::string(CmdbenchProvenanceKey(k)) + " (use --task " +
                                 std::string(CmdbenchKindName(k)) +
                                 (k == CmdbenchKind::kDoc ? " or paragraph" : "") + " for this file)");
      }
    }
    LAKEQA_ASSIGN_OR_RETURN(CmdbenchQuestion q,
                            ParseCmdbenchQuestion(item, path + ": item " + std::to_string(i), expected));
    if (q.qid.empty()) q.qid = std::to_string(i);
    out.push_back(std::move(q));
  }
  return out;
}

Result<std::vector<CmdbenchQuestion>> LoadCmdbenchRoutingQuestions(const std::vector<std::string>& paths,
                                                                   size_t* duplicates) {
  if (paths.empty()) return InvalidArgument("no question file given");
  std::vector<CmdbenchQuestion> out;
  std::map<std::string, size_t>
      by_qid;  // explicit qids only: a generated one (the item's position) is per file
  size_t dups = 0;
  for (const std::string& path : paths) {
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 256ull << 20));
    LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
    if (!j.is_array()) return ParseError(path + ": expected a JSON array of CMDBench questions");
    for (size_t i = 0; i < j.size(); ++i) {
      std::string where = path + ": item " + std::to_string(i);
      std::optional<CmdbenchKind> kind = CmdbenchKindOf(j[i]);
      if (!kind)
        return ParseError(where +
                          ": no provenance_sources, provenance_doc, provenance_graph or provenance_table");
      LAKEQA_ASSIGN_OR_RETURN(CmdbenchQuestion q, ParseCmdbenchQuestion(j[i], where, *kind));
      if (*kind != CmdbenchKind::kSource) q.sources = {std::string(CmdbenchKindName(*kind))};
      if (q.qid.empty()) {
        q.qid = path + "#" + std::to_string(i);
      } else if (auto it = by_qid.find(q.qid); it != by_qid.end()) {
        ++dups;
        if (q.kind == CmdbenchKind::kSource && out[it->second].kind != CmdbenchKind::kSource)
          out[it->second] = std::move(q);
        continue;
      } else {
        by_qid[q.qid] = out.size();
      }
      out.push_back(std::move(q));
    }
  }
  if (duplicates) *duplicates = dups;
  return out;
}

double HarmonicMean(double p, double r) { return p + r > 0 ? 2 * p * r / (p + r) : 0.0; }

Json SourceSelectionScores::ToJson() const {
  Json pc = Json::object();
  for (const auto& [k, c] : per_class)
    pc[k] = {{"p", c.p}, {"r", c.r}, {"f1", c.f1}, {"support", c.support}, {"predicted", c.predicted}};
  return {{"questions", questions}, {"accuracy", accuracy}, {"macro_p", macro_p},
          {"macro_r", macro_r},     {"macro_f1", macro_f1}, {"per_class", pc}};
}

SourceSelectionScores ScoreSourceSelection(const std::vector<std::vector<std::string>>& gold,
                                           const std::vector<std::vector<std::string>>& predicted) {
  SourceSelectionScores s;
  s.questions = gold.size();
  uint64_t exact = 0;
  for (const char* c : kClasses) s.per_class[c];
  for (size_t i = 0; i < gold.size(); ++i) {
    std::set<std::string> g(gold[i].begin(), gold[i].end());
    std::set<std::string> p;
    if (i < predicted.size()) p.insert(predicted[i].begin(), predicted[i].end());
    bool same = true;
    for (const char* c : kClasses) {
      bool in_g = g.count(c) > 0, in_p = p.count(c) > 0;
      auto& cs = s.per_class[c];
      cs.support += in_g;
      cs.predicted += in_p;
      cs.true_positives += in_g && in_p;
      same = same && in_g == in_p;
    }
    exact += same;
  }
  for (const char* c : kClasses) {
    auto& cs = s.per_class[c];
    uint64_t tp = cs.true_positives, fp = cs.predicted - tp, fn = cs.support - tp;
    cs.p = cs.predicted ? static_cast<double>(tp) / static_cast<double>(cs.predicted) : 0.0;
    cs.r = cs.support ? static_cast<double>(tp) / static_cast<double>(cs.support) : 0.0;
    cs.f1 = 2 * tp + fp + fn ? 2.0 * static_cast<double>(tp) / static_cast<double>(2 * tp + fp + fn) : 0.0;
    s.macro_p += cs.p / 3;
    s.macro_r += cs.r / 3;
    s.macro_f1 += cs.f1 / 3;
  }
  s.accuracy = gold.empty() ? 0.0 : static_cast<double>(exact) / static_cast<double>(gold.size());
  return s;
}

SetScore ScoreSet(const std::vector<std::string>& predicted, const std::vector<std::string>& gold) {
  std::set<std::string> p(predicted.begin(), predicted.end()), g(gold.begin(), gold.end());
  size_t both = 0;
  for (const auto& x : p) both += g.count(x);
  SetScore s;
  s.p = p.empty() ? 0.0 : static_cast<double>(both) / static_cast<double>(p.size());
  s.r = g.empty() ? 0.0 : static_cast<double>(both) / static_cast<double>(g.size());
  return s;
}

Json GraphScores::ToJson() const {
  Json bt = Json::object();
  for (const auto& [k, v] : node_by_type)
    bt[k] = {{"node_p", v.p},
             {"node_r", v.r},
             {"node_f1", HarmonicMean(v.p, v.r)},
             {"questions", questions_by_type.at(k)}};
  return {{"questions", questions}, {"node_p", node_p}, {"node_r", node_r},   {"node_f1", node_f1},
          {"edge_p", edge_p},       {"edge_r", edge_r}, {"edge_f1", edge_f1}, {"by_type", bt}};
}

GraphScores AggregateGraphScores(const std::vector<GraphQuestionScore>& qs) {
  GraphScores g;
  g.questions = qs.size();
  if (qs.empty()) return g;
  for (const auto& q : qs) {
    g.node_p += q.nodes.p;
    g.node_r += q.nodes.r;
    g.edge_p += q.edges.p;
    g.edge_r += q.edges.r;
    auto& t = g.node_by_type[q.type.empty() ? "unknown" : q.type];
    t.p += q.nodes.p;
    t.r += q.nodes.r;
    ++g.questions_by_type[q.type.empty() ? "unknown" : q.type];
  }
  double n = static_cast<double>(qs.size());
  g.node_p /= n;
  g.node_r /= n;
  g.edge_p /= n;
  g.edge_r /= n;
  g.node_f1 = HarmonicMean(g.node_p, g.node_r);
  g.edge_f1 = HarmonicMean(g.edge_p, g.edge_r);
  for (auto& [k, v] : g.node_by_type) {
    double c = static_cast<double>(g.questions_by_type[k]);
    v.p /= c;
    v.r /= c;
  }
  return g;
}

}  // namespace lakeqa::cmdbench
