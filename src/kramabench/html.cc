// report.html's KramaBench section: the benchmark's own leaderboard as evaluate.py aggregates it (per domain:
// the score over the main metrics, and each metric's mean, std and support), then per task its main metric
// and score, and the tasks KramaBench could not score. It renders report.json's `kramabench` object, so
// the page and the JSON cannot disagree.
#include <fmt/format.h>

#include <map>

#include "lakeqa/eval/report.h"
#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {

using namespace eval;  // the core types a benchmark builds on: Task, LoadResult, RunScore, ...

namespace {

// The metrics evaluate.py sums into its "Total score", then the rest it reports.
constexpr const char* kMainMetrics[] = {"success", "f1", "rae_score", "string_bootstrap"};

std::string Score(const Json& v) {
  return v.is_number() ? fmt::format("{:.3f}", v.get<double>()) : "unknown";
}

// "0.812 ± 0.120 (7 of 8)". evaluate.py's std is 0 for a single value (`... if len > 1 else 0`); the
// page says so instead of printing a spread that was never measured.
std::string MetricCell(const Json& d, const char* name) {
  if (!d["metrics"].contains(name)) return "–";
  const Json& m = d["metrics"][name];
  if (m["mean"].is_null()) return fmt::format("unknown (0 of {})", m["total"].get<size_t>());
  size_t support = m["support"].get<size_t>();
  std::string spread = support > 1
                           ? fmt::format(" ± {:.3f}", m["std"].get<double>())
                           : " <span title=\"one value: KramaBench's aggregate_results reports std 0\">"
                             "(std: one value)</span>";
  return fmt::format("{:.3f}{} ({} of {})", m["mean"].get<double>(), spread, support,
                     m["total"].get<size_t>());
}

std::string Leaderboard(const Json& lb, const Json& rows, const std::string& caption) {
  std::map<std::string, size_t> tasks;
  for (const Json& r : rows) ++tasks[r.value("domain", "")];
  std::string h = "<table class=\"kb\"><caption>" + HtmlEscape(caption) +
                  "</caption><thead><tr><th>domain</th><th>tasks</th><th>score</th>";
  for (const char* m : kMainMetrics) h += fmt::format("<th>{}</th>", m);
  h += "<th>unknown scores</th></tr></thead><tbody>";
  auto row = [&](const std::string& name, const Json& d) {
    size_t n = 0;
    if (name == "overall") {
      n = rows.size();
    } else if (auto it = tasks.find(name); it != tasks.end()) {
      n = it->second;
    }
    std::string score =
        d["score"].is_number() ? fmt::format("{:.2f}%", d["score"].get<double>() * 100) : "unknown";
    h += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td>", name == "overall" ? " class=\"total\"" : "",
                     HtmlEscape(name), n, score);
    for (const char* m : kMainMetrics) h += "<td>" + MetricCell(d, m) + "</td>";
    h += fmt::format("<td>{}</td></tr>", d.value("unknown_scores", 0));
  };
  for (const auto& [name, d] : lb.items())
    if (name != "overall") row(name, d);
  if (lb.contains("overall")) row("overall", lb["overall"]);
  return h + "</tbody></table>";
}

std::string TaskTable(const Json& rows, const std::string& caption) {
  std::string h = "<table class=\"kb\"><caption>" + HtmlEscape(caption) +
                  "</caption><thead><tr><th>task</th><th>domain</th><th>answer type</th><th>main metric</th>"
                  "<th>score</th></tr></thead><tbody>";
  for (const Json& r : rows) {
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                     HtmlEscape(r.value("task_id", "")), HtmlEscape(r.value("domain", "")),
                     HtmlEscape(r.value("answer_type", "")),
                     r["main_metric"].is_string() ? HtmlEscape(r["main_metric"].get<std::string>()) : "none",
                     Score(r["score"]));
  }
  return h + "</tbody></table>";
}

}  // namespace

std::string KramaBenchHtmlSection(const Json& report) {
  if (!report.is_object()) return "";
  std::string h =
      "<h2 id=\"kramabench\">KramaBench</h2><p>KramaBench's own metrics, aggregated as its "
      "<code>evaluate.py</code> does: per domain the score Σ(support·mean)/Σ(rows) over success, f1, "
      "rae_score "
      "and string_bootstrap, and each metric's mean ± sample std (values present of rows). "
      "<code>llm_paraphrase</code>: " +
      HtmlEscape(report.value("llm_paraphrase", "unknown")) + " (docs/kramabench.md).</p>";
  h += Leaderboard(report["leaderboard"], report["tasks"], "Leaderboard (tasks)");
  if (report.contains("subtask_leaderboard"))
    h += Leaderboard(report["subtask_leaderboard"], report["subtasks"], "Leaderboard (subtasks)");
  h += "<details><summary>Per task: main metric and score</summary>" + TaskTable(report["tasks"], "Tasks");
  if (report.contains("subtasks")) h += TaskTable(report["subtasks"], "Subtasks");
  h += "</details>";
  if (report.contains("unscored") && !report["unscored"].empty()) {
    h += "<p>Not scored by KramaBench's metrics:</p><ul class=\"warn\">";
    for (const Json& u : report["unscored"])
      h += fmt::format("<li>{}: {}</li>", HtmlEscape(u.value("task_id", "")),
                       HtmlEscape(u.value("reason", "")));
    h += "</ul>";
  }
  return h;
}

}  // namespace lakeqa::kramabench
