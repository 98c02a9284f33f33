// From a task as the composer holds it (project.h) to a LakeQA task file and back: the reasoning structure
// (which node uses which earlier answer, the hops, k, n and d as eval/hops.h defines them for the released
// data), the exact LakeQA JSON an export writes, the findings that block or qualify an export (each naming
// the node and field), and the import of existing task files.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/workbench/project.h"

namespace lakeqa::workbench {

// The node ids a node uses: "<node_N answer>" (and the other forms eval::FindReferences reads) in its
// subquestion, and "<node_N answer>" / "<node N answer>" in its fact code.
std::vector<std::string> NodeDependencies(const ProjectNode& node);

struct Structure {
  int k = 0;     // longest path through the hop DAG (eval::AnalyzeHops of the exported task)
  size_t n = 0;  // evidence nodes
  int d = 0;     // largest number of nodes one hop depends on
  std::vector<std::pair<std::string, std::string>> edges;  // (from, to): node `to` uses the answer of `from`
  std::map<std::string, int> hop_of;                       // node id → hop number
  std::vector<std::string> errors;  // unknown references, cycles, a node placed before what it uses
  std::vector<std::string> warnings;
  Json ToJson() const;
};

// Hops: a node's own `hop` when set, else one more than the largest hop of the nodes it uses (1 when it
// uses none); nodes of equal hop form one reasoning hop.
Structure AnalyzeStructure(const ProjectTask& task);

// The task as a LakeQA task object, exactly as the released files spell it: question_id, question, answer,
// nodes {id: {source, subquestion, fact, answer}}, datasets_used, reasoning_hops [{hop, node_ids,
// reasoning, answer}]. Placeholders in fact code are filled with the earlier answers (a task file's code
// runs as written); subquestions keep theirs. Hops imported with the task are kept verbatim while their
// nodes are unchanged.
Json ToLakeQaJson(const ProjectTask& task);

// The folder a task file belongs in: "k-<k>-d-<d>".
std::string StructureFolder(const Structure& s);

// An import: the composer's form of a loaded task (datasets_used, hop membership and reasoning kept).
ProjectTask FromEvalTask(const eval::Task& task);

struct Finding {
  std::string severity;  // "error" (blocks export) or "warning"
  std::string node;      // node id, "" for the task itself
  std::string field;     // "question", "answer", "source", "fact", "subquestion", "hops", ...
  std::string message;   // names the node and field ("node 2: the answer is empty")
  Json ToJson() const;
};

// What must hold before a task is exported or sent to review: every field filled, sources well formed and
// present (file_exists, when given, says whether a lake path is in the catalog), facts run with the answer
// their node records, a sound hop structure, and eval's own task checks (tasks validate) on the JSON.
std::vector<Finding> CheckTask(const ProjectTask& task,
                               const std::function<bool(const std::string&)>& file_exists);
bool HasErrors(const std::vector<Finding>& findings);

// A stable hash of fact code as it ran (placeholders filled), to tell a stale run from a current one.
std::string CodeHash(const std::string& code);

}  // namespace lakeqa::workbench
