// The page of `eval compare --html`: the runs side by side, each run's EM difference against run 0, and for
// ablated runs the per-stage gain chart (SANA's table drawn: one bar per variant, its bootstrap interval as
// a whisker, zero in the middle). Inline CSS and SVG only, so it opens offline; every run string is escaped.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lakeqa/eval/compare.h"
#include "lakeqa/eval/report.h"

namespace lakeqa::eval {
namespace {

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:4px "
    "8px;text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}"
    "text{font-size:12px}.lbl{fill:#333}.val{fill:#111}";

std::string Pts(double v) { return fmt::format("{:+.1f}", v * 100); }

// Horizontal bars of the gain (EM points) of each variant, with the interval drawn across each bar.
std::string GainChart(const Comparison& c) {
  const int w = 640, row = 34, left = 230, right = 20, top = 20;
  const int h = top + row * static_cast<int>(c.ablations.size()) + 30;
  double span = 0.05;  // at least ±5 points so a small gain does not fill the chart
  for (const AblationRow& a : c.ablations)
    span = std::max({span, std::abs(a.diff.ci_low), std::abs(a.diff.ci_high), std::abs(a.diff.diff)});
  const int plot = w - left - right;
  auto x = [&](double v) { return left + static_cast<int>(std::lround((v + span) / (2 * span) * plot)); };
  std::string s = fmt::format(
      "<figure><figcaption>EM gain of each stage oracle over the standard run (points, {:.0f}% bootstrap "
      "interval)</figcaption><svg data-chart=\"ablation-gain\" data-points=\"{}\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\">",
      c.options.confidence * 100, c.ablations.size(), w, h, w, h);
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#888\"/>", x(0), top - 5,
                   h - 25);
  for (double t : {-span, -span / 2, 0.0, span / 2, span}) {
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\" text-anchor=\"middle\">{}</text>", x(t), h - 8,
                     fmt::format("{:+.0f}", t * 100));
  }
  for (size_t i = 0; i < c.ablations.size(); ++i) {
    const AblationRow& a = c.ablations[i];
    int y = top + static_cast<int>(i) * row;
    int x0 = std::min(x(0), x(a.diff.diff)), x1 = std::max(x(0), x(a.diff.diff));
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\" text-anchor=\"end\">{}</text>", left - 8, y + 16,
                     HtmlEscape(a.ablation));
    s += fmt::format(
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"18\" fill=\"{}\" data-value=\"{}\">"
        "<title>{}: {} pts [{}, {}] over {} tasks</title></rect>",
        x0, y + 3, std::max(1, x1 - x0), a.diff.diff >= 0 ? "#59a14f" : "#e15759", a.diff.diff,
        HtmlEscape(a.ablation), Pts(a.diff.diff), Pts(a.diff.ci_low), Pts(a.diff.ci_high), a.diff.paired);
    s += fmt::format("<line class=\"ci\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#222\"/>",
                     x(a.diff.ci_low), y + 12, x(a.diff.ci_high), y + 12);
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"val\">{}</text>", std::min(x1 + 4, w - right - 30),
                     y + 16, Pts(a.diff.diff));
  }
  return s + "</svg></figure>";
}

}  // namespace

std::string RenderCompareHtml(const Comparison& c) {
  std::string h = std::string(
                      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>lakeqa "
                      "comparison</title><style>") +
                  kStyle + "</style></head><body><h1>lakeqa comparison</h1>";
  h += "<table><thead><tr><th>#</th><th>run</th><th>ablation</th><th>tasks</th><th>EM</th><th>lenient</th>"
       "<th>D_ret R</th><th>D_acc R</th></tr></thead><tbody>";
  for (size_t r = 0; r < c.runs.size(); ++r) {
    const RunColumn& col = c.runs[r];
    h += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{:.1f}%</td><td>{:.1f}%</td>"
        "<td>{:.1f}%</td></tr>",
        r, HtmlEscape(col.label), HtmlEscape(col.ablation), col.tasks, col.em * 100, col.lenient * 100,
        col.dret_r * 100, col.dacc_r * 100);
  }
  h += "</tbody></table>";
  h += fmt::format(
      "<h2>EM difference against run 0</h2><p>Paired by task; {:.0f}% percentile bootstrap interval, "
      "{} resamples, seed {}.</p><table><thead><tr><th>run</th><th>run</th><th>difference</th>"
      "<th>interval</th><th>tasks</th></tr></thead><tbody>",
      c.options.confidence * 100, c.options.resamples, c.options.seed);
  for (const PairedDiff& d : c.pairs) {
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{} pts</td><td>[{}, {}]</td><td>{}</td></tr>", d.run,
                     HtmlEscape(c.runs[d.run].label), Pts(d.diff), Pts(d.ci_low), Pts(d.ci_high), d.paired);
  }
  h += "</tbody></table>";
  if (!c.ablations.empty()) {
    h += fmt::format(
        "<h2 id=\"ablations\">Stage ablations</h2><p>Each variant against run {} (standard), paired "
        "by task. Bottleneck: {}.</p>",
        *c.standard_run,
        c.bottleneck.empty() ? "none (no single-stage oracle gains)" : HtmlEscape(c.bottleneck));
    h += "<table><thead><tr><th>run</th><th>ablation</th><th>EM standard</th><th>EM variant</th><th>gain</th>"
         "<th>interval</th><th>tasks</th></tr></thead><tbody>";
    for (const AblationRow& a : c.ablations) {
      h += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{:.1f}%</td><td>{} pts</td><td>[{}, "
          "{}]</td><td>{}</td></tr>",
          a.run, HtmlEscape(a.ablation), a.diff.em_base * 100, a.diff.em_other * 100, Pts(a.diff.diff),
          Pts(a.diff.ci_low), Pts(a.diff.ci_high), a.diff.paired);
    }
    h += "</tbody></table>" + GainChart(c);
  }
  if (!c.warnings.empty()) {
    h += "<h2>Warnings</h2><ul>";
    for (const std::string& w : c.warnings) h += "<li>" + HtmlEscape(w) + "</li>";
    h += "</ul>";
  }
  return h + "</body></html>\n";
}

}  // namespace lakeqa::eval
