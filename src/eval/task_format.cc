// The task format registry (task_format.h).
#include "lakeqa/eval/task_format.h"

#include "lakeqa/common/named_registry.h"

namespace lakeqa::eval {
namespace {

NamedRegistry<TaskFormatSpec>& Registry() {
  static NamedRegistry<TaskFormatSpec> formats;
  return formats;
}

}  // namespace

void RegisterTaskFormat(TaskFormatSpec spec) { Registry().Add(std::move(spec)); }

const std::deque<TaskFormatSpec>& TaskFormats() { return Registry().All(); }

const TaskFormatSpec* FindTaskFormat(std::string_view name) { return Registry().Find(name); }

std::string TaskFormatTitles(std::vector<std::string> first) {
  for (const TaskFormatSpec& f : TaskFormats())
    if (!f.title.empty()) first.push_back(f.title);
  std::string out;
  for (size_t i = 0; i < first.size(); ++i)
    out += (i == 0 ? "" : i + 1 == first.size() ? " and " : ", ") + first[i];
  return out;
}

const TaskFormatSpec* DiscoveryQuestionFormat() {
  for (const TaskFormatSpec& f : TaskFormats())
    if (f.discovery_questions) return &f;
  return nullptr;
}

const TaskFormatSpec* GoldGivingFormat() {
  for (const TaskFormatSpec& f : TaskFormats())
    if (f.provide_gold) return &f;
  return nullptr;
}

std::string RunHelpFormats(std::string_view suffix) {
  std::string out;
  for (const TaskFormatSpec& f : TaskFormats())
    if (f.in_run_help) out += ", " + f.title + std::string(suffix);
  return out;
}

}  // namespace lakeqa::eval
