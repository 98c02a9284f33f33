// report.html's bar charts (report_chart.h).
#include "lakeqa/eval/report_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lakeqa/eval/report.h"

namespace lakeqa::eval {

std::string Pct(double v) { return fmt::format("{:.1f}%", v * 100); }

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

}  // namespace lakeqa::eval
