// The task model shared by every benchmark lakeqa runs: LakeQA tasks (one JSON file per task in
// k-<hops>-d-<in-degree>/ folders, or JSONL, one task per line) and the task files of the formats
// benchmarks register (task_format.h) map into the same Task (question, gold answer, gold sources); what is
// a benchmark's own rides along as the task's extension. Loading checks the schema; the
// semantic checks live in validate.h.
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

// Task::format of LakeQA's own tasks; the other formats are named by their TaskFormatSpec (task_format.h).
inline constexpr std::string_view kLakeQaFormat = "lakeqa";

// What a benchmark's task format attaches to each of its tasks: its own record (a subclass, which only the
// benchmark's folder looks inside), and the few facts about it the core asks through these methods.
class TaskExtension {
 public:
  virtual ~TaskExtension() = default;
  // The benchmark's own answer type ("numeric_exact"), reported instead of LakeQA's answer classes;
  // nullopt when the benchmark has none.
  virtual std::optional<std::string> AnswerType() const { return std::nullopt; }
  // Whether the task carries LakeQA's hop graph (nodes and hops) for validation to check.
  virtual bool HasHopGraph() const { return true; }
  // Why the gold-trail oracle has nothing to follow for this task; "" when it has.
  virtual std::string OracleNotApplicable() const { return ""; }
  // Why the task names no lake file to ground (`tasks verify` skips it as not applicable); "" when it does.
  virtual std::string NoLakeFileReason() const { return ""; }
  // A Cypher query the oracle runs through graph_query as part of grounding the task; "" when none.
  virtual std::string GroundingCypher() const { return ""; }
  // The benchmark's question kind, which reports slice by (TaskFormatSpec::kind_key); "" when none.
  virtual std::string Kind() const { return ""; }
  // When the gold is a set of labels rather than datasets (a question that asks where to look): the labels,
  // and the label of a dataset an agent touched, which D_ret/D_acc then compare. nullptr: datasets.
  virtual const std::vector<std::string>* GoldLabels() const { return nullptr; }
  virtual std::string LabelOf(std::string_view dataset) const { return std::string(dataset); }
};

struct Task {
  std::string id;  // question_id (CMDBench: qid)
  std::string question;
  Json answer;
  std::vector<Node> nodes;  // in file order
  std::vector<std::string> datasets_used;
  std::vector<Hop> hops;                            // in file order
  std::string format = std::string(kLakeQaFormat);  // the task format it was read as
  std::shared_ptr<const TaskExtension> extension;   // the format's own record, when it has one

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
  // Files left out on purpose, with why (not errors): those a task format's folder rule leaves out.
  std::vector<std::string> notes;
};

// Reads tasks from files and directories. A directory is searched recursively for *.json and *.jsonl,
// in natural order (task_2 before task_10). A .json file holds one LakeQA task object, a list of task
// objects or a document of a registered task format; a .jsonl file one task per line. Malformed input is
// reported in `errors` and skipped; the rest loads. In a folder given whole, each registered format may leave
// files out with a note (TaskFormatSpec::folder_skips).
LoadResult LoadTasks(const std::vector<std::string>& paths);

// Parses one document (the text of a .json file) into tasks; `file` names it in errors.
// Exposed for tests and for callers holding task JSON in memory.
LoadResult ParseTaskDocument(std::string_view text, const std::string& file);
// Parses JSONL text, one task per non-blank line.
LoadResult ParseTaskLines(std::string_view text, const std::string& file);

// Schema check and conversion of one LakeQA task object. `where` prefixes error messages.
Result<Task> TaskFromJson(const Json& j, std::string_view where);

}  // namespace lakeqa::eval
