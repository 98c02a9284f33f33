// pass@k, pass^k and the spread across epochs of a repeated run.
#include "lakeqa/eval/epochs.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "lakeqa/eval/score.h"

namespace lakeqa::eval {
namespace {

Json Opt(const std::optional<double>& v) { return v ? Json(*v) : Json(); }
std::string OptPct(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}%", *v * 100) : "unknown";
}

}  // namespace

double PassAtK(int n, int c, int k) {
  if (n - c < k) return 1.0;
  double miss = 1.0;  // C(n-c, k) / C(n, k)
  for (int i = n - c + 1; i <= n; ++i) miss *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - miss;
}

double PassHatK(int n, int c, int k) {
  if (c < k) return 0.0;
  double p = 1.0;  // C(c, k) / C(n, k)
  for (int i = 0; i < k; ++i) p *= static_cast<double>(c - i) / (n - i);
  return p;
}

int EpochTask::runs() const {
  return static_cast<int>(std::count_if(correct.begin(), correct.end(), [](int v) { return v >= 0; }));
}
int EpochTask::right() const { return static_cast<int>(std::count(correct.begin(), correct.end(), 1)); }

EpochStats ComputeEpochStats(std::vector<EpochTask> tasks, int epochs) {
  EpochStats s;
  s.epochs = epochs;
  s.tasks = std::move(tasks);
  s.epoch_accuracy.assign(static_cast<size_t>(epochs), 0.0);
  s.epoch_tasks.assign(static_cast<size_t>(epochs), 0);
  std::vector<double> at(static_cast<size_t>(epochs), 0.0), hat(static_cast<size_t>(epochs), 0.0);
  double sum = 0;
  for (EpochTask& t : s.tasks) {
    t.correct.resize(static_cast<size_t>(epochs), -1);
    for (size_t e = 0; e < t.correct.size(); ++e) {
      if (t.correct[e] < 0) continue;
      ++s.epoch_tasks[e];
      s.epoch_accuracy[e] += t.correct[e];
    }
    if (t.runs() < epochs) {
      s.incomplete.push_back(t.task_id);
      continue;
    }
    ++s.complete;
    int c = t.right();
    s.inconsistent += c > 0 && c < epochs;
    sum += static_cast<double>(c) / epochs;
    for (int k = 1; k <= epochs; ++k) {
      at[static_cast<size_t>(k - 1)] += PassAtK(epochs, c, k);
      hat[static_cast<size_t>(k - 1)] += PassHatK(epochs, c, k);
    }
  }
  for (size_t e = 0; e < s.epoch_accuracy.size(); ++e)
    if (s.epoch_tasks[e] > 0) s.epoch_accuracy[e] /= static_cast<double>(s.epoch_tasks[e]);
  for (int k = 1; k <= epochs; ++k) {
    size_t i = static_cast<size_t>(k - 1);
    s.pass_at.push_back(s.complete ? std::optional<double>(at[i] / s.complete) : std::nullopt);
    s.pass_hat.push_back(s.complete ? std::optional<double>(hat[i] / s.complete) : std::nullopt);
  }
  if (s.complete > 0) s.mean = sum / s.complete;
  // The spread of the epochs that scored any task.
  std::vector<double> acc;
  for (size_t e = 0; e < s.epoch_accuracy.size(); ++e)
    if (s.epoch_tasks[e] > 0) acc.push_back(s.epoch_accuracy[e]);
  if (acc.size() >= 2) {
    double m = 0;
    for (double a : acc) m += a / static_cast<double>(acc.size());
    double ss = 0;
    for (double a : acc) ss += (a - m) * (a - m);
    s.variance = ss / static_cast<double>(acc.size() - 1);
    s.stddev = std::sqrt(*s.variance);
  }
  return s;
}

EpochStats ScoreEpochs(const RunData& run, const std::vector<Task>& tasks) {
  int epochs = run.Epochs();
  if (run.run_json.contains("epochs") && run.run_json["epochs"].is_number_integer())
    epochs = std::max(epochs, run.run_json["epochs"].get<int>());
  std::map<std::string, size_t> index;
  std::vector<EpochTask> rows;
  for (const Task& t : tasks) {
    if (index.emplace(t.id, rows.size()).second) rows.push_back({t.id, std::vector<int>(size_t(epochs), -1)});
  }
  for (int e = 1; e <= epochs; ++e) {
    RunScore score = ScoreRun(EpochView(run, e), tasks);
    for (const TaskScore& ts : score.tasks)
      rows[index[ts.task_id]].correct[size_t(e - 1)] = ts.answer.em ? 1 : 0;
  }
  return ComputeEpochStats(std::move(rows), epochs);
}

Json EpochStats::ToJson() const {
  Json j = {
      {"epochs", epochs},
      {"estimator", "pass@k: unbiased 1 - C(n-c,k)/C(n,k) (HumanEval); pass^k: C(c,k)/C(n,k) (tau-bench)"},
      {"metric", "em"},
      {"complete_tasks", complete},
      {"incomplete_tasks", incomplete},
      {"inconsistent_tasks", inconsistent},
      {"mean", Opt(mean)},
      {"variance", Opt(variance)},
      {"stddev", Opt(stddev)},
      {"epoch_accuracy", epoch_accuracy},
      {"epoch_tasks", epoch_tasks}};
  Json at = Json::object(), hat = Json::object();
  for (size_t i = 0; i < pass_at.size(); ++i) {
    at[std::to_string(i + 1)] = Opt(pass_at[i]);
    hat[std::to_string(i + 1)] = Opt(pass_hat[i]);
  }
  j["pass_at_k"] = at;
  j["pass_hat_k"] = hat;
  Json rows = Json::array();
  for (const EpochTask& t : tasks) {
    Json c = Json::array();
    for (int v : t.correct) c.push_back(v < 0 ? Json() : Json(v == 1));
    rows.push_back({{"task_id", t.task_id}, {"correct", c}, {"runs", t.runs()}, {"right", t.right()}});
  }
  j["per_task"] = rows;
  return j;
}

std::string EpochStats::FormatText() const {
  std::string s = fmt::format(
      "epochs {}: mean {}  sd across epochs {}  ({} tasks with every epoch scored, {} "
      "incomplete, {} right in some epochs only)\n",
      epochs, OptPct(mean), stddev ? fmt::format("{:.2f} pts", *stddev * 100) : "unknown", complete,
      incomplete.size(), inconsistent);
  s += "  per epoch:";
  for (size_t e = 0; e < epoch_accuracy.size(); ++e)
    s += epoch_tasks[e] ? fmt::format(" {:.2f}%", epoch_accuracy[e] * 100) : " unknown";
  s += "\n  pass@k:";
  for (size_t i = 0; i < pass_at.size(); ++i) s += fmt::format(" k={} {}", i + 1, OptPct(pass_at[i]));
  s += "\n  pass^k:";
  for (size_t i = 0; i < pass_hat.size(); ++i) s += fmt::format(" k={} {}", i + 1, OptPct(pass_hat[i]));
  return s + "\n";
}

}  // namespace lakeqa::eval
