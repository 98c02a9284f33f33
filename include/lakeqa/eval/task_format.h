// The task formats benchmarks register with the core (each from its own folder's Register(), called from
// src/cli/benchmarks.cc): how `LoadTasks` recognises and reads a benchmark's task files, what the "lake"
// prompt says its answers look like, and the checks and statistics `tasks validate` and `tasks stats` add
// for its tasks. LakeQA's own task files are the core's (task.h); a registered format is tried first.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {

struct TaskFormatSpec {
  std::string name;   // Task::format of the tasks it loads
  std::string title;  // the benchmark's name in help text ("KramaBench")
  // What --tasks accepts of it, for help text ("KramaBench workload files or its workload/ folder").
  std::string files_help;
  // The "lake" prompt's ANSWER FORMAT for its tasks; "" = LakeQA's.
  std::string answer_format;
  // Whether a parsed .json document is one of this format's files, and how to load it.
  std::function<bool(const Json& doc)> is_document;
  std::function<LoadResult(const Json& doc, const std::string& file)> load_document;
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

// Adds a format, or replaces the one of the same name (registering twice is harmless).
void RegisterTaskFormat(TaskFormatSpec spec);
// Every registered format, in registration order.
std::vector<TaskFormatSpec> TaskFormats();
// The format named `name`, or nullptr.
const TaskFormatSpec* FindTaskFormat(std::string_view name);
// The registered formats' titles after `first`, joined as a list in prose: "A, B and C".
std::string TaskFormatTitles(std::vector<std::string> first = {});

}  // namespace lakeqa::eval
