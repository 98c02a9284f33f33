// The task model shared by every benchmark lakeqa runs: LakeQA tasks (one JSON file per task in
// k-<hops>-d-<in-degree>/ folders, or JSONL, one task per line) and CMDBench question files map into the
// same Task (question, gold answer, gold sources). Loading checks the schema; the semantic checks live in
// validate.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::eval {

// One evidence node: a document, the fact taken from it and the subquestion the fact answers.
struct Node {
  std::string id;                       // the key in "nodes" ("1", "2", ...)
  std::string source;                   // lake path "<namespace>/<dataset id>/<file path>"
  std::string fact;                     // a sentence, or the code that derives the answer from a table
  std::string subquestion;              // may reference earlier answers: "<node_1 answer>", "<hop 2 answer>"
  Json answer;                          // any JSON value (string, number, list, object)
  std::vector<std::string> depends_on;  // explicit dependency labels, when the file has them
};

// One reasoning hop: the nodes whose answers are combined into the hop's answer.
struct Hop {
  int number = 0;  // "hop" (or "hop_id"); the 1-based position when the file has neither
  std::vector<std::string> node_ids;
  std::vector<std::string> reasoning;  // "reasoning" as a list or one string; "question" in older files
  Json answer;
};

enum class TaskFormat { kLakeQa, kCmdBench, kKramaBench };

struct KramaBenchTask;    // kramabench.h
struct CmdbenchQuestion;  // cmdbench.h

struct Task {
  std::string id;  // question_id (CMDBench: qid)
  std::string question;
  Json answer;
  std::vector<Node> nodes;  // in file order
  std::vector<std::string> datasets_used;
  std::vector<Hop> hops;  // in file order
  TaskFormat format = TaskFormat::kLakeQa;
  std::shared_ptr<const KramaBenchTask> kramabench;  // set for kKramaBench
  std::shared_ptr<const CmdbenchQuestion> cmdbench;  // set for kCmdBench: its kind and provenance as given

  std::string file;  // where it was read from
  size_t line = 0;   // 1-based line for JSONL, 0 for a JSON document
  // From a "k-<k>-d-<d>" folder the file sits in (the annotators' labels), when there is one.
  std::optional<int> folder_k;
  std::optional<int> folder_d;

  // "file" or "file:line".
  std::string Where() const;
  // The gold answer as text: strings verbatim, other values as compact JSON.
  std::string AnswerText() const;
};

// A lake path split at its first two components: "datagov/abc/files/rows.txt" → {datagov, abc}.
struct DatasetRef {
  std::string ns;
  std::string id;
  std::string Key() const { return ns + "/" + id; }
};
// Fails on a path with fewer than two non-empty components.
Result<DatasetRef> ParseDatasetPath(std::string_view path);

// D*: the distinct "<namespace>/<dataset id>" of datasets_used and node sources, in first-seen order.
// Unparseable paths are left out (validation reports them).
std::vector<std::string> GoldDatasets(const Task& task);

// A problem with one input: a file or line that could not be read as a task.
struct LoadError {
  std::string file;
  size_t line = 0;    // 1-based, 0 when unknown
  size_t column = 0;  // 1-based, 0 when unknown
  Status status;      // message already starts with file[:line[:column]]
};

struct LoadResult {
  std::vector<Task> tasks;
  std::vector<LoadError> errors;
  size_t files = 0;  // input files read (directories expanded)
  // Files left out on purpose, with why (not errors): a KramaBench workload/ folder's extra files.
  std::vector<std::string> notes;
};

// Reads tasks from files and directories. A directory is searched recursively for *.json and *.jsonl,
// in natural order (task_2 before task_10). A .json file holds one LakeQA task object or a CMDBench list;
// a .jsonl file one task per line. Malformed input is reported in `errors` and skipped; the rest loads.
// A KramaBench workload/ folder given whole is recognised: a workload file that is not a domain's own
// (`legal-tiny.json`, `quick-start-questions.json`: its stem is not the domain of its tasks) and reuses task
// ids of the domain's file in the same folder (`legal.json`) is skipped with a note, since the same id
// names another version of the task there.
LoadResult LoadTasks(const std::vector<std::string>& paths);

// Parses one document (the text of a .json file) into tasks; `file` names it in errors.
// Exposed for tests and for callers holding task JSON in memory.
LoadResult ParseTaskDocument(std::string_view text, const std::string& file);
// Parses JSONL text, one task per non-blank line.
LoadResult ParseTaskLines(std::string_view text, const std::string& file);

// Schema check and conversion of one LakeQA task object. `where` prefixes error messages.
Result<Task> TaskFromJson(const Json& j, std::string_view where);
// One CMDBench question ({"qid", "question", "answer", "provenance_table": {"table", "column"}, ...}).
// Each gold file of its provenance (cmdbench.h, CmdbenchGoldFiles) becomes a node; a source-routing question
// has none (its gold is a modality, task.cmdbench->sources).
Result<Task> TaskFromCmdBenchJson(const Json& j, std::string_view where);

}  // namespace lakeqa::eval
