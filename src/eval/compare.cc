// Run comparison from report.json files. The bootstrap draws indices with mt19937_64 and a modulo (not
// std::uniform_int_distribution, whose algorithm differs between standard libraries) so the interval
// is the same on every machine.
#include "lakeqa/eval/compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>

#include <fmt/format.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/eval/run_dir.h"

namespace lakeqa::eval {
namespace {

double Num(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

double Round(double v, int decimals) {
  double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}
Json Fraction(double v) { return Round(v, 4); }

Json RunJson(const std::string& dir) {
  auto text = ReadFile(RunDir(dir).RunJson(), 256ull << 20);
  if (!text.ok()) return Json();
  Json j = Json::parse(*text, nullptr, false);
  return j.is_object() ? j : Json();
}

// run.json's "ablation" as a label: the non-standard stages in stage order, or "standard".
std::string AblationLabel(const Json& run_json) {
  if (!run_json.is_object() || !run_json.contains("ablation") || !run_json["ablation"].is_object())
    return "standard";
  std::string out;
  for (const char* stage : {"search", "decompose", "compute"}) {
    const Json& a = run_json["ablation"];
    if (a.contains(stage) && a[stage].is_string() && a[stage] != "standard")
      out += (out.empty() ? "" : ",") + std::string(stage) + "=" + a[stage].get<std::string>();
  }
  return out.empty() ? "standard" : out;
}

// "<agent> / <model>" from run.json, or what of it there is; empty when it names neither.
std::string AgentModelLabel(const std::string& dir) {
  Json j = RunJson(dir);
  if (!j.is_object()) return "";
  auto str = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; };
  std::string agent = str("agent"), model = str("model");
  if (agent.empty()) return model;
  return model.empty() ? agent : agent + " / " + model;
}

std::string FolderName(const std::string& dir) {
  std::string name = std::filesystem::path(dir).filename().string();
  return name.empty() ? std::filesystem::path(dir).parent_path().filename().string() : name;
}

double Quantile(std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

// SANA's table: every ablated run against the standard one, and the single-stage oracle that gains most.
void AddAblations(Comparison& c, const CompareOptions& o) {
  bool any =
      std::any_of(c.runs.begin(), c.runs.end(), [](const RunColumn& r) { return r.ablation != "standard"; });
  if (!any) return;
  for (size_t r = 0; r < c.runs.size() && !c.standard_run; ++r)
    if (c.runs[r].ablation == "standard") c.standard_run = r;
  if (!c.standard_run) {
    c.warnings.push_back(
        "every run is ablated: the per-stage gain needs a standard run (lakeqa run without --ablate) among "
        "them");
    return;
  }
  double best = 0;
  for (size_t r = 0; r < c.runs.size(); ++r) {
    if (c.runs[r].ablation == "standard") continue;
    AblationRow row;
    row.run = r;
    row.ablation = c.runs[r].ablation;
    row.stages = static_cast<size_t>(std::count(row.ablation.begin(), row.ablation.end(), ',')) + 1;
    row.diff = PairRuns(c, *c.standard_run, r, o);
    if (row.stages == 1 && row.diff.paired > 0 && row.diff.diff > best) {
      best = row.diff.diff;
      c.bottleneck = row.ablation.substr(0, row.ablation.find('='));
    }
    c.ablations.push_back(std::move(row));
  }
}

}  // namespace

std::pair<double, double> BootstrapDiffCi(const std::vector<int>& a, const std::vector<int>& b,
                                          const CompareOptions& o) {
  return BootstrapDiffCi(std::vector<double>(a.begin(), a.end()), std::vector<double>(b.begin(), b.end()), o);
}

std::pair<double, double> BootstrapDiffCi(const std::vector<double>& a, const std::vector<double>& b,
                                          const CompareOptions& o) {
  const size_t n = std::min(a.size(), b.size());
  if (n == 0 || o.resamples == 0) return {0, 0};
  std::mt19937_64 rng(o.seed);
  std::vector<double> means;
  means.reserve(o.resamples);
  for (size_t r = 0; r < o.resamples; ++r) {
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
      size_t k = static_cast<size_t>(rng() % n);
      sum += b[k] - a[k];
    }
    means.push_back(static_cast<double>(sum) / static_cast<double>(n));
  }
  std::sort(means.begin(), means.end());
  double alpha = (1 - o.confidence) / 2;
  return {Quantile(means, alpha), Quantile(means, 1 - alpha)};
}

Result<Comparison> CompareRuns(const std::vector<std::string>& dirs, const CompareOptions& o) {
  if (dirs.size() < 2) return InvalidArgument("eval compare: give at least two run directories");
  Comparison c;
  c.options = o;
  std::map<std::string, size_t> task_index;
  for (size_t r = 0; r < dirs.size(); ++r) {
    const std::string path = RunDir(dirs[r]).ReportJson();
    if (!PathExists(path)) {
      return NotFound(path + ": no report.json; score the run first with `lakeqa eval --run " + dirs[r] +
                      "`");
    }
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 1ull << 30));
    LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
    if (!j.is_object() || !j.contains("per_task") || !j["per_task"].is_array()) {
      return ParseError(path + ": expected a lakeqa report with a \"per_task\" array");
    }
    RunColumn col;
    col.dir = dirs[r];
    col.label = AgentModelLabel(dirs[r]);
    if (col.label.empty()) col.label = FolderName(dirs[r]);
    col.ablation = AblationLabel(RunJson(dirs[r]));
    if (col.ablation != "standard") col.label += " [" + col.ablation + "]";
    col.em = Num(j, "em");
    col.lenient = Num(j, "lenient");
    col.token_f1 = Num(j, "token_f1");
    if (j.contains("runtime_s") && j["runtime_s"].is_number()) col.runtime_s = j["runtime_s"].get<double>();
    if (j.contains("cost_usd") && j["cost_usd"].is_number()) col.cost_usd = j["cost_usd"].get<double>();
    col.dret_r = Num(j, "dret_r");
    col.dacc_r = Num(j, "dacc_r");
    col.dret_f1 = Num(j, "dret_f1");
    col.dacc_f1 = Num(j, "dacc_f1");
    size_t row_no = 0;
    for (const Json& row : j["per_task"]) {
      ++row_no;
      if (!row.is_object() || !row.contains("task_id") || !row["task_id"].is_string() ||
          !row.contains("em") || !row["em"].is_boolean()) {
        return ParseError(fmt::format("{}: per_task[{}]: expected {{\"task_id\": string, \"em\": bool}}",
                                      path, row_no - 1));
      }
      std::string id = row["task_id"].get<std::string>();
      auto [it, added] = task_index.emplace(id, c.task_ids.size());
      if (added) {
        c.task_ids.push_back(id);
        c.em.emplace_back(dirs.size(), -1);
        c.score.emplace_back(dirs.size(), -1.0);
      }
      c.em[it->second][r] = row["em"].get<bool>() ? 1 : 0;
      c.score[it->second][r] = c.em[it->second][r];
      ++col.tasks;
    }
    // A repeated run: each task is paired on its mean EM over the epochs that scored it.
    if (j.contains("epochs") && j["epochs"].is_object() && j["epochs"].contains("per_task") &&
        j["epochs"]["per_task"].is_array()) {
      col.epochs = j["epochs"].value("epochs", 1);
      for (const Json& row : j["epochs"]["per_task"]) {
        if (!row.is_object() || !row.contains("task_id") || !row["task_id"].is_string()) continue;
        auto it = task_index.find(row["task_id"].get<std::string>());
        int runs = row.value("runs", 0), right = row.value("right", 0);
        if (it != task_index.end() && runs > 0) c.score[it->second][r] = static_cast<double>(right) / runs;
      }
    }
    c.runs.push_back(std::move(col));
  }
  // Two runs of the same agent and model: the folder tells them apart.
  std::map<std::string, size_t> label_count;
  for (const RunColumn& col : c.runs) ++label_count[col.label];
  for (RunColumn& col : c.runs) {
    if (label_count[col.label] > 1 && col.label != FolderName(col.dir))
      col.label += " (" + FolderName(col.dir) + ")";
  }
  for (size_t t = 0; t < c.task_ids.size(); ++t) {
    if (!c.InAllRuns(t)) c.unpaired.push_back(c.task_ids[t]);
  }
  if (!c.unpaired.empty()) {
    c.warnings.push_back(fmt::format(
        "{} tasks were not scored by every run and are left out of the per-task differences (each pair "
        "compares only the tasks both runs scored): score the runs on the same task set to compare them all",
        c.unpaired.size()));
  }
  for (size_t r = 1; r < dirs.size(); ++r) c.pairs.push_back(PairRuns(c, 0, r, o));
  AddAblations(c, o);
  return c;
}

PairedDiff PairRuns(const Comparison& c, size_t base, size_t other, const CompareOptions& o) {
  PairedDiff d;
  d.run = other;
  std::vector<double> a, b;
  for (const auto& row : c.score) {
    if (row[base] < 0 || row[other] < 0) continue;
    a.push_back(row[base]);
    b.push_back(row[other]);
    d.other_only += row[other] > row[base];
    d.base_only += row[base] > row[other];
  }
  d.paired = a.size();
  if (d.paired > 0) {
    double n = static_cast<double>(d.paired);
    for (size_t i = 0; i < a.size(); ++i) {
      d.em_base += a[i] / n;
      d.em_other += b[i] / n;
    }
    d.diff = d.em_other - d.em_base;
    std::tie(d.ci_low, d.ci_high) = BootstrapDiffCi(a, b, o);
  }
  return d;
}

bool Comparison::InAllRuns(size_t task) const {
  return std::all_of(em[task].begin(), em[task].end(), [](int v) { return v >= 0; });
}

Json Comparison::ToJson() const {
  Json j = Json::object();
  j["runs"] = Json::array();
  for (const RunColumn& r : runs) {
    j["runs"].push_back({{"dir", r.dir},
                         {"label", r.label},
                         {"ablation", r.ablation},
                         {"epochs", r.epochs},
                         {"tasks", r.tasks},
                         {"em", Fraction(r.em)},
                         {"lenient", Fraction(r.lenient)},
                         {"token_f1", Fraction(r.token_f1)},
                         {"runtime_s", r.runtime_s ? Json(Round(*r.runtime_s, 3)) : Json()},
                         {"cost_usd", r.cost_usd ? Json(Round(*r.cost_usd, 6)) : Json()},
                         {"dret_r", Fraction(r.dret_r)},
                         {"dacc_r", Fraction(r.dacc_r)},
                         {"dret_f1", Fraction(r.dret_f1)},
                         {"dacc_f1", Fraction(r.dacc_f1)}});
  }
  j["bootstrap"] = {
      {"resamples", options.resamples}, {"seed", options.seed}, {"confidence", options.confidence}};
  j["pairs"] = Json::array();
  for (const PairedDiff& d : pairs) {
    j["pairs"].push_back({{"base", runs[0].dir},
                          {"other", runs[d.run].dir},
                          {"paired_tasks", d.paired},
                          {"em_base", Fraction(d.em_base)},
                          {"em_other", Fraction(d.em_other)},
                          {"em_diff", Fraction(d.diff)},
                          {"ci_low", Fraction(d.ci_low)},
                          {"ci_high", Fraction(d.ci_high)},
                          {"other_only_correct", d.other_only},
                          {"base_only_correct", d.base_only}});
  }
  if (!ablations.empty() || standard_run) {
    Json rows = Json::array();
    for (const AblationRow& a : ablations) {
      rows.push_back({{"run", runs[a.run].dir},
                      {"ablation", a.ablation},
                      {"stages", a.stages},
                      {"paired_tasks", a.diff.paired},
                      {"em_standard", Fraction(a.diff.em_base)},
                      {"em_variant", Fraction(a.diff.em_other)},
                      {"gain", Fraction(a.diff.diff)},
                      {"ci_low", Fraction(a.diff.ci_low)},
                      {"ci_high", Fraction(a.diff.ci_high)},
                      {"variant_only_correct", a.diff.other_only},
                      {"standard_only_correct", a.diff.base_only}});
    }
    j["ablation"] = {{"standard_run", standard_run ? Json(runs[*standard_run].dir) : Json()},
                     {"rows", rows},
                     {"bottleneck", bottleneck.empty() ? Json() : Json(bottleneck)}};
  }
  j["paired_tasks"] = task_ids.size() - unpaired.size();
  j["unpaired_tasks"] = unpaired;
  j["warnings"] = warnings;
  j["per_task"] = Json::array();
  for (size_t t = 0; t < task_ids.size(); ++t) {
    if (!InAllRuns(t)) continue;
    Json ems = Json::array();
    for (int v : em[t]) ems.push_back(v == 1);
    j["per_task"].push_back({{"task_id", task_ids[t]}, {"em", ems}});
  }
  return j;
}

std::string Comparison::FormatTable() const {
  std::string s;
  s += fmt::format("{:<4} {:<40} {:>6} {:>7} {:>8} {:>8} {:>8} {:>10} {:>9}\n", "#", "run", "tasks", "EM%",
                   "lenient%", "Dret R%", "Dacc R%", "runtime s", "cost $");
  for (size_t r = 0; r < runs.size(); ++r) {
    const RunColumn& c = runs[r];
    s += fmt::format("{:<4} {:<40} {:>6} {:>7.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>10} {:>9}\n", r,
                     c.label.size() > 40 ? c.label.substr(0, 39) + "…" : c.label, c.tasks, c.em * 100,
                     c.lenient * 100, c.dret_r * 100, c.dacc_r * 100,
                     c.runtime_s ? fmt::format("{:.1f}", *c.runtime_s) : "unknown",
                     c.cost_usd ? fmt::format("{:.4f}", *c.cost_usd) : "unknown");
  }
  s += fmt::format(
      "\nEM difference against run 0 (paired tasks; {:.0f}% bootstrap CI, {} resamples, seed {}):\n",
      options.confidence * 100, options.resamples, options.seed);
  bool repeated = std::any_of(runs.begin(), runs.end(), [](const RunColumn& r) { return r.epochs > 1; });
  if (repeated)
    s += "  (runs with several epochs: each task counts with its mean EM over the run's epochs)\n";
  for (const PairedDiff& d : pairs) {
    s += repeated
             ? fmt::format(
                   "  run {} − run 0: {:+.2f} pts [{:+.2f}, {:+.2f}] over {} tasks ({} higher in run {}, "
                   "{} higher in run 0)\n",
                   d.run, d.diff * 100, d.ci_low * 100, d.ci_high * 100, d.paired, d.other_only, d.run,
                   d.base_only)
             : fmt::format(
                   "  run {} − run 0: {:+.2f} pts [{:+.2f}, {:+.2f}] over {} tasks ({} only run {} right, "
                   "{} only run 0 right)\n",
                   d.run, d.diff * 100, d.ci_low * 100, d.ci_high * 100, d.paired, d.other_only, d.run,
                   d.base_only);
  }
  if (!ablations.empty()) {
    s +=
        fmt::format("\nStage ablations against run {} (standard; gain in EM points, {:.0f}% bootstrap CI):\n",
                    *standard_run, options.confidence * 100);
    s += fmt::format("  {:<4} {:<36} {:>7} {:>8} {:>20} {:>7}\n", "run", "ablation", "EM%", "gain", "CI",
                     "tasks");
    for (const AblationRow& a : ablations) {
      s += fmt::format("  {:<4} {:<36} {:>7.2f} {:>+8.2f} {:>20} {:>7}\n", a.run, a.ablation,
                       a.diff.em_other * 100, a.diff.diff * 100,
                       fmt::format("[{:+.2f}, {:+.2f}]", a.diff.ci_low * 100, a.diff.ci_high * 100),
                       a.diff.paired);
    }
    s += bottleneck.empty() ? "  bottleneck: none (no single-stage oracle gains over the standard run)\n"
                            : "  bottleneck: " + bottleneck + " (its oracle gains most)\n";
  }
  size_t differing = 0;
  std::string rows;
  for (size_t t = 0; t < task_ids.size(); ++t) {
    if (!InAllRuns(t)) continue;
    bool same = std::all_of(em[t].begin(), em[t].end(), [&](int v) { return v == em[t][0]; });
    if (same) continue;
    ++differing;
    rows += fmt::format("  {:<30}", task_ids[t]);
    for (int v : em[t]) rows += v ? "    ✔" : "    ✘";
    rows += "\n";
  }
  s += fmt::format("\nTasks where the runs differ: {} of {}\n", differing, task_ids.size() - unpaired.size());
  if (differing > 0) {
    s += fmt::format("  {:<30}", "task");
    for (size_t r = 0; r < runs.size(); ++r) s += fmt::format("{:>5}", r);
    s += "\n" + rows;
  }
  for (const std::string& w : warnings) s += "\nwarning: " + w + "\n";
  return s;
}

}  // namespace lakeqa::eval
