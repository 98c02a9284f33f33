// The parts of a run's report that a benchmark adds (each registered from its own folder's Register(),
// called from src/cli/benchmarks.cc): its own metrics over its tasks, kept in RunScore::sections under the
// section's name, written into report.json under that name, into report.html, and printed by `lakeqa eval`.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/eval/score.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {

struct ReportSectionSpec {
  std::string name;  // RunScore::sections' and report.json's key
  // The section for a scored run; null when the run has no task it speaks of.
  std::function<Json(const RunScore& score, const RunData& run, const std::vector<Task>& tasks)> build;
  // `lakeqa eval`'s text of the section (after the summary), and report.html's; "" to add nothing.
  std::function<std::string(const Json& section)> text;
  std::function<std::string(const Json& section)> html;
};

// Adds a section, or replaces the one of the same name (registering twice is harmless).
void RegisterReportSection(ReportSectionSpec spec);
// Every registered section, in registration order.
std::vector<ReportSectionSpec> ReportSections();

// Fills score.sections from every registered section's build.
void AddReportSections(RunScore& score, const RunData& run, const std::vector<Task>& tasks);
// The text, or the HTML, of every section score.sections holds, in registration order.
std::string ReportSectionsText(const RunScore& score);
std::string ReportSectionsHtml(const RunScore& score);

}  // namespace lakeqa::eval
