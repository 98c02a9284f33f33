#include "lakeqa/eval/stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lakeqa/eval/answer_type.h"
#include "lakeqa/eval/hops.h"

namespace lakeqa::eval {
namespace {

std::string DisplayName(const std::string& ns) {
  if (ns == "wikipedia") return "Wikipedia";
  if (ns == "datagov") return "Data.gov";
  return ns;
}

template <typename K>
Json DistributionJson(const std::map<K, size_t>& m) {
  Json j = Json::object();
  for (const auto& [k, v] : m) j[fmt::format("{}", k)] = v;
  return j;
}

}  // namespace

double TaskSetStats::AvgDocuments(const std::string& ns) const {
  auto it = namespaces.find(ns);
  if (it == namespaces.end() || tasks == 0) return 0;
  return static_cast<double>(it->second.documents) / static_cast<double>(tasks);
}

TaskSetStats ComputeStats(const std::vector<Task>& tasks, const text::Cl100kTokenizer& tokenizer,
                          std::string label) {
  TaskSetStats s;
  s.label = std::move(label);
  s.tasks = tasks.size();
  // Table 2's two namespaces are always reported, even when a set has none of one.
  s.namespaces["wikipedia"];
  s.namespaces["datagov"];
  for (auto t : {AnswerType::kNumeric, AnswerType::kTemporal, AnswerType::kEntity}) {
    s.answer_types[std::string(AnswerTypeName(t))] = 0;
  }
  size_t token_sum = 0;
  for (const Task& t : tasks) {
    size_t n = tokenizer.Count(t.question);
    token_sum += n;
    s.question_tokens_max = std::max(s.question_tokens_max, n);
    std::set<std::string> seen_ns;
    for (const std::string& d : t.datasets_used) {
      auto ref = ParseDatasetPath(d);
      if (!ref.ok()) continue;
      s.namespaces[ref->ns].documents++;
      seen_ns.insert(ref->ns);
    }
    for (const std::string& key : GoldDatasets(t)) {
      std::string ns = key.substr(0, key.find('/'));
      s.namespaces[ns].datasets++;
    }
    for (const std::string& ns : seen_ns) s.namespaces[ns].tasks++;
    HopStructure h = AnalyzeHops(t);
    s.hops[h.k]++;
    s.in_degree[h.d]++;
    s.nodes[static_cast<int>(t.nodes.size())]++;
    // The benchmark's own answer type when it has one, as report.json's by_answer_type.
    s.answer_types[TaskAnswerType(t)]++;
  }
  s.question_tokens_avg =
      tasks.empty() ? 0 : static_cast<double>(token_sum) / static_cast<double>(tasks.size());
  return s;
}

Json TaskSetStats::ToJson() const {
  Json ns = Json::object();
  for (const auto& [name, v] : namespaces) {
    ns[name] = {{"documents", v.documents},
                {"documents_per_task", AvgDocuments(name)},
                {"datasets", v.datasets},
                {"tasks", v.tasks}};
  }
  return Json{{"label", label},
              {"tasks", tasks},
              {"avg_wikipedia_docs_per_task", AvgDocuments("wikipedia")},
              {"avg_datagov_docs_per_task", AvgDocuments("datagov")},
              {"question_tokens_max", question_tokens_max},
              {"question_tokens_avg", question_tokens_avg},
              {"tokenizer", "cl100k_base"},
              {"hops", DistributionJson(hops)},
              {"nodes", DistributionJson(nodes)},
              {"in_degree", DistributionJson(in_degree)},
              {"answer_types", DistributionJson(answer_types)},
              {"namespaces", std::move(ns)}};
}

std::string FormatStatsTable(const std::vector<TaskSetStats>& sets) {
  size_t width = 14;
  for (const auto& s : sets) width = std::max(width, s.label.size() + 2);
  std::string out;
  auto row = [&](const std::string& name, auto cell) {
    out += fmt::format("{:<30}", name);
    for (const auto& s : sets) out += fmt::format("{:>{}}", cell(s), width);
    out += "\n";
  };
  row("Statistics", [](const TaskSetStats& s) { return s.label; });
  row("Number of tasks", [](const TaskSetStats& s) { return fmt::format("{}", s.tasks); });
  std::set<std::string> all_ns;
  for (const auto& s : sets) {
    for (const auto& [name, v] : s.namespaces) all_ns.insert(name);
  }
  // Wikipedia first, then Data.gov, as in the paper; other namespaces after.
  std::vector<std::string> order = {"wikipedia", "datagov"};
  for (const auto& n : all_ns) {
    if (n != "wikipedia" && n != "datagov") order.push_back(n);
  }
  for (const auto& n : order) {
    row(fmt::format("Avg. {} docs/task", DisplayName(n)),
        [&](const TaskSetStats& s) { return fmt::format("{:.2f}", s.AvgDocuments(n)); });
  }
  row("Question Length (max)",
      [](const TaskSetStats& s) { return fmt::format("{}", s.question_tokens_max); });
  row("Question Length (avg)",
      [](const TaskSetStats& s) { return fmt::format("{:.2f}", s.question_tokens_avg); });

  auto dist = [&](const std::string& title, auto member) {
    std::set<int> keys;
    for (const auto& s : sets) {
      for (const auto& [k, v] : s.*member) keys.insert(k);
    }
    out += "\n" + title + "\n";
    for (int k : keys) {
      row(fmt::format("  {}", k), [&](const TaskSetStats& s) {
        auto it = (s.*member).find(k);
        return fmt::format("{}", it == (s.*member).end() ? 0 : it->second);
      });
    }
  };
  dist("Hops k (longest path in the hop DAG)", &TaskSetStats::hops);
  dist("In-degree d (largest hop)", &TaskSetStats::in_degree);
  dist("Nodes per task", &TaskSetStats::nodes);

  out += "\nAnswer types\n";
  for (const char* t : {"numeric", "temporal", "entity"}) {
    row(fmt::format("  {}", t), [&](const TaskSetStats& s) {
      auto it = s.answer_types.find(t);
      return fmt::format("{}", it == s.answer_types.end() ? 0 : it->second);
    });
  }
  out += "\nNamespaces (documents / distinct datasets per task)\n";
  for (const auto& n : order) {
    row(fmt::format("  {}", n), [&](const TaskSetStats& s) {
      auto it = s.namespaces.find(n);
      if (it == s.namespaces.end()) return std::string("0 / 0");
      return fmt::format("{} / {}", it->second.documents, it->second.datasets);
    });
  }
  return out;
}

}  // namespace lakeqa::eval
