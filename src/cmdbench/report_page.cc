#include "lakeqa/cmdbench/report_page.h"

#include <fmt/format.h>

#include "lakeqa/eval/report.h"

namespace lakeqa::cmdbench {

using namespace eval;  // the core types a benchmark builds on

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1c1e21}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d4da;padding:4px 8px;vertical-align:top}
th{background:#f3f5f7;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.bad{color:#b3261e}.ok{color:#1b6e20}.muted{color:#5f6670}
)";

// A fraction as a percentage with two decimals; anything that is not a number is unknown.
std::string Pct(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return "unknown";
  return fmt::format("{:.2f}", 100 * j[key].get<double>());
}

std::string Num(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return "unknown";
  return j[key].dump();
}

std::string Text(const Json& j) {
  if (j.is_string()) return HtmlEscape(j.get<std::string>());
  if (j.is_null()) return "<span class=muted>none</span>";
  return HtmlEscape(j.dump());
}

std::string Row(std::initializer_list<std::string> cells, bool numeric_after_first = true) {
  std::string r = "<tr>";
  bool first = true;
  for (const auto& c : cells) {
    r += (first || !numeric_after_first) ? "<td>" : "<td class=n>";
    r += c + "</td>";
    first = false;
  }
  return r + "</tr>";
}

std::string SourceMetrics(const Json& m) {
  std::string h =
      "<table><tr><th>class</th><th>P</th><th>R</th><th>F1</th><th>support</th><th>predicted</th></tr>";
  for (const char* c : {"graph", "doc", "table"}) {
    const Json& x = m.contains("per_class") && m["per_class"].contains(c) ? m["per_class"][c] : Json();
    h += Row({c, Pct(x, "p"), Pct(x, "r"), Pct(x, "f1"), Num(x, "support"), Num(x, "predicted")});
  }
  h += Row(
      {"<b>macro</b>", Pct(m, "macro_p"), Pct(m, "macro_r"), "<b>" + Pct(m, "macro_f1") + "</b>", "", ""});
  return h + "</table><p>Exact source set: " + Pct(m, "accuracy") + " %</p>";
}

std::string GraphMetrics(const Json& m) {
  std::string h = "<table><tr><th></th><th>P</th><th>R</th><th>F1</th></tr>";
  h += Row({"nodes", Pct(m, "node_p"), Pct(m, "node_r"), Pct(m, "node_f1")});
  h += Row({"edges", Pct(m, "edge_p"), Pct(m, "edge_r"), Pct(m, "edge_f1")});
  if (m.contains("by_type")) {
    for (const auto& [t, v] : m["by_type"].items())
      h += Row({"nodes, " + HtmlEscape(t) + " (" + Num(v, "questions") + ")", Pct(v, "node_p"),
                Pct(v, "node_r"), Pct(v, "node_f1")});
  }
  h += "</table>";
  if (m.value("questions_without_gold", 0) > 0)
    h += "<p class=bad>" + Num(m, "questions_without_gold") +
         " questions left out: their provenance Cypher did not run (see their rows).</p>";
  return h;
}

std::string RankedMetrics(const Json& m) {
  std::string h = "<table><tr>";
  const char* keys[] = {"p@1", "r@1", "r@3", "r@5", "r@10", "r_precision", "mrr", "r@1_random_ties"};
  for (const char* k : keys) h += std::string("<th>") + k + "</th>";
  h += "</tr><tr>";
  for (const char* k : keys)
    h += "<td class=n>" + (std::string(k) == "mrr" ? Num(m, k) : Pct(m, k)) + "</td>";
  return h + "</tr></table>";
}

std::string QuestionRows(const std::string& task, const Json& rows) {
  std::string h =
      "<table><tr><th>qid</th><th>question</th><th>gold</th><th>prediction</th><th>result</th></tr>";
  for (const Json& q : rows) {
    std::string pred, result;
    if (task == "source") {
      pred = Text(q.value("predicted", Json()));
      bool exact = q.value("exact", false);
      result = exact ? "<span class=ok>exact</span>" : "<span class=bad>differs</span>";
    } else if (task == "graph") {
      pred = q.contains("predicted_nodes") ? Text(q["predicted_nodes"]) : "";
      result = q.contains("error") ? "<span class=bad>" + Text(q["error"]) + "</span>"
                                   : "node P " + Pct(q, "node_p") + ", R " + Pct(q, "node_r") + "; edge P " +
                                         Pct(q, "edge_p") + ", R " + Pct(q, "edge_r");
    } else {
      const Json& top = q.contains("top") && q["top"].is_array() && !q["top"].empty() ? q["top"][0] : Json();
      pred = top.is_object() ? Text(top["id"]) : "<span class=muted>nothing ranked</span>";
      const Json& m = q.contains("metrics") ? q["metrics"] : Json();
      result = "R@1 " + Pct(m, "r@1") + ", R@5 " + Pct(m, "r@5") + ", RR " + Num(m, "mrr");
      if (q.value("top_ties", 0) > 1)
        result += " <span class=muted>(" + Num(q, "top_ties") + " tied at the top)</span>";
    }
    Json gold = q.contains("gold") ? q["gold"] : q.value("gold_nodes", Json());
    h += Row({Text(q.value("qid", Json())), Text(q.value("question", Json())), Text(gold), pred, result},
             false);
  }
  return h + "</table>";
}

}  // namespace

std::string RenderCmdbenchHtml(const Json& r) {
  std::string task = r.value("task", "");
  std::string title = "CMDBench " + task + " discovery";
  std::string h = "<!doctype html><html><head><meta charset=utf-8><title>" + HtmlEscape(title) +
                  "</title><style>" + kStyle + "</style></head><body><h1>" + HtmlEscape(title) + "</h1>";
  h += "<p>" + Num(r, "questions") + " questions from <code>" + HtmlEscape(r.value("questions_file", "")) +
       "</code>; method <b>" + HtmlEscape(r.value("method", "")) +
       "</b>. Percentages; docs/cmdbench.md defines each metric.</p>";
  const Json& m = r.contains("metrics") ? r["metrics"] : Json();
  h += "<h2>Metrics</h2>";
  if (task == "source") h += SourceMetrics(m);
  else if (task == "graph") h += GraphMetrics(m);
  else h += RankedMetrics(m);
  h += "<h2>Questions</h2>" +
       QuestionRows(task, r.contains("per_question") ? r["per_question"] : Json::array());
  return h + "</body></html>\n";
}

}  // namespace lakeqa::cmdbench
