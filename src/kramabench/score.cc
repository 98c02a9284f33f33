// evaluate.py's aggregate_results for lakeqa: per-domain means of each metric (NaN-free, pandas' std),
// the "Total score" per domain and pooled over all domains, and the task statistics of `tasks stats`.
#include <fmt/format.h>

#include <cmath>
#include <set>

#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {

using namespace eval;  // the core types a benchmark builds on: Task, LoadResult, RunScore, ...

namespace {

const std::set<std::string>& TotalMetrics() {
  static const std::set<std::string> k = {"f1", "string_bootstrap", "rae_score", "success"};
  return k;
}

KramaBenchMetricSummary Summarize(const std::vector<std::optional<double>>& values) {
  KramaBenchMetricSummary s;
  s.total = values.size();
  double sum = 0;
  for (const auto& v : values)
    if (v) sum += *v, ++s.support;
  if (s.support == 0) return s;
  s.mean = sum / static_cast<double>(s.support);
  if (s.support > 1) {
    double ss = 0;
    for (const auto& v : values)
      if (v) ss += (*v - s.mean) * (*v - s.mean);
    s.std = std::sqrt(ss / static_cast<double>(s.support - 1));
  }
  return s;
}

}  // namespace

Json KramaBenchMetricSummary::ToJson() const {
  Json j = {{"support", support}, {"total", total}};
  j["mean"] = support ? Json(mean) : Json(nullptr);
  j["std"] = support ? Json(std) : Json(nullptr);
  return j;
}

KramaBenchTable AggregateKramaBench(const std::vector<KramaBenchRow>& rows) {
  KramaBenchTable t;
  std::map<std::string, std::map<std::string, std::vector<std::optional<double>>>> values;
  for (const auto& r : rows) {
    for (const auto& [name, v] : r.metrics) {
      values[r.domain][name].push_back(v);
      values["overall"][name].push_back(v);
    }
    std::string main;
    if (!KramaBenchMainScore(r.answer_type, r.metrics, &main) && !main.empty()) {
      ++t.unknown[r.domain];
      ++t.unknown["overall"];
    }
  }
  for (const auto& [domain, metrics] : values) {
    double score = 0;
    size_t support = 0;
    for (const auto& [name, v] : metrics) {
      KramaBenchMetricSummary s = Summarize(v);
      if (TotalMetrics().count(name)) {
        score += static_cast<double>(s.support) * s.mean;
        support += s.total;
      }
      t.metrics[domain][name] = s;
    }
    t.score[domain] = support ? std::optional<double>(score / static_cast<double>(support)) : std::nullopt;
  }
  return t;
}

Json KramaBenchTable::ToJson() const {
  Json j = Json::object();
  for (const auto& [domain, metrics] : this->metrics) {
    Json d = {{"metrics", Json::object()}};
    for (const auto& [name, s] : metrics) d["metrics"][name] = s.ToJson();
    auto it = score.find(domain);
    d["score"] = it != score.end() && it->second ? Json(*it->second) : Json(nullptr);
    auto u = unknown.find(domain);
    d["unknown_scores"] = u == unknown.end() ? 0 : u->second;
    j[domain] = std::move(d);
  }
  return j;
}

Json KramaBenchStats(const std::vector<Task>& tasks) {
  Json domains = Json::object(), types = Json::object(), difficulty = Json::object(),
       sub_types = Json::object();
  size_t n = 0, subtasks = 0, sources = 0, unresolved = 0;
  for (const Task& t : tasks) {
    const KramaBenchTask* kb = Of(t);
    if (!kb) continue;
    ++n;
    Json& d = domains[kb->domain];
    if (d.is_null()) d = {{"tasks", 0}, {"subtasks", 0}, {"hard", 0}, {"gold_files", 0}};
    d["tasks"] = d["tasks"].get<size_t>() + 1;
    d["subtasks"] = d["subtasks"].get<size_t>() + kb->subtasks.size();
    if (kb->difficulty == "hard") d["hard"] = d["hard"].get<size_t>() + 1;
    d["gold_files"] = d["gold_files"].get<size_t>() + t.datasets_used.size();
    types[kb->answer_type] = types.value(kb->answer_type, 0) + 1;
    std::string diff = kb->difficulty.empty() ? "unlabelled" : kb->difficulty;
    difficulty[diff] = difficulty.value(diff, 0) + 1;
    subtasks += kb->subtasks.size();
    for (const auto& st : kb->subtasks) {
      std::string ty = st.answer_type.empty() ? "(none)" : st.answer_type;
      sub_types[ty] = sub_types.value(ty, 0) + 1;
    }
    for (const auto& s : kb->sources) {
      ++sources;
      unresolved += s.files.empty();
    }
  }
  return {{"tasks", n},
          {"subtasks", subtasks},
          {"domains", domains},
          {"answer_types", types},
          {"difficulty", difficulty},
          {"subtask_answer_types", sub_types},
          {"data_sources", {{"entries", sources}, {"naming_no_file", unresolved}}}};
}

std::string FormatKramaBenchStats(const Json& s) {
  std::string out = fmt::format("KramaBench: {} tasks, {} subtasks\n{:<14} {:>6} {:>9} {:>7} {:>11}\n",
                                s["tasks"].get<size_t>(), s["subtasks"].get<size_t>(), "domain", "tasks",
                                "subtasks", "% hard", "gold files");
  for (const auto& [d, v] : s["domains"].items()) {
    double hard = 100.0 * v["hard"].get<double>() / std::max(1.0, v["tasks"].get<double>());
    out += fmt::format("{:<14} {:>6} {:>9} {:>6.0f}% {:>11}\n", d, v["tasks"].get<size_t>(),
                       v["subtasks"].get<size_t>(), hard, v["gold_files"].get<size_t>());
  }
  out += "answer types:";
  for (const auto& [k, v] : s["answer_types"].items()) out += fmt::format(" {}={}", k, v.get<size_t>());
  out += "\ndifficulty:";
  for (const auto& [k, v] : s["difficulty"].items()) out += fmt::format(" {}={}", k, v.get<size_t>());
  out += "\nsubtask answer types:";
  for (const auto& [k, v] : s["subtask_answer_types"].items())
    out += fmt::format(" {}={}", k, v.get<size_t>());
  out += fmt::format("\ndata_sources entries: {} ({} name no file)\n",
                     s["data_sources"]["entries"].get<size_t>(),
                     s["data_sources"]["naming_no_file"].get<size_t>());
  return out;
}

}  // namespace lakeqa::kramabench
