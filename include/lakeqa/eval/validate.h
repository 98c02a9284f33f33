// `lakeqa tasks validate`: the load errors plus the semantic checks of each task (gold sources listed in
// datasets_used, lake paths well formed, ids unique, the hop DAG acyclic) and the comparison of the
// computed hop structure with the k-<k>-d-<d> folder a task sits in (a mismatch is a warning: the labels
// are the annotators' and a few disagree with their own reasoning chains).
#pragma once

#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/eval/hops.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {

enum class Severity { kError, kWarning };

struct Issue {
  Severity severity = Severity::kError;
  std::string where;    // file, file:line or file:line:column
  std::string task_id;  // empty for file-level problems
  std::string message;  // without the location
  // "<where>: error: [<task>] <message>"
  std::string Format() const;
};

struct ValidationReport {
  size_t files = 0;
  size_t tasks_loaded = 0;  // parsed and schema-valid
  size_t tasks_valid = 0;   // loaded and without semantic errors
  size_t load_errors = 0;   // files or lines that did not load
  size_t errors = 0;        // issues of severity error (load errors included)
  size_t warnings = 0;
  size_t labelled = 0;  // tasks in a k-<k>-d-<d> folder
  size_t k_match = 0;
  size_t d_match = 0;
  size_t both_match = 0;
  std::vector<Issue> issues;  // load errors first, then per task in load order

  bool ok() const { return errors == 0; }
  Json ToJson() const;
};

// Per-task checks; `errors` and `warnings` get messages without location.
struct TaskCheck {
  HopStructure hops;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};
TaskCheck CheckTask(const Task& task);

// All checks over a load result, including ids duplicated across tasks.
ValidationReport Validate(const LoadResult& loaded);

}  // namespace lakeqa::eval
