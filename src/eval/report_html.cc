// report.html: one file, no external resources (it must open offline and from an archived run), so the
// charts are SVG drawn here and the only script is a few lines of inline JS for sorting and filtering the
// task table. Every string from the run (answers, tool arguments, summaries) is escaped; long ones are
// cut so a runaway trace cannot make the file unusable.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/report.h"

namespace lakeqa::eval {
namespace {

struct Bar {
  std::string label;
  double value = 0;     // in [0, max]
  std::string caption;  // shown above the bar
};

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948"};

std::string Pct(double v) {
  return fmt::format("{:.1f}%", v * 100);
}

std::string Cut(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  return std::string(TruncateUtf8(s, max)) + fmt::format(" … ({} bytes)", s.size());
}

// A vertical bar chart; `id` goes into data-chart so tests and readers can find it.
std::string BarChart(const std::string& id, const std::string& title, const std::vector<Bar>& bars,
                     double max, const std::string& color) {
  const int w = std::max(320, 96 * static_cast<int>(bars.size()) + 60), h = 240, left = 40, bottom = 40,
            top = 30;
  const int plot_h = h - bottom - top;
  std::string s = fmt::format(
      "<figure><figcaption>{}</figcaption><svg data-chart=\"{}\" data-points=\"{}\" width=\"{}\" "
      "height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\">",
      HtmlEscape(title), id, bars.size(), w, h, w, h);
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>", left, h - bottom,
                   w - 10, h - bottom);
  for (int t = 0; t <= 4; ++t) {
    double v = max * t / 4;
    int y = h - bottom - plot_h * t / 4;
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>", left - 4, y + 4,
                     max == 1.0 ? fmt::format("{:.0f}%", v * 100) : fmt::format("{:.3g}", v));
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eee\"/>", left, y, w - 10, y);
  }
  const int slot = (w - left - 10) / std::max<int>(1, static_cast<int>(bars.size()));
  for (size_t i = 0; i < bars.size(); ++i) {
    double frac = max > 0 ? std::clamp(bars[i].value / max, 0.0, 1.0) : 0;
    int bh = static_cast<int>(std::lround(frac * plot_h));
    int x = left + static_cast<int>(i) * slot + slot / 6;
    int bw = slot * 2 / 3;
    s += fmt::format(
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
        "data-value=\"{}\"><title>{}: "
        "{}</title></rect>",
        x, h - bottom - bh, bw, bh, color, bars[i].value, HtmlEscape(bars[i].label),
        HtmlEscape(bars[i].caption));
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"val\" text-anchor=\"middle\">{}</text>", x + bw / 2,
                     h - bottom - bh - 4, HtmlEscape(bars[i].caption));
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\" text-anchor=\"middle\">{}</text>", x + bw / 2,
                     h - bottom + 16, HtmlEscape(bars[i].label));
  }
  return s + "</svg></figure>";
}

// Grouped bars: one group per label, one bar per series.
std::string GroupedChart(const std::string& id, const std::string& title,
                         const std::vector<std::string>& groups,
                         const std::vector<std::pair<std::string, std::vector<double>>>& series) {
  const int w = 460, h = 260, left = 40, bottom = 50, top = 20;
  const int plot_h = h - bottom - top;
  size_t points = 0;
  for (const auto& sr : series)
    points += sr.second.size();
  std::string s = fmt::format(
      "<figure><figcaption>{}</figcaption><svg data-chart=\"{}\" data-points=\"{}\" width=\"{}\" "
      "height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\">",
      HtmlEscape(title), id, points, w, h, w, h);
  for (int t = 0; t <= 4; ++t) {
    int y = h - bottom - plot_h * t / 4;
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}%</text>", left - 4, y + 4,
                     t * 25);
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eee\"/>", left, y, w - 10, y);
  }
  const int slot = (w - left - 10) / std::max<int>(1, static_cast<int>(groups.size()));
  const int bw = slot / static_cast<int>(series.size() + 1);
  for (size_t g = 0; g < groups.size(); ++g) {
    int gx = left + static_cast<int>(g) * slot + bw / 2;
    for (size_t k = 0; k < series.size(); ++k) {
      double v = g < series[k].second.size() ? std::clamp(series[k].second[g], 0.0, 1.0) : 0;
      int bh = static_cast<int>(std::lround(v * plot_h));
      int x = gx + static_cast<int>(k) * bw;
      s += fmt::format(
          "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
          "data-value=\"{}\"><title>{} "
          "{}: {}</title></rect>",
          x, h - bottom - bh, bw - 2, bh, kPalette[k % 6], v, HtmlEscape(series[k].first),
          HtmlEscape(groups[g]), Pct(v));
      s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"val\" text-anchor=\"middle\">{:.0f}</text>",
                       x + bw / 2, h - bottom - bh - 3, v * 100);
    }
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\" text-anchor=\"middle\">{}</text>",
                     gx + bw * static_cast<int>(series.size()) / 2, h - bottom + 16, HtmlEscape(groups[g]));
  }
  for (size_t k = 0; k < series.size(); ++k) {
    int x = left + static_cast<int>(k) * 110;
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>", x, h - 18,
                     kPalette[k % 6]);
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\">{}</text>", x + 14, h - 9,
                     HtmlEscape(series[k].first));
  }
  return s + "</svg></figure>";
}

// Horizontal bars for the funnel, in stage order.
std::string FunnelChart(const RunScore& score) {
  const int w = 520, row = 30, left = 170, top = 10;
  const int h = top + row * static_cast<int>(AllFunnelStages().size()) + 10;
  size_t total = std::max<size_t>(1, score.tasks.size());
  std::string s = fmt::format(
      "<figure><figcaption>Failure funnel (furthest stage reached)</figcaption><svg data-chart=\"funnel\" "
      "data-points=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">",
      AllFunnelStages().size(), w, h, w, h);
  const char* colors[] = {"#59a14f", "#e15759", "#f28e2b", "#edc948", "#b07aa1"};
  int i = 0;
  for (FunnelStage st : AllFunnelStages()) {
    size_t c = score.funnel.count(st) ? score.funnel.at(st) : 0;
    int bw =
        static_cast<int>(std::lround(static_cast<double>(c) / static_cast<double>(total) * (w - left - 70)));
    int y = top + i * row;
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\" text-anchor=\"end\">{}</text>", left - 6, y + 18,
                     FunnelStageName(st));
    s += fmt::format(
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
        "data-value=\"{}\"><title>{}: "
        "{}</title></rect>",
        left, y + 4, bw, row - 8, colors[i % 5], c, FunnelStageName(st), c);
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"val\">{}/{}</text>", left + bw + 6, y + 18, c,
                     score.tasks.size());
    ++i;
  }
  return s + "</svg></figure>";
}

// Cost vs accuracy: one point per task of known cost (cost on x, token F1 on y), filled when EM is 1.
// Tasks of unknown cost have no x: they are left out, and the caption says how many.
std::string CostChart(const RunScore& score) {
  const int w = 460, h = 260, left = 50, bottom = 40, top = 15, right = 15;
  if (score.cost.n == 0) {
    return "<figure><figcaption>Cost vs accuracy: cost unknown for every task (an unpriced model)</figcaption>"
           "</figure>";
  }
  double max_cost = 0;
  for (const auto& t : score.tasks)
    if (t.cost_usd) max_cost = std::max(max_cost, *t.cost_usd);
  if (max_cost <= 0) max_cost = 1;
  std::string s = fmt::format(
      "<figure><figcaption>Cost vs accuracy per task (x: cost USD, y: token F1; filled = exact "
      "match){}</figcaption>"
      "<svg data-chart=\"cost-accuracy\" data-points=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\">",
      score.cost_unknown ? fmt::format("; {} tasks of unknown cost not shown", score.cost_unknown) : "",
      score.cost.n, w, h, w, h);
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>", left, h - bottom,
                   w - right, h - bottom);
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>", left, top, left,
                   h - bottom);
  for (int t = 0; t <= 4; ++t) {
    int y = h - bottom - (h - bottom - top) * t / 4;
    int x = left + (w - left - right) * t / 4;
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{:.2f}</text>", left - 4,
                     y + 4, t / 4.0);
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">${:.3g}</text>", x,
                     h - bottom + 14, max_cost * t / 4);
  }
  for (size_t i = 0; i < score.tasks.size(); ++i) {
    const TaskScore& t = score.tasks[i];
    if (!t.cost_usd) continue;
    double x = left + (w - left - right) * (*t.cost_usd / max_cost);
    double y = h - bottom - (h - bottom - top) * t.answer.f1;
    s += fmt::format(
        "<circle class=\"pt\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\" stroke=\"#4e79a7\"><title>{}: "
        "${:.4f}, "
        "F1 {:.2f}, EM {}</title></circle>",
        x, y, t.answer.em ? "#4e79a7" : "none", HtmlEscape(t.task_id), *t.cost_usd, t.answer.f1,
        t.answer.em ? 1 : 0);
  }
  return s + "</svg></figure>";
}

std::string Metric(const std::string& name, const std::string& value) {
  return fmt::format("<div class=\"metric\"><div class=\"v\">{}</div><div class=\"n\">{}</div></div>",
                     HtmlEscape(value), HtmlEscape(name));
}

std::string AnswerText(const Json& j) {
  return j.is_string() ? j.get<std::string>() : DumpJson(j);
}

std::string Ids(const std::vector<std::string>& ids, const std::vector<std::string>& gold) {
  std::string s;
  for (const auto& id : ids) {
    bool g = std::find(gold.begin(), gold.end(), id) != gold.end();
    s += fmt::format("<span class=\"id{}\">{}</span> ", g ? " gold" : "", HtmlEscape(id));
  }
  return s;
}

std::string TraceView(const TaskScore& t, size_t index, const RunData& run, const ReportOptions& o) {
  std::string s = fmt::format(
      "<details class=\"trace\" id=\"trace-{}\"><summary>{} — EM {} — {} — {} tool calls</summary>", index,
      HtmlEscape(t.task_id), t.answer.em ? "✔" : "✘", FunnelStageName(t.stage), t.sets.calls);
  s += fmt::format("<p class=\"q\">{}</p>", HtmlEscape(Cut(t.question, 4 * o.max_field_chars)));
  s += fmt::format(
      "<p><b>Gold:</b> {} &nbsp; <b>Answer:</b> {} &nbsp; <b>Cleaned:</b> {} &nbsp; <b>Status:</b> {}</p>",
      HtmlEscape(Cut(AnswerText(t.gold), o.max_field_chars)),
      HtmlEscape(Cut(AnswerText(t.raw_answer), o.max_field_chars)),
      HtmlEscape(Cut(t.answer.cleaned, o.max_field_chars)), HtmlEscape(t.status));
  s += "<p><b>Gold datasets (D*):</b> " + Ids(t.gold_datasets, t.gold_datasets) + "</p>";
  if (t.judge) {
    s += fmt::format("<p><b>Judge:</b> {} — {}</p>", t.judge->correct ? "correct" : "wrong",
                     HtmlEscape(Cut(t.judge->rationale, o.max_field_chars)));
  }
  auto it = run.traces.find(t.task_id);
  if (it == run.traces.end() || it->second.empty()) return s + "<p><i>No trace recorded.</i></p></details>";
  s += "<table class=\"ev\"><thead><tr><th>turn</th><th>tool</th><th>status</th><th>ms</th><th>arguments</th>"
       "<th>summary</th><th>returned</th><th>accessed</th></tr></thead><tbody>";
  size_t shown = 0;
  for (const TraceEvent& e : it->second) {
    if (shown++ >= o.max_trace_events) break;
    s += fmt::format(
        "<tr "
        "class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{:.0f}</td><td><pre>{}</pre></td><td><pre>{}</"
        "pre></td>"
        "<td>{}</td><td>{}</td></tr>",
        e.status == "ok" ? "" : "err", e.turn, HtmlEscape(e.tool), HtmlEscape(e.status), e.elapsed_ms,
        HtmlEscape(Cut(e.arguments.is_null() ? "" : DumpJson(e.arguments, 1), o.max_field_chars)),
        HtmlEscape(Cut(e.summary, o.max_field_chars)), Ids(e.returned, t.gold_datasets),
        Ids(e.accessed, t.gold_datasets));
  }
  s += "</tbody></table>";
  if (it->second.size() > o.max_trace_events) {
    s += fmt::format("<p><i>{} more events not shown (see traces/{}.jsonl).</i></p>",
                     it->second.size() - o.max_trace_events, HtmlEscape(t.task_id));
  }
  return s + "</details>";
}

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}
.metrics{display:flex;flex-wrap:wrap;gap:12px}.metric{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:110px}
.metric .v{font-size:20px;font-weight:600}.metric .n{font-size:12px;color:#666}
.charts{display:flex;flex-wrap:wrap;gap:18px}figure{margin:0;border:1px solid #eee;padding:8px;border-radius:6px}
figcaption{font-size:13px;font-weight:600;margin-bottom:4px}svg text{font-size:11px;fill:#333}svg .tick{fill:#777}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f5f5f5;cursor:pointer}tr.ok td.em{color:#2a7}tr.bad td.em{color:#c33}
pre{white-space:pre-wrap;word-break:break-word;margin:0;max-width:420px;font-size:12px}
.id{font-family:monospace;font-size:12px;background:#f0f0f0;padding:0 3px;border-radius:3px}.id.gold{background:#d7f0d0}
tr.err td{background:#fff0f0}details.trace{margin:8px 0;border:1px solid #ddd;border-radius:6px;padding:6px}
details.trace summary{cursor:pointer;font-weight:600}.q{font-style:italic}.warn{color:#a60}
)";

// Sorting by a clicked header and filtering by text; the body's data-ready attribute tells a headless
// check that the script ran to the end.
constexpr const char* kScript = R"(
(function(){
  var table=document.getElementById('tasks');
  var tbody=table.tBodies[0];
  Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,col){
    th.addEventListener('click',function(){
      var rows=Array.prototype.slice.call(tbody.rows);
      var dir=th.getAttribute('data-dir')==='asc'?-1:1;th.setAttribute('data-dir',dir>0?'asc':'desc');
      rows.sort(function(a,b){var x=a.cells[col].getAttribute('data-v')||a.cells[col].textContent;
        var y=b.cells[col].getAttribute('data-v')||b.cells[col].textContent;var nx=parseFloat(x),ny=parseFloat(y);
        if(!isNaN(nx)&&!isNaN(ny))return dir*(nx-ny);return dir*x.localeCompare(y);});
      rows.forEach(function(r){tbody.appendChild(r);});
    });
  });
  var f=document.getElementById('filter');
  f.addEventListener('input',function(){var q=f.value.toLowerCase();
    Array.prototype.forEach.call(tbody.rows,function(r){r.style.display=r.textContent.toLowerCase().indexOf(q)>=0?'':'none';});});
  Array.prototype.forEach.call(document.querySelectorAll('a.tr'),function(a){a.addEventListener('click',function(){
    var d=document.getElementById(a.getAttribute('href').slice(1));if(d)d.open=true;});});
  document.body.setAttribute('data-ready','1');
})();
)";

}  // namespace

std::string HtmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(c);
    }
  }
  return SanitizeUtf8(out);
}

std::string RenderHtml(const RunScore& score, const RunData& run, const ReportOptions& o) {
  std::string title = "lakeqa report";
  std::string model, agent;
  if (auto m = run.run_json.find("model"); m != run.run_json.end() && m->is_string())
    model = m->get<std::string>();
  if (auto a = run.run_json.find("agent"); a != run.run_json.end() && a->is_string())
    agent = a->get<std::string>();
  std::string h = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                  HtmlEscape(title) + "</title><style>" + kStyle + "</style></head><body>";
  h += fmt::format("<h1>{}</h1><p>Run <code>{}</code>{}{} — {} tasks scored</p>", HtmlEscape(title),
                   HtmlEscape(score.run_dir), agent.empty() ? "" : " · agent " + HtmlEscape(agent),
                   model.empty() ? "" : " · model " + HtmlEscape(model), score.tasks.size());
  h += "<div class=\"metrics\">";
  h += Metric("EM (LakeQA)", Pct(score.em));
  h += Metric("lenient (EM ∪ numeric ∪ date)", Pct(score.lenient));
  h += Metric("token F1", fmt::format("{:.3f}", score.token_f1));
  if (score.judged) {
    h += Metric(score.judge_failed ? fmt::format("LLM judge ({} of {} tasks without a verdict)", score.judge_failed,
                                                 score.tasks.size())
                                   : "LLM judge",
                score.judge_verdicts ? Pct(score.judge_accuracy) : "none");
  }
  h += Metric("runtime mean / p90", fmt::format("{:.1f}s / {:.1f}s", score.runtime.mean, score.runtime.p90));
  if (score.cost.n == 0) {
    h += Metric("cost (an unpriced model)", "unknown");
  } else {
    h += Metric(score.cost_unknown ? fmt::format("cost mean / total of {} tasks ({} of unknown cost left out)",
                                                 score.cost.n, score.cost_unknown)
                                   : "cost mean / total",
                fmt::format("${:.4f} / ${:.2f}", score.cost.mean, score.cost.sum));
  }
  h += Metric("D_acc P / R / F1", fmt::format("{:.1f} / {:.1f} / {:.1f}", score.dacc.precision * 100,
                                              score.dacc.recall * 100, score.dacc.f1 * 100));
  h += Metric("D_ret P / R / F1", fmt::format("{:.1f} / {:.1f} / {:.1f}", score.dret.precision * 100,
                                              score.dret.recall * 100, score.dret.f1 * 100));
  h += Metric("tool calls mean", fmt::format("{:.1f}", score.tool_calls.mean));
  h += "</div>";

  h += "<h2>Charts</h2><div class=\"charts\">";
  std::vector<Bar> hops;
  for (const auto& [k, b] : score.by_hops) {
    hops.push_back(
        {fmt::format("k={}", k), b.em_rate(), fmt::format("{} ({}/{})", Pct(b.em_rate()), b.em, b.tasks)});
  }
  h += BarChart("em-by-hops", "EM by number of hops k", hops, 1.0, "#4e79a7");
  std::vector<Bar> docs;
  for (const char* bucket : {"1-8", "9-13", "14-18", ">18"}) {
    auto it = score.by_documents.find(bucket);
    if (it == score.by_documents.end()) continue;
    docs.push_back({bucket, it->second.em_rate(),
                    fmt::format("{} ({}/{})", Pct(it->second.em_rate()), it->second.em, it->second.tasks)});
  }
  h += BarChart("em-by-documents", "EM by gold documents per task (Figure 5 buckets)", docs, 1.0, "#76b7b2");
  h += FunnelChart(score);
  h += GroupedChart("discovery", "D_ret vs D_acc (macro P / R / F1)", {"precision", "recall", "F1"},
                    {{"D_ret (retrieved)", {score.dret.precision, score.dret.recall, score.dret.f1}},
                     {"D_acc (accessed)", {score.dacc.precision, score.dacc.recall, score.dacc.f1}}});
  h += CostChart(score);
  h += "</div>";

  h += "<h2>Breakdowns</h2><div class=\"charts\">";
  auto table = [](const std::string& name, const auto& m) {
    std::string t =
        "<table><thead><tr><th>" + HtmlEscape(name) + "</th><th>tasks</th><th>EM</th></tr></thead><tbody>";
    for (const auto& [k, b] : m) {
      t += fmt::format("<tr><td>{}</td><td>{}</td><td>{} ({})</td></tr>", HtmlEscape(fmt::format("{}", k)),
                       b.tasks, Pct(b.em_rate()), b.em);
    }
    return t + "</tbody></table>";
  };
  h += table("namespace mix", score.by_namespace_mix);
  h += table("answer type", score.by_answer_type);
  std::string tools = "<table><thead><tr><th>tool</th><th>calls</th></tr></thead><tbody>";
  for (const auto& [tool, c] : score.tool_call_totals) {
    tools += fmt::format("<tr><td>{}</td><td>{}</td></tr>", HtmlEscape(tool), c);
  }
  h += tools + "</tbody></table>";
  std::string st = "<table><thead><tr><th>status</th><th>tasks</th></tr></thead><tbody>";
  for (const auto& [k, c] : score.status_counts)
    st += fmt::format("<tr><td>{}</td><td>{}</td></tr>", HtmlEscape(k), c);
  h += st + "</tbody></table></div>";

  if (!score.warnings.empty() || !score.not_run.empty() || !score.unknown_predictions.empty()) {
    h += "<h2>Warnings</h2><ul class=\"warn\">";
    for (const auto& w : score.warnings)
      h += "<li>" + HtmlEscape(Cut(w, o.max_field_chars)) + "</li>";
    if (!score.not_run.empty())
      h += fmt::format("<li>{} tasks have no prediction line</li>", score.not_run.size());
    if (!score.unknown_predictions.empty()) {
      h += fmt::format("<li>{} predictions name unknown tasks</li>", score.unknown_predictions.size());
    }
    h += "</ul>";
  }

  h += "<h2>Tasks</h2><p><input id=\"filter\" placeholder=\"filter rows\" size=\"40\"></p>";
  h += "<table id=\"tasks\"><thead><tr><th>task</th><th>EM</th><th>lenient</th><th>F1</th>";
  if (score.judged) h += "<th>judge</th>";
  h += "<th>answer</th><th>gold</th><th>status</th><th>funnel</th><th>k</th><th>docs</th><th>D_ret R</th>"
       "<th>D_acc R</th><th>calls</th><th>runtime s</th><th>cost $</th><th>trace</th></tr></thead><tbody>";
  for (size_t i = 0; i < score.tasks.size(); ++i) {
    const TaskScore& t = score.tasks[i];
    h += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td class=\"em\" data-v=\"{}\">{}</td><td>{}</td><td>{:.2f}</td>",
        t.answer.em ? "ok" : "bad", HtmlEscape(t.task_id), t.answer.em ? 1 : 0, t.answer.em ? "✔" : "✘",
        t.answer.lenient() ? "✔" : "", t.answer.f1);
    if (score.judged) h += fmt::format("<td>{}</td>", !t.judge ? "no verdict" : t.judge->correct ? "✔" : "✘");
    h += fmt::format(
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2f}</td><td>{:.2f}</"
        "td><td>{}</td>"
        "<td>{:.1f}</td><td>{}</td><td><a class=\"tr\" href=\"#trace-{}\">view</a></td></tr>",
        HtmlEscape(Cut(AnswerText(t.raw_answer), 200)), HtmlEscape(Cut(AnswerText(t.gold), 200)),
        HtmlEscape(t.status), FunnelStageName(t.stage), t.hops, t.documents, t.dret.recall, t.dacc.recall,
        t.sets.calls, t.runtime_s, t.cost_usd ? fmt::format("{:.4f}", *t.cost_usd) : "unknown", i);
  }
  h += "</tbody></table>";
  h += "<h2>Traces</h2>";
  for (size_t i = 0; i < score.tasks.size(); ++i)
    h += TraceView(score.tasks[i], i, run, o);
  h += "<script>";
  h += kScript;
  h += "</script></body></html>\n";
  return h;
}

Status WriteReports(const RunScore& score, const RunData& run, const std::string& dir,
                    const ReportOptions& o) {
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/report.json", DumpJson(score.ToJson(), 2) + "\n"));
  return WriteFileAtomic(dir + "/report.html", RenderHtml(score, run, o));
}

}  // namespace lakeqa::eval
