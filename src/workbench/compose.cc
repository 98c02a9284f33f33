#include "lakeqa/workbench/compose.h"

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "lakeqa/agent/fact.h"
#include "lakeqa/eval/hops.h"
#include "lakeqa/eval/validate.h"

namespace lakeqa::workbench {
namespace {

std::string AnswerText(const Json& j) {
  if (j.is_null()) return "";
  return j.is_string() ? j.get<std::string>() : j.dump();
}

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Json NodeIdJson(const std::string& key) {
  // The released files write numeric node ids in hops as numbers ([1, 2]) and keys as strings ("1").
  return AllDigits(key) && key.size() < 10 ? Json(std::stoll(key)) : Json(key);
}

// "<node_N answer>" / "<node N answer>" in code, where '<' and '>' are also comparison operators, so only
// the exact placeholder shape counts.
void CodeReferences(const std::string& code, std::set<std::string>& out) {
  for (size_t p = code.find("<node"); p != std::string::npos; p = code.find("<node", p + 1)) {
    size_t i = p + 5;
    if (i < code.size() && (code[i] == '_' || code[i] == ' ')) ++i;
    size_t start = i;
    while (i < code.size() && std::isdigit(static_cast<unsigned char>(code[i]))) ++i;
    if (i == start) continue;
    if (code.compare(i, 8, " answer>") == 0) out.insert(code.substr(start, i - start));
  }
}

std::map<std::string, std::string> Answers(const ProjectTask& t) {
  std::map<std::string, std::string> a;
  for (const auto& n : t.nodes) {
    if (!n.answer.is_null()) a[n.key] = AnswerText(n.answer);
  }
  return a;
}

// Hop numbers per node before compaction, with the problems found on the way.
std::map<std::string, int> RawHops(const ProjectTask& t, std::vector<std::string>& errors,
                                   std::vector<std::pair<std::string, std::string>>& edges) {
  std::map<std::string, const ProjectNode*> by_key;
  for (const auto& n : t.nodes) by_key[n.key] = &n;
  std::map<std::string, std::vector<std::string>> deps;
  for (const auto& n : t.nodes) {
    for (const std::string& d : NodeDependencies(n)) {
      if (d == n.key) {
        errors.push_back(fmt::format("node {} uses its own answer (<node_{} answer>)", n.key, d));
      } else if (!by_key.count(d)) {
        errors.push_back(
            fmt::format("node {} uses <node_{} answer>, but the task has no node {}", n.key, d, d));
      } else {
        deps[n.key].push_back(d);
        edges.emplace_back(d, n.key);
      }
    }
  }
  std::map<std::string, int> hop;
  std::set<std::string> on_stack;
  std::function<int(const std::string&)> visit = [&](const std::string& key) -> int {
    if (auto it = hop.find(key); it != hop.end()) return it->second;
    if (on_stack.count(key)) return 0;  // a cycle: reported below
    on_stack.insert(key);
    int need = 1;
    for (const auto& d : deps[key]) need = std::max(need, visit(d) + 1);
    on_stack.erase(key);
    const ProjectNode& n = *by_key[key];
    int h = n.hop > 0 ? n.hop : need;
    hop[key] = h;
    return h;
  };
  for (const auto& n : t.nodes) visit(n.key);
  // Cycles and explicit hops placed before what they use.
  for (const auto& n : t.nodes) {
    for (const auto& d : deps[n.key]) {
      if (hop[d] >= hop[n.key]) {
        if (n.hop > 0) {
          errors.push_back(fmt::format(
              "node {} is in hop {} but uses the answer of node {} (hop {}): move it to a later hop", n.key,
              hop[n.key], d, hop[d]));
        } else {
          errors.push_back(fmt::format("nodes {} and {} use each other's answers (a cycle)", d, n.key));
        }
      }
    }
  }
  return hop;
}

// Hop numbers compacted to 1..H in order.
std::map<std::string, int> CompactHops(const std::map<std::string, int>& raw) {
  std::set<int> distinct;
  for (const auto& [k, h] : raw) distinct.insert(h);
  std::map<int, int> rank;
  int r = 0;
  for (int h : distinct) rank[h] = ++r;
  std::map<std::string, int> out;
  for (const auto& [k, h] : raw) out[k] = rank[h];
  return out;
}

std::map<std::string, int> HopsOf(const ProjectTask& t) {
  std::vector<std::string> errors;
  std::vector<std::pair<std::string, std::string>> edges;
  return CompactHops(RawHops(t, errors, edges));
}

// The imported hop of exactly these nodes, if the task carries one. A node belongs to one hop, so its nodes
// name a hop even when its number moved (an imported hop without nodes of its own is not kept).
const Json* ImportedHop(const ProjectTask& t, const std::vector<std::string>& keys) {
  if (!t.hops.is_array()) return nullptr;
  std::set<std::string> want(keys.begin(), keys.end());
  for (const Json& h : t.hops) {
    if (!h.is_object() || !h.contains("node_ids") || !h["node_ids"].is_array()) continue;
    std::set<std::string> have;
    for (const Json& id : h["node_ids"]) have.insert(id.is_string() ? id.get<std::string>() : id.dump());
    if (have == want) return &h;
  }
  return nullptr;
}

Finding Make(std::string severity, std::string node, std::string field, std::string message) {
  return Finding{std::move(severity), std::move(node), std::move(field), std::move(message)};
}

// "node 2 source ..." → "2".
std::string NodeOfMessage(const std::string& m) {
  if (m.rfind("node ", 0) != 0) return "";
  size_t end = m.find_first_of(" :", 5);
  return m.substr(5, end == std::string::npos ? std::string::npos : end - 5);
}

}  // namespace

std::vector<std::string> NodeDependencies(const ProjectNode& node) {
  std::set<std::string> out;
  for (const std::string& id : eval::FindReferences(node.subquestion).nodes) out.insert(id);
  CodeReferences(node.fact, out);
  return {out.begin(), out.end()};
}

Json Structure::ToJson() const {
  Json e = Json::array();
  for (const auto& [from, to] : edges) e.push_back({{"from", from}, {"to", to}});
  return {{"k", k},
          {"n", n},
          {"d", d},
          {"edges", e},
          {"hop_of", hop_of},
          {"errors", errors},
          {"warnings", warnings},
          {"folder", StructureFolder(*this)}};
}

std::string StructureFolder(const Structure& s) { return fmt::format("k-{}-d-{}", s.k, s.d); }

Structure AnalyzeStructure(const ProjectTask& task) {
  Structure s;
  s.n = task.nodes.size();
  s.hop_of = CompactHops(RawHops(task, s.errors, s.edges));
  if (task.nodes.empty()) return s;
  // k and d depend on the hops alone: an unfinished task (no question or answers yet) still has them.
  Json doc = ToLakeQaJson(task);
  for (const char* f : {"question_id", "question", "answer"}) {
    if (doc[f].is_string() && doc[f].get<std::string>().empty()) doc[f] = "?";
  }
  for (auto& [key, node] : doc["nodes"].items()) {
    for (const char* f : {"source", "subquestion", "fact", "answer"}) {
      if (node[f].is_string() && node[f].get<std::string>().empty()) node[f] = "?";
    }
  }
  auto parsed = eval::TaskFromJson(doc, "task " + task.question_id);
  if (!parsed.ok()) {
    s.errors.push_back(parsed.status().message());
    return s;
  }
  eval::HopStructure hs = eval::AnalyzeHops(*parsed);
  s.k = hs.k;
  s.d = hs.d;
  for (auto& e : hs.errors) s.errors.push_back(std::move(e));
  for (auto& w : hs.warnings) s.warnings.push_back(std::move(w));
  return s;
}

Json ToLakeQaJson(const ProjectTask& task) {
  std::map<std::string, std::string> answers = Answers(task);
  Json nodes = Json::object();
  for (const auto& n : task.nodes) {
    nodes[n.key] = {{"source", n.source},
                    {"subquestion", n.subquestion},
                    {"fact", agent::FillNodePlaceholders(n.fact, answers)},
                    {"answer", n.answer.is_null() ? Json("") : n.answer}};
  }
  Json used = Json::array();
  std::set<std::string> seen;
  if (task.datasets_used.is_array()) {
    for (const Json& d : task.datasets_used) {
      if (d.is_string() && seen.insert(d.get<std::string>()).second) used.push_back(d);
    }
  }
  for (const auto& n : task.nodes) {
    if (!n.source.empty() && seen.insert(n.source).second) used.push_back(n.source);
  }
  std::map<std::string, int> hop_of = HopsOf(task);
  std::map<int, std::vector<std::string>> members;
  for (const auto& n : task.nodes) members[hop_of[n.key]].push_back(n.key);
  Json hops = Json::array();
  int last = members.empty() ? 0 : members.rbegin()->first;
  std::map<std::string, const ProjectNode*> by_key;
  for (const auto& n : task.nodes) by_key[n.key] = &n;
  for (const auto& [number, keys] : members) {
    Json ids = Json::array();
    for (const auto& k : keys) ids.push_back(NodeIdJson(k));
    if (const Json* imported = ImportedHop(task, keys)) {
      hops.push_back({{"hop", number},
                      {"node_ids", ids},
                      {"reasoning", imported->value("reasoning", Json::array())},
                      {"answer", imported->value("answer", Json(""))}});
      continue;
    }
    Json reasoning = Json::array();
    std::string refs;
    for (const auto& k : keys) {
      const ProjectNode& n = *by_key[k];
      reasoning.push_back("Node " + k + ": " + (n.reasoning.empty() ? n.subquestion : n.reasoning));
      refs += (refs.empty() ? "" : ", ") + ("<node_" + k + " answer>");
    }
    Json answer;
    if (number == last) {
      answer = task.answer.is_null() ? Json("") : task.answer;
    } else if (keys.size() == 1) {
      answer = by_key[keys[0]]->answer.is_null() ? Json("") : by_key[keys[0]]->answer;
    } else {
      answer = Json::array();
      for (const auto& k : keys) answer.push_back(AnswerText(by_key[k]->answer));
    }
    reasoning.push_back(keys.size() == 1 ? "Hop result: report " + refs + " as this hop answer."
                                         : "Hop result: " + refs + ".");
    hops.push_back({{"hop", number}, {"node_ids", ids}, {"reasoning", reasoning}, {"answer", answer}});
  }
  return {{"question_id", task.question_id},
          {"question", task.question},
          {"answer", task.answer.is_null() ? Json("") : task.answer},
          {"nodes", nodes},
          {"datasets_used", used},
          {"reasoning_hops", hops}};
}

ProjectTask FromEvalTask(const eval::Task& task) {
  ProjectTask t;
  t.question_id = task.id;
  t.question = task.question;
  t.answer = task.answer;
  std::map<std::string, int> hop_of;
  std::map<std::string, std::string> reasoning;
  for (const eval::Hop& h : task.hops) {
    for (const std::string& id : h.node_ids) {
      hop_of.emplace(id, h.number);
      std::string prefix = "Node " + id + ":";
      for (const std::string& line : h.reasoning) {
        if (line.rfind(prefix, 0) == 0 && !reasoning.count(id)) {
          std::string rest = line.substr(prefix.size());
          size_t a = rest.find_first_not_of(' ');
          reasoning[id] = a == std::string::npos ? "" : rest.substr(a);
        }
      }
    }
  }
  for (const eval::Node& n : task.nodes) {
    ProjectNode pn;
    pn.key = n.id;
    pn.source = n.source;
    pn.fact = n.fact;
    pn.subquestion = n.subquestion;
    pn.answer = n.answer;
    auto it = hop_of.find(n.id);
    pn.hop = it == hop_of.end() ? 0 : it->second;
    pn.reasoning = reasoning.count(n.id) ? reasoning[n.id] : "";
    t.nodes.push_back(std::move(pn));
  }
  if (!task.datasets_used.empty()) t.datasets_used = task.datasets_used;
  Json hops = Json::array();
  for (const eval::Hop& h : task.hops) {
    Json ids = Json::array();
    for (const auto& id : h.node_ids) ids.push_back(NodeIdJson(id));
    hops.push_back({{"hop", h.number}, {"node_ids", ids}, {"reasoning", h.reasoning}, {"answer", h.answer}});
  }
  if (!hops.empty()) t.hops = hops;
  t.origin = task.Where();
  return t;
}

Json Finding::ToJson() const {
  return {{"severity", severity}, {"node", node}, {"field", field}, {"message", message}};
}

bool HasErrors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == "error"; });
}

std::string CodeHash(const std::string& code) {
  // FNV-1a 64: enough to tell two versions of one node's code apart.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : code) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

std::vector<Finding> CheckTask(const ProjectTask& task,
                               const std::function<bool(const std::string&)>& file_exists) {
  std::vector<Finding> out;
  auto blank = [](const Json& j) {
    return j.is_null() ||
           (j.is_string() && j.get<std::string>().find_first_not_of(" \t\r\n") == std::string::npos);
  };
  auto empty = [](const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; };
  if (empty(task.question_id)) out.push_back(Make("error", "", "question_id", "the task has no question_id"));
  if (empty(task.question))
    out.push_back(Make("error", "", "question", "the question is empty: write the rewritten question"));
  if (blank(task.answer)) out.push_back(Make("error", "", "answer", "the task's answer is empty"));
  if (task.nodes.empty()) out.push_back(Make("error", "", "nodes", "the task has no nodes"));
  std::map<std::string, std::string> answers = Answers(task);
  for (const auto& n : task.nodes) {
    std::string who = "node " + n.key;
    if (empty(n.source)) {
      out.push_back(Make("error", n.key, "source", who + ": the source is empty (pick a file of a dataset)"));
    } else if (auto ref = eval::ParseDatasetPath(n.source); !ref.ok()) {
      out.push_back(Make("error", n.key, "source", who + ": source: " + ref.status().message()));
    } else if (n.source.size() <= ref->Key().size() + 1) {
      out.push_back(
          Make("error", n.key, "source",
               who + ": the source \"" + n.source + "\" names a dataset, not a file (add the file path)"));
    } else if (file_exists && !file_exists(n.source)) {
      out.push_back(Make("error", n.key, "source",
                         who + ": the source \"" + n.source + "\" is not a file of the lake's catalog"));
    }
    if (empty(n.fact))
      out.push_back(Make("error", n.key, "fact", who + ": the fact is empty (code or a sentence)"));
    if (empty(n.subquestion))
      out.push_back(Make("error", n.key, "subquestion", who + ": the subquestion is empty"));
    if (blank(n.answer))
      out.push_back(Make("error", n.key, "answer", who + ": the answer is empty (run the fact or type it)"));
    if (!empty(n.fact) && agent::IsFactCode(n.fact)) {
      std::string code = agent::FillNodePlaceholders(n.fact, answers);
      if (!n.last_run.is_object()) {
        out.push_back(Make("warning", n.key, "fact", who + ": the fact code has not been run"));
      } else if (n.last_run.value("code_hash", "") != CodeHash(code)) {
        out.push_back(Make("warning", n.key, "fact", who + ": the fact code changed since its last run"));
      } else if (!n.last_run.value("ok", false)) {
        out.push_back(
            Make("warning", n.key, "fact",
                 who + ": the last run failed: " + n.last_run.value("error", std::string("no answer"))));
      } else if (!blank(n.answer) &&
                 !agent::FactAnswerMatches(n.last_run.value("answer", ""), AnswerText(n.answer))) {
        out.push_back(Make("warning", n.key, "answer",
                           who + ": the answer \"" + AnswerText(n.answer) +
                               "\" differs from what the code printed (\"" + n.last_run.value("answer", "") +
                               "\")"));
      }
    }
  }
  Structure s = AnalyzeStructure(task);
  std::set<std::string> said;
  for (const auto& e : s.errors) {
    if (said.insert(e).second) out.push_back(Make("error", NodeOfMessage(e), "hops", e));
  }
  if (!task.nodes.empty()) {
    auto parsed = eval::TaskFromJson(ToLakeQaJson(task), "task " + task.question_id);
    if (parsed.ok()) {
      eval::TaskCheck c = eval::CheckTask(*parsed);
      for (const auto& e : c.errors) {
        if (said.insert(e).second) out.push_back(Make("error", NodeOfMessage(e), "task file", e));
      }
      for (const auto& w : c.warnings) {
        if (said.insert(w).second) out.push_back(Make("warning", NodeOfMessage(w), "hops", w));
      }
    }
  }
  return out;
}

}  // namespace lakeqa::workbench
