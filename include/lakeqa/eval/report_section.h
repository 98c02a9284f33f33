// The parts of a run's report that a benchmark adds (each registered from its own folder's Register(),
// called from src/cli/benchmarks.cc): its own metrics over its tasks, kept in RunScore::sections under the
// section's name and written into report.json under that name, its part of report.html, and its text in
// `lakeqa eval`'s summary.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/eval/score.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {

struct ReportSectionSpec {
  std::string name;  // RunScore::sections' and report.json's key
  // Optional: the section's JSON for a scored run; null when the run has no task it speaks of.
  std::function<Json(const RunScore& score, const RunData& run, const std::vector<Task>& tasks)> build;
  // Optional: `lakeqa eval`'s text of the section (after the summary); "" to add nothing.
  std::function<std::string(const RunScore& score)> text;
  // Optional: report.html's part; "" to add nothing.
  std::function<std::string(const RunScore& score, const RunData& run)> html;
};

// Adds a section, or replaces the one of the same name (registering twice is harmless). Sections are
// registered at start-up (src/cli/benchmarks.cc), before any run is scored: the registry has no lock.
void RegisterReportSection(ReportSectionSpec spec);
// Every registered section, in registration order.
const std::deque<ReportSectionSpec>& ReportSections();

// Fills score.sections from every registered section's build.
void AddReportSections(RunScore& score, const RunData& run, const std::vector<Task>& tasks);
// The text, or the HTML, of every registered section, in registration order.
std::string ReportSectionsText(const RunScore& score);
std::string ReportSectionsHtml(const RunScore& score, const RunData& run);

}  // namespace lakeqa::eval
