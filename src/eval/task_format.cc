// The task format registry (task_format.h).
#include "lakeqa/eval/task_format.h"

#include <deque>
#include <mutex>

namespace lakeqa::eval {
namespace {

struct Registry {
  std::mutex mu;
  std::deque<TaskFormatSpec> formats;  // a deque: FindTaskFormat's pointers survive later registrations
};

Registry& TheRegistry() {
  static Registry r;
  return r;
}

}  // namespace

void RegisterTaskFormat(TaskFormatSpec spec) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& f : r.formats) {
    if (f.name == spec.name) {
      f = std::move(spec);
      return;
    }
  }
  r.formats.push_back(std::move(spec));
}

std::vector<TaskFormatSpec> TaskFormats() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  return {r.formats.begin(), r.formats.end()};
}

const TaskFormatSpec* FindTaskFormat(std::string_view name) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& f : r.formats)
    if (f.name == name) return &f;
  return nullptr;
}

std::string TaskFormatTitles(std::vector<std::string> first) {
  for (const TaskFormatSpec& f : TaskFormats())
    if (!f.title.empty()) first.push_back(f.title);
  std::string out;
  for (size_t i = 0; i < first.size(); ++i)
    out += (i == 0 ? "" : i + 1 == first.size() ? " and " : ", ") + first[i];
  return out;
}

}  // namespace lakeqa::eval
