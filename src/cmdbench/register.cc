// CMDBench's registration with the core: its source kind, question-file task format and report section.
#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/cmdbench/provenance.h"
#include "lakeqa/eval/report_section.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/ingest/source_kind.h"

namespace lakeqa::cmdbench {

void Register() {
  // Listed before dir, where it stood when every kind was built in.
  ingest::RegisterSourceKind({std::string(kFormat), std::string(kFormat), BuildCmdbench, "dir"});
  eval::TaskFormatSpec format;
  format.name = std::string(kFormat);
  format.title = "CMDBench";
  format.in_run_help = true;
  format.answer_format =
      "The answer as the data states it, with its unit or qualifier when it has one, in square "
      "brackets: "
      "[183 pound], [Houston, Texas], [1949]. A yes/no question: [yes] or [no].";
  format.is_task_object = IsCmdbenchQuestionObject;
  format.task_from_json = TaskFromCmdBenchJson;
  format.kind_key = std::string(kKindKey);
  format.provide_gold = [](std::vector<eval::Task>& tasks, lake::Store* lake, const std::string& index_dir) {
    return ProvideCmdbenchProvenance(tasks, ProvenanceSources{lake, index_dir});
  };
  format.provide_gold_help =
      "CMDBench questions: hand the agent the gold contents (table rows, matched sub-graph, "
      "paragraphs, source; docs/cmdbench.md)";
  format.discovery_questions = [](const std::string& path, std::string_view ns) {
    return LoadCmdbenchQuestions(path, ns);
  };
  format.discovery_namespace = std::string(kFormat);
  format.discovery_questions_help =
      "CMDBench table-discovery questions: a JSON array file, or a folder of such files (*.json)";
  format.discovery_namespace_help = "With --questions: namespace of the cmdbench lake";
  eval::RegisterTaskFormat(std::move(format));
  eval::ReportSectionSpec section;
  section.name = std::string(kFormat);
  section.html = CmdbenchHtmlSection;
  eval::RegisterReportSection(std::move(section));
}

}  // namespace lakeqa::cmdbench
