// CMDBench's question files as a task format: each question becomes a Task with its CmdbenchQuestion as
// the extension, and its provenance's gold files as evidence nodes.
#include <fmt/format.h>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::cmdbench {

using namespace eval;  // the core types a benchmark builds on

namespace {

std::string TypeName(const Json& j) { return j.is_null() ? "null" : j.type_name(); }

}  // namespace

const CmdbenchQuestion* Of(const Task& task) {
  return dynamic_cast<const CmdbenchQuestion*>(task.extension.get());
}

bool IsCmdbenchQuestionObject(const Json& j) {
  return j.is_object() && j.contains("qid") && !j.contains("question_id");
}

std::string CmdbenchQuestion::OracleNotApplicable() const {
  if (kind != CmdbenchKind::kSource) return "";
  return "a CMDBench source question names a modality, not a lake file: the oracle has nothing to ground";
}

std::string CmdbenchQuestion::NoLakeFileReason() const {
  if (kind != CmdbenchKind::kSource) return "";
  std::string list;
  for (const auto& s : sources) list += (list.empty() ? "" : ", ") + s;
  return fmt::format("a CMDBench source-routing question: its gold is a modality ({}), not a lake file",
                     list);
}

const std::vector<std::string>* CmdbenchQuestion::GoldLabels() const {
  return kind == CmdbenchKind::kSource ? &sources : nullptr;
}

std::string CmdbenchQuestion::LabelOf(std::string_view dataset) const { return CmdbenchModalityOf(dataset); }

Result<Task> TaskFromCmdBenchJson(const Json& j, std::string_view where) {
  if (!j.is_object()) {
    return ParseError(
        fmt::format("{}: a CMDBench question must be a JSON object, got {}", where, TypeName(j)));
  }
  std::optional<CmdbenchKind> kind = CmdbenchKindOf(j);
  if (!kind) return ParseError(fmt::format("{}: no provenance_* record (no gold source)", where));
  LAKEQA_ASSIGN_OR_RETURN(CmdbenchQuestion q, ParseCmdbenchQuestion(j, std::string(where), *kind));
  if (q.qid.empty())
    return ParseError(fmt::format("{}: field \"qid\" must be a non-empty string or an integer", where));
  Task task;
  task.format = std::string(kFormat);
  task.id = q.qid;
  task.question = q.question;
  task.answer = q.answer;
  // Each gold file of the provenance (cmdbench.h, CmdbenchGoldFiles) is one evidence node, so the oracle and
  // `tasks verify` open it and D_ret/D_acc compare against its dataset. Its fact is a sentence (the download
  // grounds it): the columns of a table, the gold paragraphs of a page, the provenance Cypher of a graph
  // file. A source question has no node: its gold is a modality (scored by CmdbenchModalityOf).
  Hop hop;
  hop.number = 1;
  hop.answer = task.answer;
  for (const std::string& file : CmdbenchGoldFiles(q)) {
    Node node;
    node.id = std::to_string(task.nodes.size() + 1);
    node.source = file;
    node.subquestion = task.question;
    node.answer = task.answer;
    auto ref = ParseDatasetPath(file);
    std::string dataset = ref.ok() ? ref->id : file;
    switch (q.kind) {
      case CmdbenchKind::kTable:
        if (!q.columns.empty()) {
          std::string cols;
          for (const auto& c : q.columns) cols += (cols.empty() ? "" : ", ") + c;
          node.fact = "columns " + cols + " of " + dataset;
        }
        break;
      case CmdbenchKind::kDoc:
        for (const auto& p : q.paragraphs) {
          if (CmdbenchPageFile(p.title) != file) continue;
          std::string text(Trim(p.text));
          node.fact += fmt::format("{}paragraph {} of {}{}{}", node.fact.empty() ? "" : " ",
                                   p.paragraph_id < 0 ? std::string("?") : std::to_string(p.paragraph_id),
                                   p.title, text.empty() ? "" : ": ", text);
        }
        break;
      case CmdbenchKind::kGraph: node.fact = "matched by the provenance Cypher: " + q.cypher; break;
      case CmdbenchKind::kSource: break;
    }
    task.datasets_used.push_back(node.source);
    hop.node_ids.push_back(node.id);
    task.nodes.push_back(std::move(node));
  }
  if (!hop.node_ids.empty()) task.hops.push_back(std::move(hop));
  task.extension = std::make_shared<const CmdbenchQuestion>(std::move(q));
  return task;
}

}  // namespace lakeqa::cmdbench
