// The runner: parallel episodes, per-task isolation, durable predictions, resume and cancellation.
#include "lakeqa/agent/run.h"

#include <cerrno>
#include <chrono>
#include <exception>
#include <mutex>
#include <set>

#include <fcntl.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/eval/score.h"

#include "agent/internal.h"
#include "agent/run_record.h"

namespace lakeqa::agent {
namespace {

// Appends whole lines to predictions.jsonl: one write() per line on an O_APPEND descriptor, then fsync,
// so a kill leaves at most one torn last line (which readers skip) and never loses an earlier one.
class LineLog {
 public:
  static Result<std::unique_ptr<LineLog>> Open(const std::string& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoStatus(errno, path);
    auto log = std::make_unique<LineLog>();
    log->fd_ = fd;
    log->path_ = path;
    return log;
  }
  ~LineLog() {
    if (fd_ >= 0) ::close(fd_);
  }
  Status Append(const std::string& line) {
    std::lock_guard<std::mutex> lock(mu_);
    std::string data = line + "\n";
    size_t off = 0;
    while (off < data.size()) {
      ssize_t n = ::write(fd_, data.data() + off, data.size() - off);
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(errno, path_);
      }
      off += size_t(n);
    }
    if (::fsync(fd_) != 0) return ErrnoStatus(errno, path_);
    return Status::Ok();
  }

 private:
  int fd_ = -1;
  std::string path_;
  std::mutex mu_;
};

// A torn last line (a kill mid-append) lacks its newline; make the file end cleanly before appending.
Status RepairTornTail(const std::string& path) {
  if (!PathExists(path)) return Status::Ok();
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  if (text.empty() || text.back() == '\n') return Status::Ok();
  size_t nl = text.rfind('\n');
  return WriteFileAtomic(path, nl == std::string::npos ? std::string() : text.substr(0, nl + 1));
}

}  // namespace

Json RunSummary::ToJson() const {
  Json cost = cost_unknown > 0 && cost_known == 0 ? Json() : Json(cost_usd);
  return {{"tasks", tasks},
          {"epochs", epochs},
          {"skipped", skipped},
          {"ran", ran},
          {"answered", answered},
          {"failed", failed},
          {"unfinished", unfinished},
          {"not_applicable", not_applicable},
          {"cancelled", cancelled},
          {"not_started", not_started},
          {"interrupted", interrupted},
          {"stopped", stopped.empty() ? Json() : Json(stopped)},
          {"usage", usage.ToJson()},
          {"cost_usd", cost},
          {"cost_unknown_tasks", cost_unknown},
          {"elapsed_s", elapsed_s}};
}

Result<std::map<std::string, std::string>> ReadRecordedStatus(const std::string& out_dir) {
  LAKEQA_ASSIGN_OR_RETURN(auto all, ReadRecordedEpochStatus(out_dir));
  std::map<std::string, std::string> status;
  for (const auto& [key, st] : all)
    if (key.second == 1) status[key.first] = st;
  return status;
}

Result<std::map<std::pair<std::string, int>, std::string>> ReadRecordedEpochStatus(
    const std::string& out_dir) {
  std::map<std::pair<std::string, int>, std::string> status;
  std::vector<eval::PredictionLine> lines;
  std::string path = eval::RunDir(out_dir).Predictions();
  if (!PathExists(path)) return status;
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  LineReader reader(text);
  while (reader.Next()) {
    Json j = Json::parse(reader.line(), nullptr, false);
    if (!j.is_object() || !j.contains("task_id") || !j["task_id"].is_string()) {
      if (!reader.complete()) break;  // torn by a kill: that task simply runs again
      return Corrupt(path + ":" + std::to_string(reader.number()) + ": not a prediction line");
    }
    int epoch = j.contains("epoch") && j["epoch"].is_number_integer() ? j["epoch"].get<int>() : 1;
    lines.push_back({j["task_id"].get<std::string>(), j.value("status", ""), reader.number(), epoch});
  }
  // The scorer's rule, so that what a resumed run skips is what `lakeqa eval` scores.
  for (size_t i : eval::CurrentLines(lines)) status[{lines[i].task_id, lines[i].epoch}] = lines[i].status;
  return status;
}

Result<RunSummary> RunTasks(const RunOptions& o, const std::vector<eval::Task>& tasks,
                            const AgentFactory& make_agent, const ToolEnvFactory& make_env,
                            std::atomic<bool>& cancel) {
  return RunTasks(o, tasks, EpochAgentFactory([&make_agent](int) { return make_agent(); }), make_env, cancel);
}

namespace {

// Two tasks with one id would write over each other's trace and prediction line.
Status CheckUniqueIds(const std::vector<eval::Task>& tasks) {
  std::set<std::string> ids;
  for (const auto& t : tasks) {
    if (!ids.insert(t.id).second) {
      return InvalidArgument("task id " + t.id + " appears twice (" + t.Where() +
                             "); pass each task set once");
    }
  }
  return Status::Ok();
}

// Epoch-major: every task's epoch 1 before any epoch 2, so an interrupted run has whole epochs first.
std::vector<std::pair<const eval::Task*, int>> PlanTodo(
    const RunOptions& o, const std::vector<eval::Task>& tasks,
    const std::map<std::pair<std::string, int>, std::string>& recorded, RunSummary& sum) {
  std::vector<std::pair<const eval::Task*, int>> todo;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    for (const auto& t : tasks) {
      auto it = recorded.find({t.id, epoch});
      bool done = false;
      if (it != recorded.end()) {
        auto oc = OutcomeFromName(it->second);
        done = o.only_new || (oc && IsFinal(*oc));
      }
      if (done) ++sum.skipped;
      else todo.emplace_back(&t, epoch);
    }
  }
  return todo;
}

// One task's agent run; a failed tool environment or an agent that throws is that task's result, never the
// whole run's end.
AgentResult RunOneAgent(const eval::Task& task, int epoch, const EpochAgentFactory& make_agent,
                        const ToolEnvFactory& make_env, std::atomic<bool>& cancel) {
  AgentResult r;
  try {
    auto env = make_env(task);
    if (!env.ok()) {
      r.task_id = task.id;
      r.outcome = Outcome::kError;
      r.cost_usd = 0.0;  // failed before any model call
      r.error = "tool environment: " + env.status().ToString();
    } else {
      r = make_agent(epoch)->Run(task, **env, cancel);
    }
  } catch (const std::exception& e) {
    r = AgentResult();
    r.outcome = Outcome::kCrashed;
    r.error = std::string("crashed: ") + e.what();
  } catch (...) {
    r = AgentResult();
    r.outcome = Outcome::kCrashed;
    r.error = "crashed: unknown exception";
  }
  r.task_id = task.id;
  return r;
}

// Counts a kept result into the summary; returns true when --max-failures is reached.
bool Tally(const RunOptions& o, const eval::Task& task, int epoch, const AgentResult& r, RunSummary& sum) {
  ++sum.ran;
  sum.usage += r.usage;
  if (r.cost_usd) {
    sum.cost_usd += *r.cost_usd;
    ++sum.cost_known;
  } else {
    ++sum.cost_unknown;
  }
  bool stop = false;
  if (r.outcome == Outcome::kAnswered) {
    ++sum.answered;
  } else if (r.outcome == Outcome::kNotApplicable) {
    if (sum.not_applicable++ == 0) sum.first_not_applicable = task.id + ": " + r.error;
  } else if (r.outcome == Outcome::kError || r.outcome == Outcome::kCrashed) {
    if (sum.failed++ == 0)
      sum.first_failure =
          task.id + (o.epochs > 1 ? " (epoch " + std::to_string(epoch) + ")" : "") + ": " + r.error;
    if (o.max_failures > 0 && sum.failed >= static_cast<size_t>(o.max_failures)) stop = true;
  } else {
    ++sum.unfinished;
  }
  return stop;
}

}  // namespace

Result<RunSummary> RunTasks(const RunOptions& o, const std::vector<eval::Task>& tasks,
                            const EpochAgentFactory& make_agent, const ToolEnvFactory& make_env,
                            std::atomic<bool>& cancel) {
  auto t_start = std::chrono::steady_clock::now();
  if (o.out_dir.empty()) return InvalidArgument("run: --out is required");
  if (o.epochs < 1)
    return InvalidArgument("run: --epochs must be at least 1, not " + std::to_string(o.epochs));
  LAKEQA_RETURN_IF_ERROR(CheckUniqueIds(tasks));
  const eval::RunDir run_dir(o.out_dir);
  for (int e = 1; e <= o.epochs; ++e) LAKEQA_RETURN_IF_ERROR(MakeDirs(run_dir.TracesDir(e)));
  LAKEQA_ASSIGN_OR_RETURN(internal::RunRecord record, internal::RunRecord::Open(o));
  record.Begin(o, tasks);
  LAKEQA_RETURN_IF_ERROR(record.Save());

  std::string pred_path = run_dir.Predictions();
  LAKEQA_RETURN_IF_ERROR(RepairTornTail(pred_path));
  LAKEQA_ASSIGN_OR_RETURN(auto recorded, ReadRecordedEpochStatus(o.out_dir));
  LAKEQA_ASSIGN_OR_RETURN(auto log, LineLog::Open(pred_path));

  RunSummary sum;
  sum.tasks = tasks.size();
  sum.epochs = o.epochs;
  std::vector<std::pair<const eval::Task*, int>> todo = PlanTodo(o, tasks, recorded, sum);

  if (!todo.empty() && o.preflight) {
    Result<Json> pre = o.preflight();
    record.SetPreflight(pre.ok() ? *pre : Json{{"ok", false}, {"error", ErrorJson(pre.status())["error"]}});
    if (!pre.ok()) {
      sum.not_started = todo.size();
      sum.elapsed_s = internal::MsSince(t_start) / 1000;
      record.Finish("failed", sum.ToJson());
      LAKEQA_RETURN_IF_ERROR(record.Save());
      return pre.status().WithContext("preflight request (no task was started)");
    }
  }

  std::mutex mu;
  Status write_error;
  std::atomic<bool> stop{false};  // --max-failures reached: no new task starts
  ProgressBar bar("run", todo.size(), "tasks", o.progress);
  auto run_one = [&](const eval::Task& task, int epoch) {
    if (cancel.load() || stop.load()) return;
    AgentResult r = RunOneAgent(task, epoch, make_agent, make_env, cancel);
    if (r.outcome == Outcome::kCancelled) {
      std::lock_guard<std::mutex> lock(mu);
      ++sum.cancelled;
      return;
    }
    std::string trace;
    for (Json& ev : r.trace) {
      if (o.epochs > 1) ev["epoch"] = epoch;
      trace += DumpJson(ev) + "\n";
    }
    eval::PredictionRecord line = r.ToRecord();
    if (o.epochs > 1) line.epoch = epoch;
    Status st = WriteFileAtomic(run_dir.Trace(task.id, epoch), trace);
    if (st.ok()) st = log->Append(DumpJson(line.ToJson()));
    std::lock_guard<std::mutex> lock(mu);
    if (!st.ok()) {
      if (write_error.ok()) write_error = st;
      cancel = true;  // results that cannot be kept must not be paid for
      return;
    }
    if (Tally(o, task, epoch, r, sum)) stop = true;
    if (!r.error.empty() && !IsFinal(r.outcome))
      LAKEQA_LOG_WARN("task {} (epoch {}): {}", task.id, epoch, r.error);
    bar.Add();
  };
  {
    ThreadPool pool(std::max(1, o.parallel), std::max(1, o.parallel));
    for (const auto& [t, epoch] : todo) {
      if (cancel.load() || stop.load()) break;
      pool.Submit([&, t = t, epoch = epoch] { run_one(*t, epoch); });
    }
    pool.Wait();
  }
  bar.Finish();
  sum.interrupted = cancel.load();
  sum.not_started = todo.size() - sum.ran - sum.cancelled;
  sum.stopped = sum.interrupted ? "interrupted" : stop.load() ? "max_failures" : "";
  sum.elapsed_s = internal::MsSince(t_start) / 1000;
  std::string status = !write_error.ok() ? "failed"
                       : sum.interrupted ? "interrupted"
                       : stop.load()     ? "stopped"
                                         : "complete";
  record.Finish(status, sum.ToJson());
  Status st = record.Save();
  if (!write_error.ok()) return write_error;
  LAKEQA_RETURN_IF_ERROR(st);
  return sum;
}

}  // namespace lakeqa::agent
