// The report section registry (report_section.h).
#include "lakeqa/eval/report_section.h"

#include "lakeqa/common/named_registry.h"

namespace lakeqa::eval {
namespace {

NamedRegistry<ReportSectionSpec>& Registry() {
  static NamedRegistry<ReportSectionSpec> sections;
  return sections;
}

}  // namespace

void RegisterReportSection(ReportSectionSpec spec) { Registry().Add(std::move(spec)); }

const std::deque<ReportSectionSpec>& ReportSections() { return Registry().All(); }

void AddReportSections(RunScore& score, const RunData& run, const std::vector<Task>& tasks) {
  score.sections.clear();
  for (const ReportSectionSpec& s : ReportSections()) {
    if (!s.build) continue;
    Json part = s.build(score, run, tasks);
    if (!part.is_null()) score.sections[s.name] = std::move(part);
  }
}

std::string ReportSectionsText(const RunScore& score) {
  std::string out;
  for (const ReportSectionSpec& s : ReportSections())
    if (s.text) out += s.text(score);
  return out;
}

std::string ReportSectionsHtml(const RunScore& score, const RunData& run) {
  std::string out;
  for (const ReportSectionSpec& s : ReportSections())
    if (s.html) out += s.html(score, run);
  return out;
}

}  // namespace lakeqa::eval
