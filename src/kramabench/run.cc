// A run over KramaBench tasks scored with KramaBench's metrics, beside lakeqa's EM/lenient/judge.
#include <fmt/format.h>

#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {

using namespace eval;  // the core types a benchmark builds on: Task, LoadResult, RunScore, ...

namespace {

Json MetricsJson(const std::map<std::string, std::optional<double>>& m) {
  Json j = Json::object();
  for (const auto& [k, v] : m) j[k] = v ? Json(*v) : Json(nullptr);
  return j;
}

Json RowJson(const KramaBenchRow& r) {
  std::string main;
  auto s = KramaBenchMainScore(r.answer_type, r.metrics, &main);
  Json j = {{"task_id", r.task_id},
            {"domain", r.domain},
            {"answer_type", r.answer_type},
            {"metrics", MetricsJson(r.metrics)}};
  j["main_metric"] = main.empty() ? Json(nullptr) : Json(main);
  j["score"] = s ? Json(*s) : Json(nullptr);
  return j;
}

}  // namespace

Json KramaBenchRunReport(const RunScore& score, const RunData& run, const std::vector<Task>& tasks) {
  std::map<std::string, const TaskScore*> scored;
  for (const auto& ts : score.tasks) scored[ts.task_id] = &ts;
  std::map<std::string, const Prediction*> preds;
  for (const auto& p : run.predictions) preds[p.task_id] = &p;
  std::vector<KramaBenchRow> main_rows, sub_rows;
  Json per_task = Json::array(), per_subtask = Json::array(), unscored = Json::array();
  bool any = false;
  for (const Task& t : tasks) {
    const KramaBenchTask* kb = Of(t);
    if (!kb) continue;
    any = true;
    auto it = scored.find(t.id);
    if (it != scored.end()) {
      const TaskScore& ts = *it->second;
      std::optional<bool> para;
      if (ts.judge) para = ts.judge->correct;
      Json predicted = ts.status == "ok" ? ts.raw_answer : Json(nullptr);
      auto m = KramaBenchMetrics(kb->answer_type, predicted, t.answer, para);
      if (!m.ok()) {
        unscored.push_back({{"task_id", t.id}, {"reason", m.status().message()}});
      } else {
        KramaBenchRow r{t.id, kb->domain, kb->answer_type, false, std::move(*m)};
        per_task.push_back(RowJson(r));
        main_rows.push_back(std::move(r));
      }
    }
    for (const auto& st : kb->subtasks) {
      auto p = preds.find(st.id);
      if (p == preds.end()) continue;
      Json predicted = p->second->status == "ok" ? p->second->answer : Json(nullptr);
      auto m = KramaBenchMetrics(st.answer_type, predicted, st.answer);
      if (!m.ok()) {
        unscored.push_back({{"task_id", st.id}, {"reason", m.status().message()}});
        continue;
      }
      KramaBenchRow r{st.id, kb->domain, st.answer_type, true, std::move(*m)};
      per_subtask.push_back(RowJson(r));
      sub_rows.push_back(std::move(r));
    }
  }
  if (!any) return nullptr;
  Json j = {
      {"tasks", per_task}, {"unscored", unscored}, {"leaderboard", AggregateKramaBench(main_rows).ToJson()}};
  if (!sub_rows.empty()) {
    j["subtasks"] = per_subtask;
    j["subtask_leaderboard"] = AggregateKramaBench(sub_rows).ToJson();
  }
  j["llm_paraphrase"] = score.judged ? "the run's judge verdicts" : "unknown (no --judge)";
  return j;
}

std::string FormatKramaBenchLeaderboard(const Json& lb, std::string_view title) {
  std::string out = fmt::format("{}\n{:<14} {:>10} {:>9} {:>9} {:>10} {:>17} {:>8}\n", title, "domain",
                                "score", "success", "f1", "rae_score", "string_bootstrap", "unknown");
  auto cell = [](const Json& d, const char* k) -> std::string {
    if (!d["metrics"].contains(k)) return "-";
    const Json& m = d["metrics"][k];
    return m["mean"].is_null() ? "unknown" : fmt::format("{:.3f}", m["mean"].get<double>());
  };
  auto row = [&](const std::string& name, const Json& d) {
    std::string score =
        d["score"].is_null() ? "unknown" : fmt::format("{:.2f}%", d["score"].get<double>() * 100);
    out += fmt::format("{:<14} {:>10} {:>9} {:>9} {:>10} {:>17} {:>8}\n", name, score, cell(d, "success"),
                       cell(d, "f1"), cell(d, "rae_score"), cell(d, "string_bootstrap"),
                       d["unknown_scores"].get<size_t>());
  };
  for (const auto& [name, d] : lb.items())
    if (name != "overall") row(name, d);
  if (lb.contains("overall")) row("overall", lb["overall"]);
  return out;
}

std::string FormatKramaBenchRunReport(const Json& report) {
  if (report.is_null()) return "";
  std::string out = FormatKramaBenchLeaderboard(report["leaderboard"], "KramaBench metrics (tasks):");
  if (report.contains("subtask_leaderboard"))
    out += FormatKramaBenchLeaderboard(report["subtask_leaderboard"], "KramaBench metrics (subtasks):");
  for (const auto& u : report["unscored"])
    out += fmt::format("unscored {}: {}\n", u["task_id"].get<std::string>(), u["reason"].get<std::string>());
  return out;
}

}  // namespace lakeqa::kramabench
