#include "lakeqa/eval/hops.h"
#include "lakeqa/common/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace lakeqa::eval {
namespace {

constexpr int kMaxRange = 1000;  // "nodes 1-4" style ranges; a typo like 1-99999 must not explode

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Reads digits at s[i], advancing i; -1 when there are none.
int ReadNumber(std::string_view s, size_t& i) {
  size_t start = i;
  long long v = 0;
  while (i < s.size() && IsDigit(s[i])) {
    if (v < 1000000000) v = v * 10 + (s[i] - '0');
    ++i;
  }
  return i == start ? -1 : static_cast<int>(std::min<long long>(v, 1000000000));
}

void SkipSpaces(std::string_view s, size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '_')) ++i;
}

bool Consume(std::string_view s, size_t& i, std::string_view word) {
  if (s.substr(i, word.size()) != word) return false;
  i += word.size();
  return true;
}

// After "node"/"hop" at s[i]: a number, then optional ", M", " and M", "-M" continuations, each M maybe
// prefixed by the word again ("node_1, node_2").
void ReadList(std::string_view s, size_t& i, std::string_view word, std::vector<int>& out) {
  Consume(s, i, "s");
  SkipSpaces(s, i);
  int n = ReadNumber(s, i);
  if (n < 0) return;
  out.push_back(n);
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && s[j] == ' ') ++j;
    char sep = 0;
    if (j < s.size() && (s[j] == ',' || s[j] == '-')) {
      sep = s[j++];
    } else if (Consume(s, j, "and ")) {
      sep = ',';
    } else {
      return;
    }
    while (j < s.size() && s[j] == ' ') ++j;
    if (Consume(s, j, word)) {
      Consume(s, j, "s");
      SkipSpaces(s, j);
    }
    int m = ReadNumber(s, j);
    if (m < 0) return;
    if (sep == '-' && m > n && m - n <= kMaxRange) {
      for (int v = n + 1; v <= m; ++v) out.push_back(v);
    } else {
      out.push_back(m);
    }
    n = m;
    i = j;
  }
}

void ScanSpan(std::string_view span, References& refs) {
  std::string lower = ToLowerAscii(span);
  std::string_view s = lower;
  std::vector<int> hops, nodes;
  for (size_t i = 0; i < s.size();) {
    bool word_start = i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1]));
    if (word_start && Consume(s, i, "node")) {
      ReadList(s, i, "node", nodes);
    } else if (word_start && Consume(s, i, "hop")) {
      ReadList(s, i, "hop", hops);
    } else {
      ++i;
    }
  }
  for (int h : hops) refs.hops.push_back(h);
  for (int n : nodes) refs.nodes.push_back(std::to_string(n));
}

void Dedup(References& r) {
  std::sort(r.hops.begin(), r.hops.end());
  r.hops.erase(std::unique(r.hops.begin(), r.hops.end()), r.hops.end());
  std::sort(r.nodes.begin(), r.nodes.end());
  r.nodes.erase(std::unique(r.nodes.begin(), r.nodes.end()), r.nodes.end());
}

// "node_5" → node 5, "intersection_of_1_2_3_4" → nodes 1-4, "hop_2" → hop 2.
void ScanDependsOn(std::string_view label, References& refs) {
  bool hop = label.find("hop") != std::string_view::npos;
  for (size_t i = 0; i < label.size();) {
    int n = ReadNumber(label, i);
    if (n < 0) {
      ++i;
      continue;
    }
    if (hop) {
      refs.hops.push_back(n);
    } else {
      refs.nodes.push_back(std::to_string(n));
    }
  }
}

// Cycles among nodes of one hop ("node 2 needs node 3, node 3 needs node 2"): the first one found is an
// error naming its nodes in order. same_hop: node -> the nodes of its own hop it refers to.
void ReportNodeCycles(const std::vector<Node>& nodes,
                      std::map<std::string, std::vector<std::string>>& same_hop, HopStructure& hs) {
  std::map<std::string, int> color;  // 0 new, 1 on stack, 2 done
  std::vector<std::string> path;
  bool reported = false;
  std::function<void(const std::string&)> dfs = [&](const std::string& id) {
    color[id] = 1;
    path.push_back(id);
    for (const std::string& m : same_hop[id]) {
      if (color[m] == 1 && !reported) {
        auto start = std::find(path.begin(), path.end(), m);
        std::string cycle;
        for (auto it = start; it != path.end(); ++it) cycle += "node " + *it + " → ";
        hs.errors.push_back("cyclic node dependencies: " + cycle + "node " + m);
        reported = true;
      } else if (color[m] == 0) {
        dfs(m);
      }
    }
    path.pop_back();
    color[id] = 2;
  };
  for (const Node& n : nodes) {
    if (color[n.id] == 0) dfs(n.id);
  }
}

// k is the longest dependency path (in hops); depends_on lists each hop's direct dependencies by number.
// Every edge points to an earlier hop, so one pass in order suffices.
void SetDepth(const std::vector<const Hop*>& hops, const std::vector<std::set<size_t>>& deps,
              HopStructure& hs) {
  std::vector<int> longest(hops.size(), 1);
  for (size_t i = 0; i < hops.size(); ++i) {
    for (size_t j : deps[i]) longest[i] = std::max(longest[i], longest[j] + 1);
    hs.k = std::max(hs.k, longest[i]);
  }
  hs.depends_on.resize(hops.size());
  for (size_t i = 0; i < hops.size(); ++i) {
    for (size_t j : deps[i]) hs.depends_on[i].push_back(hops[j]->number);
  }
}

}  // namespace

References FindReferences(std::string_view text) {
  References refs;
  for (size_t open = text.find('<'); open != std::string_view::npos; open = text.find('<', open + 1)) {
    size_t close = text.find_first_of("<>", open + 1);
    if (close == std::string_view::npos) break;
    if (text[close] == '<') continue;
    std::string_view span = text.substr(open + 1, close - open - 1);
    // "<node_5 answer: Maricopa County>": what follows the colon is the resolved value, not a reference.
    span = span.substr(0, span.find(':'));
    ScanSpan(span, refs);
  }
  Dedup(refs);
  return refs;
}

HopStructure AnalyzeHops(const Task& task) {
  HopStructure hs;
  hs.nodes = task.nodes.size();
  if (task.hops.empty()) {
    hs.errors.push_back("no reasoning hops");
    return hs;
  }
  std::map<std::string, const Node*> nodes;
  for (const Node& n : task.nodes) nodes[n.id] = &n;

  // Hops in number order.
  std::vector<const Hop*> hops;
  for (const Hop& h : task.hops) hops.push_back(&h);
  std::stable_sort(hops.begin(), hops.end(),
                   [](const Hop* a, const Hop* b) { return a->number < b->number; });
  std::map<int, size_t> index_of;  // hop number → position
  for (size_t i = 0; i < hops.size(); ++i) {
    if (!index_of.emplace(hops[i]->number, i).second) {
      hs.errors.push_back(fmt::format("duplicate hop number {}", hops[i]->number));
    }
  }

  std::map<std::string, size_t> hop_of;  // node id → position of the first hop listing it
  for (size_t i = 0; i < hops.size(); ++i) {
    const Hop& h = *hops[i];
    if (h.node_ids.empty()) hs.warnings.push_back(fmt::format("hop {} lists no nodes", h.number));
    std::set<std::string> distinct;
    for (const std::string& id : h.node_ids) {
      if (!distinct.insert(id).second) {
        hs.warnings.push_back(fmt::format("hop {} lists node {} twice", h.number, id));
        continue;
      }
      if (!nodes.count(id)) {
        hs.errors.push_back(fmt::format("hop {} lists node {}, which is not in \"nodes\"", h.number, id));
        continue;
      }
      auto [it, fresh] = hop_of.emplace(id, i);
      if (!fresh) {
        hs.warnings.push_back(fmt::format("node {} is listed in hop {} and again in hop {}", id,
                                          hops[it->second]->number, h.number));
      }
    }
    hs.d = std::max(hs.d, static_cast<int>(distinct.size()));
  }
  for (const Node& n : task.nodes) {
    if (!hop_of.count(n.id)) hs.warnings.push_back(fmt::format("node {} is in no reasoning hop", n.id));
  }

  // Hop dependencies: the chain plus explicit references; node dependencies within a hop for cycles.
  std::vector<std::set<size_t>> deps(hops.size());
  for (size_t i = 1; i < hops.size(); ++i) deps[i].insert(i - 1);
  std::map<std::string, std::vector<std::string>> same_hop;  // node → nodes of its own hop it refers to
  for (const Node& n : task.nodes) {
    auto own = hop_of.find(n.id);
    if (own == hop_of.end()) continue;
    const size_t h = own->second;
    References refs = FindReferences(n.subquestion);
    for (const std::string& label : n.depends_on) ScanDependsOn(label, refs);
    Dedup(refs);
    for (int hop_no : refs.hops) {
      auto it = index_of.find(hop_no);
      if (it == index_of.end()) {
        hs.errors.push_back(fmt::format("node {} refers to hop {}, which does not exist", n.id, hop_no));
      } else if (it->second == h) {
        hs.warnings.push_back(
            fmt::format("node {} in hop {} refers to the answer of its own hop", n.id, hop_no));
      } else if (it->second > h) {
        hs.errors.push_back(
            fmt::format("cyclic hop dependencies: node {} in hop {} refers to the answer of hop {}, which "
                        "depends on hop {}",
                        n.id, hops[h]->number, hop_no, hops[h]->number));
      } else {
        deps[h].insert(it->second);
      }
    }
    for (const std::string& m : refs.nodes) {
      if (m == n.id) {
        hs.warnings.push_back(fmt::format("node {} refers to its own answer", n.id));
        continue;
      }
      auto it = hop_of.find(m);
      if (!nodes.count(m)) {
        hs.errors.push_back(fmt::format("node {} refers to node {}, which does not exist", n.id, m));
      } else if (it == hop_of.end()) {
        continue;  // already warned: in no hop
      } else if (it->second == h) {
        same_hop[n.id].push_back(m);
      } else if (it->second > h) {
        hs.errors.push_back(
            fmt::format("cyclic hop dependencies: node {} in hop {} refers to node {} of the later hop {}",
                        n.id, hops[h]->number, m, hops[it->second]->number));
      } else {
        deps[h].insert(it->second);
      }
    }
  }

  ReportNodeCycles(task.nodes, same_hop, hs);

  SetDepth(hops, deps, hs);
  return hs;
}

}  // namespace lakeqa::eval
