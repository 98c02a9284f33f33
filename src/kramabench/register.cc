// KramaBench's registration with the core: its source kind, task format and report section.
#include "lakeqa/eval/report_section.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/ingest/source_kind.h"
#include "lakeqa/kramabench/kramabench.h"
#include "lakeqa/kramabench/names.h"

namespace lakeqa::kramabench {

void Register() {
  ingest::RegisterSourceKind(
      {std::string(kFormat), "kramabench: prefix of <prefix>-<domain>", BuildKramaBench, ""});
  eval::TaskFormatSpec format;
  format.name = std::string(kFormat);
  format.title = "KramaBench";
  format.files_help = "KramaBench workload files or its workload/ folder";
  format.answer_format =
      "The value only, in square brackets: a number with the precision the question asks for "
      "([0.42]), a "
      "name or string exactly as in the data, a list as [a, b, c].";
  format.is_document = IsKramaBenchWorkload;
  format.load_document = LoadKramaBenchWorkload;
  format.folder_skips = WorkloadFolderExtras;
  format.check = CheckKramaBenchTask;
  format.stats = KramaBenchStats;
  format.format_stats = FormatKramaBenchStats;
  eval::RegisterTaskFormat(std::move(format));
  eval::ReportSectionSpec section;
  section.name = std::string(kFormat);
  section.build = KramaBenchRunReport;
  section.text = [](const eval::RunScore& score) {
    auto it = score.sections.find(std::string(kFormat));
    return it == score.sections.end() ? std::string() : FormatKramaBenchRunReport(it->second);
  };
  section.html = [](const eval::RunScore& score, const eval::RunData&) {
    auto it = score.sections.find(std::string(kFormat));
    return it == score.sections.end() ? std::string() : KramaBenchHtmlSection(it->second);
  };
  eval::RegisterReportSection(std::move(section));
}

}  // namespace lakeqa::kramabench
