#include "lakeqa/workbench/runs.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <sys/stat.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/eval/em.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::workbench {
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxReportBytes = 512ull << 20;
constexpr uint64_t kMaxTraceBytes = 64ull << 20;

double MTime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
}

Json ReadJsonFile(const std::string& path, uint64_t max_bytes, std::string* warning) {
  if (!PathExists(path)) return Json();
  auto text = ReadFile(path, max_bytes);
  if (!text.ok()) {
    *warning = text.status().message();
    return Json();
  }
  auto j = ParseJson(*text, path);
  if (!j.ok()) {
    *warning = j.status().message();
    return Json();
  }
  return std::move(*j);
}

// Task paths run.json names ("tasks": a path or a list), as `lakeqa eval` reads them.
std::vector<std::string> TaskPaths(const Json& run_json) {
  std::vector<std::string> out;
  if (!run_json.is_object() || !run_json.contains("tasks")) return out;
  const Json& t = run_json["tasks"];
  if (t.is_string()) out.push_back(t.get<std::string>());
  if (t.is_array()) {
    for (const Json& p : t) {
      if (p.is_string()) out.push_back(p.get<std::string>());
    }
  }
  return out;
}

// Calls fn(line, line number) for every non-blank line of JSONL text.
template <typename Fn>
void ForEachLine(std::string_view text, Fn fn) {
  LineReader reader(text);
  while (reader.Next()) fn(reader.line(), reader.number());
}

Json Field(const Json& j, const char* name) { return j.is_object() && j.contains(name) ? j[name] : Json(); }

}  // namespace

struct RunLibrary::Loaded {
  std::string dir;
  double stamp = 0;
  Json run_json;
  Json summary;  // leaderboard fields
  Json rows = Json::array();
  std::map<std::string, size_t> index;  // task id → row
  std::string source;                   // "report.json" | "scored from run.json's tasks" | "predictions only"
  std::vector<std::string> warnings;
};

RunLibrary::RunLibrary(std::vector<std::string> paths,
                       std::function<std::string(const std::string&)> category_of)
    : paths_(std::move(paths)), category_of_(std::move(category_of)) {}

std::vector<std::string> RunLibrary::Discover() {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const std::string& p : paths_) {
    if (PathExists(eval::RunDir(p).Predictions())) {
      dirs.push_back(fs::weakly_canonical(p, ec).string());
      continue;
    }
    std::vector<std::string> sub;
    for (auto it = fs::directory_iterator(p, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && PathExists(eval::RunDir(it->path().string()).Predictions()))
        sub.push_back(fs::weakly_canonical(it->path(), ec).string());
    }
    std::sort(sub.begin(), sub.end());
    dirs.insert(dirs.end(), sub.begin(), sub.end());
  }
  return dirs;
}

Result<std::string> RunLibrary::DirOf(const std::string& run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (dirs_.empty()) dirs_ = Discover();
  bool number = !run_id.empty() && run_id.size() <= 9 &&
                std::all_of(run_id.begin(), run_id.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!number) return InvalidArgument("a run id is a number from GET /api/runs, not '" + run_id + "'");
  size_t i = std::stoul(run_id);
  if (i >= dirs_.size())
    return NotFound("no run " + run_id + " (" + std::to_string(dirs_.size()) +
                    " runs: GET /api/runs lists them)");
  return dirs_[i];
}

Result<std::shared_ptr<RunLibrary::Loaded>> RunLibrary::Load(const std::string& run_id) {
  LAKEQA_ASSIGN_OR_RETURN(std::string dir, DirOf(run_id));
  const eval::RunDir run_dir(dir);
  double stamp = std::max(MTime(run_dir.ReportJson()), MTime(run_dir.Predictions()));
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(dir);
    if (it != cache_.end() && it->second->stamp == stamp) return it->second;
  }
  auto l = std::make_shared<Loaded>();
  l->dir = dir;
  l->stamp = stamp;
  LAKEQA_ASSIGN_OR_RETURN(Json report, ReadReport(*l));
  if (report.is_object() && report.contains("per_task")) AddReportRows(report, *l);
  else LAKEQA_RETURN_IF_ERROR(AddPredictionRows(*l));
  std::lock_guard<std::mutex> lock(mu_);
  cache_[dir] = l;
  return l;
}

// run.json, and report.json when `lakeqa eval` wrote one; else the run scored here when it names its task
// files, as `lakeqa eval` would. Null when neither: the rows come from the predictions alone.
Result<Json> RunLibrary::ReadReport(Loaded& l) {
  const eval::RunDir run_dir(l.dir);
  std::string warning;
  l.run_json = ReadJsonFile(run_dir.RunJson(), 64ull << 20, &warning);
  if (!warning.empty()) l.warnings.push_back(warning);
  warning.clear();
  Json report = ReadJsonFile(run_dir.ReportJson(), kMaxReportBytes, &warning);
  if (!warning.empty()) l.warnings.push_back(warning);
  if (report.is_object() && report.contains("per_task")) {
    l.source = "report.json";
    return report;
  }
  std::vector<std::string> paths = TaskPaths(l.run_json);
  eval::LoadResult tasks = paths.empty() ? eval::LoadResult{} : eval::LoadTasks(paths);
  for (const auto& e : tasks.errors) l.warnings.push_back(e.status.message());
  if (tasks.tasks.empty()) return report;
  LAKEQA_ASSIGN_OR_RETURN(eval::RunData run, eval::LoadRun(l.dir));
  l.source = "scored from the task files run.json names (no report.json: run `lakeqa eval`)";
  return eval::ScoreRun(run, tasks.tasks).ToJson();
}

void RunLibrary::AddReportRows(Json& report, Loaded& l) const {
  for (const char* k :
       {"tasks", "em", "lenient", "dacc_p", "dacc_r", "dacc_f1", "dret_p", "dret_r", "dret_f1", "runtime_s",
        "cost_usd", "funnel", "status", "by_hops", "tokens", "judge", "warnings", "not_run"}) {
    if (report.contains(k)) l.summary[k] = report[k];
  }
  for (Json& t : report["per_task"]) {
    Json row = Json::object();
    for (const char* k : {"task_id",
                          "question",
                          "gold",
                          "answer",
                          "cleaned_answer",
                          "normalized_answer",
                          "normalized_gold",
                          "status",
                          "em",
                          "lenient",
                          "numeric_match",
                          "date_match",
                          "scorable",
                          "token_f1",
                          "hops",
                          "documents",
                          "namespace_mix",
                          "answer_type",
                          "gold_datasets",
                          "funnel",
                          "runtime_s",
                          "cost_usd",
                          "tokens",
                          "turns",
                          "tool_calls",
                          "failed_tool_calls",
                          "has_trace",
                          "judge",
                          "dret",
                          "dacc"}) {
      if (t.contains(k)) row[k] = t[k];
    }
    // What EM compared: a report written before reports carried it gets it from the same cleaning.
    if (!row.contains("cleaned_answer")) row["cleaned_answer"] = eval::CleanAnswer(Field(t, "answer"));
    row["correct"] = Field(t, "em");
    std::set<std::string> cats;
    if (category_of_ && t.contains("gold_datasets") && t["gold_datasets"].is_array()) {
      for (const Json& d : t["gold_datasets"]) {
        if (!d.is_string()) continue;
        std::string c = category_of_(d.get<std::string>());
        if (!c.empty()) cats.insert(c);
      }
    }
    row["category"] = Json(std::vector<std::string>(cats.begin(), cats.end()));
    std::string id = row.value("task_id", "");
    l.index[id] = l.rows.size();
    l.rows.push_back(std::move(row));
  }
}

// Predictions only: what each task ended with (its first line); correctness and stage are unknown (null).
Status RunLibrary::AddPredictionRows(Loaded& l) {
  l.source = TaskPaths(l.run_json).empty() ? "predictions only (no report.json and no tasks in run.json)"
                                           : "predictions only (no report.json, and the task files "
                                             "run.json names did not load: see the warnings)";
  const std::string pred_path = eval::RunDir(l.dir).Predictions();
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(pred_path, kMaxReportBytes));
  ForEachLine(text, [&](std::string_view line, size_t line_no) {
    std::string where = pred_path + ":" + std::to_string(line_no);
    auto j = ParseJson(line, where);
    auto p = j.ok() ? eval::PredictionFromJson(*j, where) : Result<eval::Prediction>(j.status());
    if (!p.ok()) {
      l.warnings.push_back(p.status().message());
      return;
    }
    if (l.index.count(p->task_id)) return;
    Json row = {{"task_id", p->task_id},
                {"question", nullptr},
                {"gold", nullptr},
                {"answer", p->answer},
                {"status", p->status},
                {"em", nullptr},
                {"correct", nullptr},
                {"funnel", nullptr},
                {"hops", nullptr},
                {"category", Json::array()},
                {"runtime_s", p->runtime_s ? Json(*p->runtime_s) : Json(nullptr)},
                {"cost_usd", p->cost_usd ? Json(*p->cost_usd) : Json(nullptr)},
                {"tokens", {{"input", p->input_tokens}, {"output", p->output_tokens}}},
                {"turns", p->turns},
                {"cleaned_answer", eval::CleanAnswer(p->answer)},
                {"lenient", nullptr}};
    l.index[p->task_id] = l.rows.size();
    l.rows.push_back(std::move(row));
  });
  l.summary["tasks"] = l.rows.size();
  return Status::Ok();
}

Json RunLibrary::List() {
  std::vector<std::string> dirs = Discover();
  {
    std::lock_guard<std::mutex> lock(mu_);
    dirs_ = dirs;
  }
  Json out = Json::array();
  for (size_t i = 0; i < dirs.size(); ++i) {
    Json e = {{"id", std::to_string(i)}, {"dir", dirs[i]}, {"name", fs::path(dirs[i]).filename().string()}};
    auto l = Load(std::to_string(i));
    if (!l.ok()) {
      e["error"] = l.status().message();
      out.push_back(std::move(e));
      continue;
    }
    const Json& rj = (*l)->run_json;
    e["agent"] = Field(rj, "agent");
    e["model"] = Field(rj, "model");
    e["created_at"] =
        rj.is_object() && rj.contains("started_at") ? rj["started_at"] : Field(rj, "created_at");
    e["source"] = (*l)->source;
    e["scored"] = (*l)->source.rfind("predictions only", 0) != 0;
    for (const char* k :
         {"tasks", "em", "lenient", "dacc_p", "dacc_r", "dacc_f1", "dret_p", "dret_r", "dret_f1", "runtime_s",
          "cost_usd", "funnel", "status", "by_hops", "tokens", "judge"}) {
      e[k] = Field((*l)->summary, k);
    }
    out.push_back(std::move(e));
  }
  return out;
}

Result<Json> RunLibrary::Tasks(const std::string& run_id) {
  LAKEQA_ASSIGN_OR_RETURN(auto l, Load(run_id));
  return Json{{"run", run_id},         {"dir", l->dir},           {"source", l->source},
              {"summary", l->summary}, {"warnings", l->warnings}, {"rows", l->rows}};
}

Result<Json> RunLibrary::Task(const std::string& run_id, const std::string& task_id) {
  LAKEQA_ASSIGN_OR_RETURN(auto l, Load(run_id));
  auto it = l->index.find(task_id);
  if (it == l->index.end()) return NotFound("run " + run_id + " has no task '" + task_id + "'");
  Json out = {{"run", run_id}, {"row", l->rows[it->second]}};
  std::string path = eval::RunDir(l->dir).Trace(task_id);
  Json events = Json::array();
  Json warnings = Json::array();
  if (!PathExists(path)) {
    out["trace_file"] = nullptr;
    warnings.push_back("no trace file " + path);
  } else {
    out["trace_file"] = path;
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, kMaxTraceBytes));
    ForEachLine(text, [&](std::string_view line, size_t line_no) {
      std::string where = path + ":" + std::to_string(line_no);
      auto j = ParseJson(line, where);
      if (!j.ok()) {
        warnings.push_back(j.status().message());
        return;
      }
      // Scoring's own reading of the line: a line it would skip is shown, with the reason.
      auto e = eval::TraceEventFromJson(*j, where);
      if (!e.ok()) warnings.push_back(e.status().message());
      events.push_back(std::move(*j));
    });
  }
  out["events"] = std::move(events);
  out["warnings"] = std::move(warnings);
  return out;
}

}  // namespace lakeqa::workbench
