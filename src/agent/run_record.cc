// run.json: opening (with the checks that keep one run per folder), merging an invocation, saving atomically.
#include "agent/run_record.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <set>

#include "lakeqa/agent/ablation.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::agent::internal {
namespace {

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool Covers(const std::string& outer, const std::string& inner) {
  return inner == outer || (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
                            (outer.back() == '/' || inner[outer.size()] == '/'));
}

// A run.json written before the format was versioned: "tasks" was a count, the paths sat in config.tasks,
// the index manifest in index_manifest and the last invocation's totals in last_invocation.
void CarryOverUnversioned(Json& j) {
  Json tasks = Json::array();
  std::vector<std::string> paths;
  if (j.contains("config") && j["config"].is_object() && j["config"].contains("tasks")) {
    for (const Json& p : j["config"]["tasks"])
      if (p.is_string()) paths.push_back(AbsolutePath(p.get<std::string>()));
  }
  MergePaths(tasks, paths);
  Json invocation = {{"tasks", tasks}, {"config", j.value("config", Json::object())}};
  if (j.contains("last_invocation")) invocation["summary"] = j["last_invocation"];
  Json manifest = j.value("index_manifest", Json());
  j.erase("last_invocation");
  j.erase("index_manifest");
  j["tasks"] = tasks;
  j["task_ids"] = Json::array();  // not recorded then
  j["invocations"] = Json::array({invocation});
  j["index"] = {{"manifest", manifest}};
}

}  // namespace

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  std::string out = ec ? path : abs.lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

void MergePaths(Json& into, const std::vector<std::string>& paths) {
  if (!into.is_array()) into = Json::array();
  for (const std::string& p : paths) {
    bool covered = false;
    for (const Json& q : into) covered = covered || Covers(q.get<std::string>(), p);
    if (covered) continue;
    Json kept = Json::array();
    for (const Json& q : into)
      if (!Covers(p, q.get<std::string>())) kept.push_back(q);
    kept.push_back(p);
    into = std::move(kept);
  }
}

Result<RunRecord> RunRecord::Open(const RunOptions& o) {
  RunRecord r;
  r.path_ = eval::RunDir(o.out_dir).RunJson();
  if (!PathExists(r.path_)) {
    r.j_ = {{"format", eval::kRunFormat}, {"lakeqa_version", "0.1.0"},
            {"created", NowUtc()},        {"agent", o.agent},
            {"model", o.model},           {"prompt_hash", o.prompt_hash},
            {"tasks", Json::array()},     {"task_ids", Json::array()},
            {"warnings", Json::array()},  {"invocations", Json::array()}};
    return r;
  }
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(r.path_, 256ull << 20));
  LAKEQA_ASSIGN_OR_RETURN(r.j_, ParseJson(text, r.path_));
  if (!r.j_.is_object()) return Corrupt(r.path_ + ": expected a JSON object");
  if (!r.j_.contains("format")) {
    CarryOverUnversioned(r.j_);
    r.j_["format"] = eval::kRunFormat;
  } else if (r.j_["format"] != eval::kRunFormat) {
    return Unsupported(r.path_ + ": format " + r.j_["format"].dump() + " is not " + eval::kRunFormat +
                       " (written by another lakeqa version): choose another --out");
  }
  for (const char* k : {"agent", "model", "prompt_hash"}) {
    std::string now = k == std::string("agent")   ? o.agent
                      : k == std::string("model") ? o.model
                                                  : o.prompt_hash;
    std::string was = r.j_.value(k, "");
    if (was != now) {
      return Status(ErrorCode::kAlreadyExists,
                    o.out_dir + " holds a run with " + k + " \"" + was + "\", not \"" + now +
                        "\": resume it with the same settings or choose another --out");
    }
  }
  // One ablation per run folder: `eval compare` pairs a folder's tasks as one variant.
  auto was_ab = AblationFromJson(r.j_.value("ablation", Json()));
  if (!was_ab.ok()) return Corrupt(r.path_ + ": " + was_ab.status().message());
  auto now_ab = AblationFromJson(o.ablation);
  if (!now_ab.ok()) return now_ab.status();
  if (!(*was_ab == *now_ab)) {
    return Status(ErrorCode::kAlreadyExists,
                  o.out_dir + " holds a run with the ablation " + was_ab->Label() + ", not " +
                      now_ab->Label() + ": resume it with the same --ablate or choose another --out");
  }
  std::string was_lake =
      r.j_.contains("lake") && r.j_["lake"].is_object() ? r.j_["lake"].value("uri", "") : "";
  std::string now_lake = o.lake.is_object() ? o.lake.value("uri", "") : "";
  if (!was_lake.empty() && !now_lake.empty() && was_lake != now_lake && !o.force_lake) {
    return InvalidArgument(o.out_dir + " holds a run on the lake " + was_lake + ", not " + now_lake +
                           ": resume it on the same lake, choose another --out, or pass --force to mix them");
  }
  for (const char* k : {"tasks", "task_ids", "warnings", "invocations"}) {
    if (!r.j_.contains(k) || !r.j_[k].is_array()) r.j_[k] = Json::array();
  }
  return r;
}

void RunRecord::Begin(const RunOptions& o, const std::vector<eval::Task>& tasks) {
  std::vector<std::string> paths;
  for (const std::string& p : o.task_paths) paths.push_back(AbsolutePath(p));
  MergePaths(j_["tasks"], paths);
  std::set<std::string> ids;
  for (const Json& id : j_["task_ids"]) ids.insert(id.get<std::string>());
  for (const eval::Task& t : tasks) {
    if (ids.insert(t.id).second) j_["task_ids"].push_back(t.id);
  }
  j_["task_count"] = j_["task_ids"].size();
  std::string was_lake = j_.contains("lake") && j_["lake"].is_object() ? j_["lake"].value("uri", "") : "";
  std::vector<std::string> warnings = o.warnings;
  if (o.lake.is_object() && !was_lake.empty() && was_lake != o.lake.value("uri", "")) {
    warnings.push_back("resumed on the lake " + o.lake.value("uri", "") + " while earlier invocations used " +
                       was_lake + " (--force)");
  }
  if (!o.lake.is_null()) j_["lake"] = o.lake;
  if (!o.index.is_null()) j_["index"] = o.index;
  for (const std::string& w : warnings) {
    if (std::find(j_["warnings"].begin(), j_["warnings"].end(), Json(w)) == j_["warnings"].end())
      j_["warnings"].push_back(w);
  }
  j_["config"] = o.config;
  j_["ablation"] = AblationFromJson(o.ablation).value_or(Ablation()).ToJson();
  // The most epochs any invocation asked for: a later invocation may add epochs to a run.
  j_["epochs"] = std::max(
      o.epochs, j_.contains("epochs") && j_["epochs"].is_number_integer() ? j_["epochs"].get<int>() : 1);
  j_["status"] = "running";
  j_["updated"] = NowUtc();
  j_["invocations"].push_back({{"started", j_["updated"]},
                               {"tasks", Json(paths)},
                               {"task_count", tasks.size()},
                               {"config", o.config},
                               {"epochs", o.epochs},
                               {"not_run", o.not_run},
                               {"warnings", warnings}});
}

void RunRecord::SetPreflight(const Json& preflight) { j_["invocations"].back()["preflight"] = preflight; }

void RunRecord::Finish(const std::string& status, const Json& summary) {
  j_["status"] = status;
  j_["updated"] = NowUtc();
  Json& inv = j_["invocations"].back();
  inv["finished"] = j_["updated"];
  inv["status"] = status;
  inv["summary"] = summary;
}

Status RunRecord::Save() const { return WriteFileAtomic(path_, DumpJson(j_, 2) + "\n"); }

}  // namespace lakeqa::agent::internal
