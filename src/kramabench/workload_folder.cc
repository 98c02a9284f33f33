// KramaBench's workload/ folder given whole: the workload files that are not a domain's own file but reuse
// its task ids are left out, with a note (TaskFormatSpec::folder_skips).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {

// KramaBench's workload/ holds legal-tiny.json beside legal.json and quick-start-questions.json beside
// environment.json, each with a task whose id the domain file also uses, for another version of it.
// Returns, per file to skip, the note that says why.
std::map<std::string, std::string> WorkloadFolderExtras(
    const std::vector<std::pair<std::string, eval::LoadResult>>& parts) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> domain_file;  // domain → its own workload file in this folder
  std::map<std::string, std::string> id_file;      // task id → the domain file holding it
  auto all_kb = [](const eval::LoadResult& r) {
    if (r.tasks.empty()) return false;
    for (const eval::Task& t : r.tasks)
      if (!Of(t)) return false;
    return true;
  };
  for (const auto& [file, r] : parts) {
    if (!all_kb(r)) continue;
    std::string stem = fs::path(file).stem().string();
    bool own = true;
    for (const eval::Task& t : r.tasks) own = own && Of(t)->domain == stem;
    if (!own) continue;
    domain_file[stem] = file;
    for (const eval::Task& t : r.tasks) id_file.emplace(t.id, file);
  }
  std::map<std::string, std::string> skip;
  for (const auto& [file, r] : parts) {
    if (!all_kb(r) || std::count_if(domain_file.begin(), domain_file.end(),
                                    [&](const auto& d) { return d.second == file; }) > 0)
      continue;
    std::vector<std::string> reused;
    std::string other;
    for (const eval::Task& t : r.tasks) {
      if (auto it = id_file.find(t.id); it != id_file.end()) {
        reused.push_back(t.id);
        other = it->second;
      }
    }
    if (reused.empty()) continue;
    std::string ids;
    for (const auto& id : reused) ids += (ids.empty() ? "" : ", ") + id;
    skip[file] = fmt::format(
        "{}: skipped: not a KramaBench domain's own workload, and its tasks {} reuse ids of {} (another "
        "version "
        "of each task there); give the file alone to use its {} tasks",
        file, ids, other, r.tasks.size());
  }
  return skip;
}

}  // namespace lakeqa::kramabench
