#include "lakeqa/eval/validate.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "lakeqa/eval/task_format.h"

namespace lakeqa::eval {

std::string Issue::Format() const {
  std::string out = where + (severity == Severity::kError ? ": error: " : ": warning: ");
  if (!task_id.empty()) out += "[" + task_id + "] ";
  return out + message;
}

TaskCheck CheckTask(const Task& task) {
  TaskCheck c;
  c.hops = AnalyzeHops(task);
  // A task whose format gives it no hop graph (a benchmark's subtasks, a question that asks where to look)
  // has no hop errors: its checks are the format's own (task_format.h).
  const bool hop_graph = !task.extension || task.extension->HasHopGraph();
  if (hop_graph) {
    c.errors = c.hops.errors;
    c.warnings = c.hops.warnings;
  }

  std::set<std::string> used;
  for (const std::string& d : task.datasets_used) {
    if (!used.insert(d).second)
      c.warnings.push_back(fmt::format("\"{}\" is listed twice in datasets_used", d));
    if (auto ref = ParseDatasetPath(d); !ref.ok())
      c.errors.push_back("datasets_used: " + ref.status().message());
  }
  for (const Node& n : task.nodes) {
    if (auto ref = ParseDatasetPath(n.source); !ref.ok()) {
      c.errors.push_back(fmt::format("node {} source: {}", n.id, ref.status().message()));
    }
    if (!used.count(n.source)) {
      c.errors.push_back(fmt::format("node {} source \"{}\" is not listed in datasets_used", n.id, n.source));
    }
  }
  if (const TaskFormatSpec* format = FindTaskFormat(task.format); format != nullptr && format->check)
    format->check(task, c.errors, c.warnings);
  if (task.folder_k && task.folder_d) {
    std::vector<std::string> why;
    if (c.hops.k != *task.folder_k) {
      why.push_back(
          fmt::format("k = {} (longest hop path) but the folder says {}", c.hops.k, *task.folder_k));
    }
    if (c.hops.d != *task.folder_d) {
      why.push_back(fmt::format("d = {} (largest hop) but the folder says {}", c.hops.d, *task.folder_d));
    }
    if (!why.empty()) {
      std::string msg =
          fmt::format("hop structure does not match folder k-{}-d-{}: ", *task.folder_k, *task.folder_d);
      for (size_t i = 0; i < why.size(); ++i) msg += (i ? "; " : "") + why[i];
      c.warnings.push_back(std::move(msg));
    }
  }
  return c;
}

ValidationReport Validate(const LoadResult& loaded) {
  ValidationReport r;
  r.files = loaded.files;
  r.tasks_loaded = loaded.tasks.size();
  r.load_errors = loaded.errors.size();
  for (const LoadError& e : loaded.errors) {
    Issue is;
    is.severity = Severity::kError;
    // The status message already begins with the location; keep it whole.
    const std::string& m = e.status.message();
    std::string loc = e.file;
    if (e.line) loc += ":" + std::to_string(e.line);
    if (e.line && e.column) loc += ":" + std::to_string(e.column);
    is.where = loc;
    is.message = m.rfind(loc + ": ", 0) == 0 ? m.substr(loc.size() + 2) : m;
    r.issues.push_back(std::move(is));
  }
  std::map<std::string, std::string> first_seen;  // task id → where
  for (const Task& t : loaded.tasks) {
    TaskCheck c = CheckTask(t);
    if (auto [it, fresh] = first_seen.emplace(t.id, t.Where()); !fresh) {
      c.errors.push_back(fmt::format("duplicate task id (first in {})", it->second));
    }
    for (auto& m : c.errors) r.issues.push_back(Issue{Severity::kError, t.Where(), t.id, std::move(m)});
    for (auto& m : c.warnings) r.issues.push_back(Issue{Severity::kWarning, t.Where(), t.id, std::move(m)});
    if (c.errors.empty()) ++r.tasks_valid;
    if (t.folder_k && t.folder_d) {
      ++r.labelled;
      bool k = c.hops.k == *t.folder_k, d = c.hops.d == *t.folder_d;
      r.k_match += k;
      r.d_match += d;
      r.both_match += k && d;
    }
  }
  for (const Issue& i : r.issues) (i.severity == Severity::kError ? r.errors : r.warnings)++;
  return r;
}

Json ValidationReport::ToJson() const {
  Json issues_json = Json::array();
  for (const Issue& i : issues) {
    issues_json.push_back({{"severity", i.severity == Severity::kError ? "error" : "warning"},
                           {"where", i.where},
                           {"task", i.task_id},
                           {"message", i.message}});
  }
  auto rate = [&](size_t n) {
    return labelled ? static_cast<double>(n) / static_cast<double>(labelled) : 0.0;
  };
  return Json{{"ok", ok()},
              {"files", files},
              {"tasks_loaded", tasks_loaded},
              {"tasks_valid", tasks_valid},
              {"load_errors", load_errors},
              {"errors", errors},
              {"warnings", warnings},
              {"folder_labels",
               {{"labelled", labelled},
                {"k_match", k_match},
                {"d_match", d_match},
                {"both_match", both_match},
                {"match_rate", rate(both_match)}}},
              {"issues", std::move(issues_json)}};
}

}  // namespace lakeqa::eval
