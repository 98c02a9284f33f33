// Reading the task paths out of run.json, for `lakeqa eval --run` without --tasks.
#include "lakeqa/eval/score.h"

namespace lakeqa::eval {
namespace {

void AddPaths(const Json& v, std::vector<std::string>& out) {
  if (v.is_string()) out.push_back(v.get<std::string>());
  if (!v.is_array()) return;
  for (const Json& p : v) {
    if (p.is_string()) out.push_back(p.get<std::string>());
  }
}

}  // namespace

Result<std::vector<std::string>> RunTaskPaths(const Json& run_json, std::string_view where) {
  std::vector<std::string> out;
  if (!run_json.is_object()) return out;
  auto format = run_json.find("format");
  if (format != run_json.end()) {
    if (!format->is_string() || *format != kRunFormat) {
      return Unsupported(std::string(where) + ": run.json format " + format->dump() + " is not " +
                         kRunFormat + " (written by another lakeqa version); pass --tasks");
    }
    if (auto t = run_json.find("tasks"); t != run_json.end()) AddPaths(*t, out);
    return out;
  }
  // Before the format was versioned `lakeqa run` kept the paths in config.tasks and a count in "tasks";
  // hand-written run.json files name them in "tasks".
  if (auto c = run_json.find("config"); c != run_json.end() && c->is_object() && c->contains("tasks")) {
    AddPaths((*c)["tasks"], out);
    if (!out.empty()) return out;
  }
  if (auto t = run_json.find("tasks"); t != run_json.end()) AddPaths(*t, out);
  return out;
}

}  // namespace lakeqa::eval
