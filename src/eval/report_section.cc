// The report section registry (report_section.h).
#include "lakeqa/eval/report_section.h"

#include <mutex>

namespace lakeqa::eval {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<ReportSectionSpec> sections;
};

Registry& TheRegistry() {
  static Registry r;
  return r;
}

// The text (or HTML) of each section the score holds, through `part`.
template <typename Part>
std::string Join(const RunScore& score, Part part) {
  std::string out;
  for (const ReportSectionSpec& s : ReportSections()) {
    auto it = score.sections.find(s.name);
    if (it != score.sections.end() && part(s)) out += part(s)(it->second);
  }
  return out;
}

}  // namespace

void RegisterReportSection(ReportSectionSpec spec) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& s : r.sections) {
    if (s.name == spec.name) {
      s = std::move(spec);
      return;
    }
  }
  r.sections.push_back(std::move(spec));
}

std::vector<ReportSectionSpec> ReportSections() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.sections;
}

void AddReportSections(RunScore& score, const RunData& run, const std::vector<Task>& tasks) {
  score.sections.clear();
  for (const ReportSectionSpec& s : ReportSections()) {
    if (!s.build) continue;
    Json part = s.build(score, run, tasks);
    if (!part.is_null()) score.sections[s.name] = std::move(part);
  }
}

std::string ReportSectionsText(const RunScore& score) {
  return Join(
      score, [](const ReportSectionSpec& s) -> const auto& { return s.text; });
}

std::string ReportSectionsHtml(const RunScore& score) {
  return Join(
      score, [](const ReportSectionSpec& s) -> const auto& { return s.html; });
}

}  // namespace lakeqa::eval
