// report.html: a page with no external resource (it must open offline and from an archived run), so the
// charts are SVG drawn here and the only script is inline JS for sorting and filtering the task table and
// for loading a task's trace (report-traces/<n>.js, written by report_trace.cc) when it is opened. Every
// string from the run is escaped here or, in the trace view, put into the page as text, never as markup;
// long ones are cut so a runaway trace cannot make the page unusable.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "eval/report_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/report_chart.h"
#include "lakeqa/eval/report_section.h"
#include "lakeqa/eval/run_dir.h"

namespace lakeqa::eval {
namespace {

using report_internal::AnswerText;
using report_internal::Cut;

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948"};

// Grouped bars: one group per label, one bar per series.
std::string GroupedChart(const std::string& id, const std::string& title,
                         const std::vector<std::string>& groups,
                         const std::vector<std::pair<std::string, std::vector<double>>>& series) {
  const int w = 460, h = 260, left = 40, bottom = 50, top = 20;
  const int plot_h = h - bottom - top;
  size_t points = 0;
  for (const auto& sr : series) points += sr.second.size();
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
  // One per stage, in AllFunnelStages() order.
  const char* colors[] = {"#59a14f", "#8cd17d", "#e15759", "#f28e2b", "#edc948", "#b07aa1"};
  static_assert(std::size(colors) == 6);
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
    return "<figure><figcaption>Cost vs accuracy: cost unknown for every task (an unpriced "
           "model)</figcaption>"
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

// A task's trace, closed: the page fills it in from report-traces/<index>.js when it is opened.
std::string TracePlaceholder(const TaskScore& t, size_t index) {
  return fmt::format(
      "<details class=\"trace\" id=\"trace-{0}\" data-index=\"{0}\"><summary>{1} — EM {2} — {3} — {4} tool "
      "calls — <a href=\"#row-{0}\">task row</a></summary><div class=\"tbody\"><i>Open to load "
      "{5}.</i></div></details>",
      index, HtmlEscape(t.task_id), t.answer.em ? "✔" : "✘", FunnelStageName(t.stage), t.sets.calls,
      RunDir::ReportTraceScript(index));
}

// "1,234,567"
std::string Count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// A row's value for a filter: "-" for none, so that no option has the empty value that means "all".
std::string Facet(const std::string& v) { return v.empty() ? "-" : v; }

// A <select> that filters the task table on one data-* attribute of its rows.
std::string FilterSelect(const std::string& attr, const std::string& label,
                         const std::vector<std::string>& values) {
  std::string s =
      fmt::format("<label>{} <select class=\"flt\" data-attr=\"{}\"><option value=\"\">all</option>",
                  HtmlEscape(label), attr);
  for (const auto& v : values) s += fmt::format("<option>{}</option>", HtmlEscape(v));
  return s + "</select></label> ";
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
.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;font-size:13px;margin:8px 0}
.ev{border-top:1px solid #eee;padding:6px 0}.ev .hd{font-size:12px;color:#555}.ev .hd b{color:#222}
.ev .say{background:#f4f7fb;border-left:3px solid #4e79a7;padding:4px 8px;margin:4px 0;white-space:pre-wrap;font-size:13px}
.ev pre{max-width:none;background:#fafafa;border:1px solid #eee;padding:4px 6px;margin:3px 0}
.ev pre.code{background:#f6f8f0}.ev .k{font-size:12px;color:#666;margin-top:3px}.ev.err .hd b{color:#c33}
)";

// Sorting by a clicked header; filtering by text and by the selects (also preset from the address:
// report.html?stage=wrong_answer&k=3); a trace is loaded (report-traces/<n>.js) and rendered the first time
// it is opened. Run data only ever reaches the page as text nodes. The body's data-ready attribute, and a
// trace's data-loaded, tell a headless check that the script ran to the end.
constexpr const char* kScript = R"(
(function(){
  var table=document.getElementById('tasks');
  var tbody=table.tBodies[0];
  function each(list,fn){Array.prototype.forEach.call(list,fn);}
  each(table.tHead.rows[0].cells,function(th,col){
    th.addEventListener('click',function(){
      var rows=Array.prototype.slice.call(tbody.rows);
      var dir=th.getAttribute('data-dir')==='asc'?-1:1;th.setAttribute('data-dir',dir>0?'asc':'desc');
      rows.sort(function(a,b){var x=a.cells[col].getAttribute('data-v')||a.cells[col].textContent;
        var y=b.cells[col].getAttribute('data-v')||b.cells[col].textContent;var nx=parseFloat(x),ny=parseFloat(y);
        if(!isNaN(nx)&&!isNaN(ny))return dir*(nx-ny);return dir*x.localeCompare(y);});
      rows.forEach(function(r){tbody.appendChild(r);});
    });
  });
  var f=document.getElementById('filter'),sels=document.querySelectorAll('select.flt'),shown=document.getElementById('shown');
  function apply(){
    var q=f.value.toLowerCase(),n=0;
    each(tbody.rows,function(r){
      var ok=r.textContent.toLowerCase().indexOf(q)>=0;
      each(sels,function(s){if(s.value&&r.getAttribute('data-'+s.getAttribute('data-attr'))!==s.value)ok=false;});
      r.style.display=ok?'':'none';if(ok)n++;
    });
    shown.textContent=n+' of '+tbody.rows.length+' tasks shown';
  }
  f.addEventListener('input',apply);
  each(sels,function(s){s.addEventListener('change',apply);});
  var params=new URLSearchParams(location.search);
  if(params.get('q'))f.value=params.get('q');
  // A value from the address that no row has still filters (to nothing): a select silently drops a value
  // it has no option for, which would show rows the address excludes.
  each(sels,function(s){var v=params.get(s.getAttribute('data-attr'));if(v===null)return;
    if(![].some.call(s.options,function(o){return o.value===v;})){var o=document.createElement('option');o.value=v;o.textContent=v;s.appendChild(o);}
    s.value=v;});
  apply();

  function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined&&text!==null)e.textContent=String(text);return e;}
  function ids(label,list,gold){
    var p=el('div','k');p.appendChild(document.createTextNode(label+' '));
    (list||[]).forEach(function(id){p.appendChild(el('span',gold.indexOf(id)>=0?'id gold':'id',id));p.appendChild(document.createTextNode(' '));});
    return p;
  }
  function num(v,unit){return v===null||v===undefined?'unknown':Math.round(v).toLocaleString('en-US')+unit;}
  function render(box,t){
    box.textContent='';
    box.appendChild(el('p','q',t.question));
    var p=el('p');
    [['Gold',t.gold],['Answer',t.answer],['Cleaned',t.cleaned],['Status',t.status],['Funnel',t.stage]].forEach(function(kv){
      p.appendChild(el('b',null,kv[0]+': '));p.appendChild(document.createTextNode(kv[1]+'   '));});
    box.appendChild(p);
    box.appendChild(ids('Gold datasets (D*):',t.gold_datasets,t.gold_datasets));
    if(t.judge)box.appendChild(el('p',null,'Judge: '+(t.judge.correct?'correct':'wrong')+' — '+t.judge.rationale));
    if(!t.events.length)box.appendChild(el('p',null,'No trace recorded.'));
    t.events.forEach(function(e){
      var d=el('div',e.status==='ok'?'ev':'ev err');
      var hd=el('div','hd');
      hd.appendChild(el('b',null,'turn '+e.turn+' · '+e.tool+' · '+e.status));
      var tok=(e.input_tokens===null&&e.output_tokens===null)?'':' · tokens '+num(e.input_tokens,'')+' in / '+num(e.output_tokens,'')+' out';
      hd.appendChild(document.createTextNode(' · tool '+num(e.elapsed_ms,' ms')+(e.model_ms===null?'':' · model '+num(e.model_ms,' ms'))+tok));
      d.appendChild(hd);
      if(e.content)d.appendChild(el('div','say',e.content));
      var args=e.arguments;
      if(args&&typeof args==='object'&&!Array.isArray(args)){
        Object.keys(args).forEach(function(k){
          var v=args[k];d.appendChild(el('div','k',k+':'));
          d.appendChild(el('pre',typeof v==='string'&&v.indexOf('\n')>=0?'code':null,typeof v==='string'?v:JSON.stringify(v,null,1)));
        });
      }else if(args!==null&&args!==undefined){d.appendChild(el('pre',null,JSON.stringify(args,null,1)));}
      if(e.result){d.appendChild(el('div','k','result:'));d.appendChild(el('pre','result',e.result));}
      else if(e.summary){d.appendChild(el('div','k','summary: '+e.summary));}
      if(e.returned.length)d.appendChild(ids('returned:',e.returned,t.gold_datasets));
      if(e.accessed.length)d.appendChild(ids('accessed:',e.accessed,t.gold_datasets));
      box.appendChild(d);
    });
    if(t.more_events)box.appendChild(el('p',null,t.more_events+' more events not shown (see '+t.trace_file+').'));
  }
  window.lakeqaTrace=function(i,t){
    var d=document.getElementById('trace-'+i);if(!d)return;
    render(d.querySelector('.tbody'),t);d.setAttribute('data-loaded','1');
  };
  function load(d){
    if(d.getAttribute('data-requested'))return;d.setAttribute('data-requested','1');
    var s=document.createElement('script');s.src='report-traces/'+d.getAttribute('data-index')+'.js';
    s.onerror=function(){d.querySelector('.tbody').textContent='Could not load '+s.src+
      ': keep the report-traces folder beside report.html (the raw trace is in traces/).';d.setAttribute('data-loaded','error');};
    document.body.appendChild(s);
  }
  each(document.querySelectorAll('details.trace'),function(d){d.addEventListener('toggle',function(){if(d.open)load(d);});});
  function openHash(){var m=/^#trace-(\d+)$/.exec(location.hash);if(!m)return;var d=document.getElementById('trace-'+m[1]);
    if(d){d.open=true;load(d);}}
  window.addEventListener('hashchange',openHash);
  openHash();
  document.body.setAttribute('data-ready','1');
})();
)";

}  // namespace

std::string HtmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return SanitizeUtf8(out);
}

namespace {
// A repeated run: pass@k and pass^k for k = 1..K, and each epoch's accuracy (the spread across epochs).
std::string EpochsSection(const EpochStats& e) {
  auto pct = [](const std::optional<double>& v) { return v ? Pct(*v) : std::string("unknown"); };
  std::string h = fmt::format(
      "<h2 id=\"epochs\">Epochs</h2><p>{} epochs; {} tasks with every epoch scored ({} incomplete, {} right "
      "in "
      "some epochs only). Mean {}, standard deviation across epochs {}. pass@k is the unbiased estimator "
      "1 − C(n−c,k)/C(n,k) (HumanEval); pass^k is C(c,k)/C(n,k) (τ-bench): all k runs right. The rest of "
      "this "
      "page describes epoch 1.</p><div class=\"charts\">",
      e.epochs, e.complete, e.incomplete.size(), e.inconsistent, pct(e.mean),
      e.stddev ? fmt::format("{:.2f} pts", *e.stddev * 100) : "unknown");
  std::vector<std::string> ks;
  std::vector<double> at, hat;
  for (size_t i = 0; i < e.pass_at.size(); ++i) {
    ks.push_back(fmt::format("k={}", i + 1));
    at.push_back(e.pass_at[i].value_or(0));
    hat.push_back(e.pass_hat[i].value_or(0));
  }
  h += GroupedChart("pass-k", "pass@k and pass^k", ks, {{"pass@k", at}, {"pass^k", hat}});
  std::vector<Bar> per_epoch;
  for (size_t i = 0; i < e.epoch_accuracy.size(); ++i) {
    per_epoch.push_back({fmt::format("epoch {}", i + 1), e.epoch_accuracy[i],
                         e.epoch_tasks[i]
                             ? fmt::format("{} of {}", Pct(e.epoch_accuracy[i]), e.epoch_tasks[i])
                             : std::string("unknown")});
  }
  h += BarChart("epoch-accuracy", "EM of each epoch", per_epoch, 1.0, "#59a14f");
  h += "<table><thead><tr><th>k</th><th>pass@k</th><th>pass^k</th></tr></thead><tbody>";
  for (size_t i = 0; i < e.pass_at.size(); ++i)
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", i + 1, pct(e.pass_at[i]),
                     pct(e.pass_hat[i]));
  return h + "</tbody></table></div>";
}
// The page up to its title line: which run, agent, model and ablation.
std::string PageHead(const RunScore& score, const RunData& run) {
  std::string title = "lakeqa report";
  std::string model, agent;
  if (auto m = run.run_json.find("model"); m != run.run_json.end() && m->is_string())
    model = m->get<std::string>();
  if (auto a = run.run_json.find("agent"); a != run.run_json.end() && a->is_string())
    agent = a->get<std::string>();
  std::string h = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                  HtmlEscape(title) + "</title><style>" + kStyle + "</style></head><body>";
  std::string ablation;
  if (auto a = run.run_json.find("ablation"); a != run.run_json.end() && a->is_object()) {
    for (const auto& [stage, level] : a->items())
      if (level.is_string() && level != "standard")
        ablation += (ablation.empty() ? "" : ",") + stage + "=" + level.get<std::string>();
  }
  h += fmt::format("<h1>{}</h1><p>Run <code>{}</code>{}{}{} — {} tasks scored</p>", HtmlEscape(title),
                   HtmlEscape(score.run_dir), agent.empty() ? "" : " · agent " + HtmlEscape(agent),
                   model.empty() ? "" : " · model " + HtmlEscape(model),
                   ablation.empty() ? "" : " · ablation " + HtmlEscape(ablation), score.tasks.size());
  return h;
}

// The headline numbers; unknown ones say so.
std::string MetricsSection(const RunScore& score) {
  std::string h;
  h += "<div class=\"metrics\">";
  h += Metric("EM (LakeQA)", Pct(score.em));
  h += Metric("lenient (EM ∪ numeric ∪ date)", Pct(score.lenient));
  h += Metric("token F1", fmt::format("{:.3f}", score.token_f1));
  if (score.judged) {
    h += Metric(score.judge_failed ? fmt::format("LLM judge ({} of {} tasks without a verdict)",
                                                 score.judge_failed, score.tasks.size())
                                   : "LLM judge",
                score.judge_verdicts ? Pct(score.judge_accuracy) : "none");
  }
  h += Metric(
      "runtime mean / p90",
      score.runtime.n == 0
          ? std::string("unknown")
          : fmt::format("{:.1f}s / {:.1f}s{}", score.runtime.mean, score.runtime.p90,
                        score.runtime_unknown ? fmt::format(" ({} unknown)", score.runtime_unknown) : ""));
  if (score.cost.n == 0) {
    h += Metric("cost (an unpriced model)", "unknown");
  } else {
    h +=
        Metric(score.cost_unknown ? fmt::format("cost mean / total of {} tasks ({} of unknown cost left out)",
                                                score.cost.n, score.cost_unknown)
                                  : "cost mean / total",
               fmt::format("${:.4f} / ${:.2f}", score.cost.mean, score.cost.sum));
  }
  h += Metric("D_acc P / R / F1", fmt::format("{:.1f} / {:.1f} / {:.1f}", score.dacc.precision * 100,
                                              score.dacc.recall * 100, score.dacc.f1 * 100));
  h += Metric("D_ret P / R / F1", fmt::format("{:.1f} / {:.1f} / {:.1f}", score.dret.precision * 100,
                                              score.dret.recall * 100, score.dret.f1 * 100));
  h += Metric("tool calls mean", fmt::format("{:.1f}", score.tool_calls.mean));
  int64_t tokens_in = 0, tokens_out = 0, tokens_cached = 0;
  for (const TaskScore& t : score.tasks) {
    tokens_in += t.input_tokens;
    tokens_out += t.output_tokens;
    tokens_cached += t.cache_read_tokens;
  }
  h += Metric("tokens in / out (cached in)",
              fmt::format("{} / {} ({})", Count(tokens_in), Count(tokens_out), Count(tokens_cached)));
  h += "</div>";
  return h;
}

// EM by hops and by gold documents, the funnel, discovery and cost charts.
std::string ChartsSection(const RunScore& score) {
  std::string h;
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
  return h;
}

// EM by namespace mix and answer type, tool calls and statuses.
std::string BreakdownsSection(const RunScore& score) {
  std::string h;
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
  return h;
}

// What the scorer warned about: tasks without a prediction, predictions of unknown tasks.
std::string WarningsSection(const RunScore& score, const ReportOptions& o) {
  std::string h;
  if (!score.warnings.empty() || !score.not_run.empty() || !score.unknown_predictions.empty()) {
    h += "<h2>Warnings</h2><ul class=\"warn\">";
    for (const auto& w : score.warnings) h += "<li>" + HtmlEscape(Cut(w, o.max_field_chars)) + "</li>";
    if (!score.not_run.empty())
      h += fmt::format("<li>{} tasks have no prediction line</li>", score.not_run.size());
    if (!score.unknown_predictions.empty()) {
      h += fmt::format("<li>{} predictions name unknown tasks</li>", score.unknown_predictions.size());
    }
    h += "</ul>";
  }
  return h;
}

// The filterable table of tasks, one row a task, each linking to its trace.
std::string TasksSection(const RunScore& score) {
  std::string h;
  // Filters: each select matches one data-* attribute of the rows (and ?<attr>=<value> in the address).
  std::set<std::string> stages, statuses, types, mixes;
  std::set<int> ks;
  for (const TaskScore& t : score.tasks) {
    stages.insert(std::string(FunnelStageName(t.stage)));
    ks.insert(t.hops);
    statuses.insert(Facet(t.status));
    types.insert(Facet(t.answer_type));
    mixes.insert(Facet(t.namespace_mix));
  }
  h += "<h2>Tasks</h2><div class=\"filters\"><input id=\"filter\" placeholder=\"filter rows by text\" "
       "size=\"30\"> ";
  auto list = [](const auto& set) {
    std::vector<std::string> v;
    for (const auto& x : set) v.push_back(fmt::format("{}", x));
    return v;
  };
  std::vector<std::string> stage_order;  // the funnel's order, not the alphabet's
  for (FunnelStage st : AllFunnelStages()) {
    if (stages.count(std::string(FunnelStageName(st)))) stage_order.emplace_back(FunnelStageName(st));
  }
  h += FilterSelect("stage", "funnel stage", stage_order) + FilterSelect("k", "hops k", list(ks)) +
       FilterSelect("status", "status", list(statuses)) + FilterSelect("type", "answer type", list(types)) +
       FilterSelect("ns", "namespaces", list(mixes));
  h += "<span id=\"shown\"></span></div>";
  h += "<table id=\"tasks\"><thead><tr><th>task</th><th>EM</th><th>lenient</th><th>F1</th>";
  if (score.judged) h += "<th>judge</th>";
  h += "<th>answer</th><th title=\"the answer as EM compared it: CleanAnswer of the raw answer\">scored "
       "as</th>"
       "<th>gold</th><th>status</th><th>funnel</th><th>k</th><th>docs</th><th>D_ret R</th>"
       "<th>D_acc R</th><th>calls</th><th>tokens in</th><th>tokens out</th><th>runtime s</th><th>cost $</th>"
       "<th>trace</th></tr></thead><tbody>";
  for (size_t i = 0; i < score.tasks.size(); ++i) {
    const TaskScore& t = score.tasks[i];
    h += fmt::format(
        "<tr id=\"row-{}\" class=\"{}\" data-stage=\"{}\" data-k=\"{}\" data-status=\"{}\" data-type=\"{}\" "
        "data-ns=\"{}\"><td><a class=\"tr\" href=\"#trace-{}\">{}</a></td><td class=\"em\" "
        "data-v=\"{}\">{}</td>"
        "<td>{}</td><td>{:.2f}</td>",
        i, t.answer.em ? "ok" : "bad", FunnelStageName(t.stage), t.hops, HtmlEscape(Facet(t.status)),
        HtmlEscape(Facet(t.answer_type)), HtmlEscape(Facet(t.namespace_mix)), i, HtmlEscape(t.task_id),
        t.answer.em ? 1 : 0, t.answer.em ? "✔" : "✘", t.answer.lenient() ? "✔" : "", t.answer.f1);
    if (score.judged) h += fmt::format("<td>{}</td>", !t.judge ? "no verdict" : t.judge->correct ? "✔" : "✘");
    h += fmt::format(
        "<td>{}</td><td "
        "class=\"scored\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2f}</td>"
        "<td>{:.2f}</td><td>{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td>{}</td><td>{}</td>"
        "<td><a class=\"tr\" href=\"#trace-{}\">view</a></td></tr>",
        HtmlEscape(Cut(AnswerText(t.raw_answer), 200)),
        t.status == "ok" ? HtmlEscape(Cut(t.answer.cleaned, 200)) : std::string("<i>not scored</i>"),
        HtmlEscape(Cut(AnswerText(t.gold), 200)), HtmlEscape(t.status), FunnelStageName(t.stage), t.hops,
        t.documents, t.dret.recall, t.dacc.recall, t.sets.calls, t.input_tokens, Count(t.input_tokens),
        t.output_tokens, Count(t.output_tokens),
        t.runtime_s ? fmt::format("{:.1f}", *t.runtime_s) : "unknown",
        t.cost_usd ? fmt::format("{:.4f}", *t.cost_usd) : "unknown", i);
  }
  h += "</tbody></table>";
  return h;
}

}  // namespace

std::string RenderHtml(const RunScore& score, const RunData& run, const ReportOptions& o) {
  std::string h = PageHead(score, run);
  h += MetricsSection(score);
  h += ChartsSection(score);
  if (score.epochs) h += EpochsSection(*score.epochs);

  h += BreakdownsSection(score);
  h += ReportSectionsHtml(score, run);

  h += WarningsSection(score, o);
  h += TasksSection(score);
  h += "<h2>Traces</h2><p>Each trace loads when opened (from report-traces/ beside this page).</p>";
  for (size_t i = 0; i < score.tasks.size(); ++i) h += TracePlaceholder(score.tasks[i], i);
  h += "<script>";
  h += kScript;
  h += "</script></body></html>\n";
  return h;
}

Status WriteReports(const RunScore& score, const RunData& run, const std::string& dir,
                    const ReportOptions& o) {
  const RunDir run_dir(dir);
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(run_dir.ReportJson(), DumpJson(score.ToJson(), 2) + "\n"));
  // The traces first, so a page never points at trace scripts that are not there yet.
  LAKEQA_RETURN_IF_ERROR(WriteTraceScripts(score, run, dir, o));
  return WriteFileAtomic(run_dir.ReportHtml(), RenderHtml(score, run, o));
}

}  // namespace lakeqa::eval
