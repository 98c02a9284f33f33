// Charts and numbers of report.html, shared with the report sections benchmarks add (report_section.h).
#pragma once

#include <string>
#include <vector>

namespace lakeqa::eval {

struct Bar {
  std::string label;
  double value = 0;     // in [0, max]
  std::string caption;  // shown above the bar
};

// A rate as a percentage with one decimal: 0.4567 → "45.7%".
std::string Pct(double v);

// A vertical bar chart; `id` goes into data-chart so tests and readers can find it.
std::string BarChart(const std::string& id, const std::string& title, const std::vector<Bar>& bars,
                     double max, const std::string& color);

}  // namespace lakeqa::eval
