// The task formats benchmarks register with the core (each from its own folder's Register(), called from
// src/cli/benchmarks.cc): how `LoadTasks` recognises and reads a benchmark's task files, what the "lake"
// prompt says its answers look like, and the checks and statistics `tasks validate` and `tasks stats` add
// for its tasks. LakeQA's own task files are the core's (task.h); a registered format is tried first.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/discovery.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::lake {
class Store;  // lake/store.h
}  // namespace lakeqa::lake

namespace lakeqa::eval {

struct TaskFormatSpec {
  std::string name;   // Task::format of the tasks it loads
  std::string title;  // the benchmark's name in help text ("KramaBench")
  // What `eval discovery --tasks` accepts of it, for its help ("KramaBench workload files or its workload/
  // folder"); "" when that help does not name it.
  std::string files_help;
  // Whether the help of `run --tasks` and `tasks validate` names it among the task files they read.
  bool in_run_help = false;
  // The "lake" prompt's ANSWER FORMAT for its tasks; "" = LakeQA's.
  std::string answer_format;
  // Whether a parsed .json document is one of this format's files, and how to load it (optional).
  std::function<bool(const Json& doc)> is_document;
  std::function<LoadResult(const Json& doc, const std::string& file)> load_document;
  // Whether one task object (an item of a .json list, a .jsonl line) is this format's, and how to read it
  // (optional); `where` prefixes error messages.
  std::function<bool(const Json& object)> is_task_object;
  std::function<Result<Task>(const Json& object, std::string_view where)> task_from_json;
  // The key of the per-task field and, with "by_" before it, of the per-kind slices that report.json gives
  // its tasks' kinds (TaskExtension::Kind); "" when its tasks have none.
  std::string kind_key;
  // Optional: `run --provide-provenance` — appends each task's gold contents to its question, read through
  // the lake and the index the tools use; refuses a task it cannot give (naming it). Returns what was
  // given, for run.json's config.
  std::function<Result<Json>(std::vector<Task>& tasks, lake::Store* lake, const std::string& index_dir)>
      provide_gold;
  std::string provide_gold_help;  // --provide-provenance's help
  // Optional: relevance-collection questions (`eval discovery|tune --questions`, a suite's "questions"),
  // read from a file or folder with the lake namespace they name datasets in; the flags' help.
  std::function<Result<std::vector<DiscoveryQuestion>>(const std::string& path, std::string_view ns)>
      discovery_questions;
  std::string discovery_namespace;       // --namespace's default
  std::string discovery_questions_help;  // --questions' help
  std::string discovery_namespace_help;  // --namespace's help
  // Optional: a folder given whole — the files (with their loaded tasks) to leave out, each with its note.
  std::function<std::map<std::string, std::string>(const std::vector<std::pair<std::string, LoadResult>>&)>
      folder_skips;
  // Optional: `tasks validate`'s checks of one of its tasks (errors fail validation, warnings do not).
  std::function<void(const Task&, std::vector<std::string>& errors, std::vector<std::string>& warnings)>
      check;
  // Optional: `tasks stats`' table over its tasks (report key: the format's name), and that table as text.
  std::function<Json(const std::vector<Task>&)> stats;
  std::function<std::string(const Json&)> format_stats;
};

// Adds a format, or replaces the one of the same name (registering twice is harmless). Formats are
// registered at start-up (src/cli/benchmarks.cc), before any task is read: the registry has no lock.
void RegisterTaskFormat(TaskFormatSpec spec);
// Every registered format, in registration order (common/named_registry.h).
const std::deque<TaskFormatSpec>& TaskFormats();
// The format named `name`, or nullptr.
const TaskFormatSpec* FindTaskFormat(std::string_view name);
// The registered formats' titles after `first`, joined as a list in prose: "A, B and C".
std::string TaskFormatTitles(std::vector<std::string> first = {});
// The first registered format that reads relevance-collection questions, or nullptr.
const TaskFormatSpec* DiscoveryQuestionFormat();
// The first registered format that gives gold contents (provide_gold), or nullptr.
const TaskFormatSpec* GoldGivingFormat();
// ", <suffix of each format run's help names>": the titles of the formats with in_run_help, each followed
// by `suffix`, each after ", ".
std::string RunHelpFormats(std::string_view suffix = "");

}  // namespace lakeqa::eval
