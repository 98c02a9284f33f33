// `lakeqa eval compare`: runs side by side from their report.json files (score each run first), with
// per-task paired differences and a paired bootstrap confidence interval on the EM difference of every
// run against the first. The bootstrap uses a fixed seed so the same runs always give the same interval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::eval {

struct CompareOptions {
  size_t resamples = 10000;
  uint64_t seed = 20260522;
  double confidence = 0.95;
};

struct RunColumn {
  std::string dir;
  // "<agent> / <model>" from run.json ("<agent>" without a model, the folder name without either), with
  // " (<folder>)" added when two runs would otherwise share a label.
  std::string label;
  size_t tasks = 0;
  double em = 0, lenient = 0, token_f1 = 0;
  std::optional<double> runtime_s;  // report.json's per-task mean; unknown when no task's runtime is known
  std::optional<double> cost_usd;   // report.json's per-task mean; unknown for an unpriced model
  double dret_r = 0, dacc_r = 0, dret_f1 = 0, dacc_f1 = 0;
  // run.json's stage ablation as "standard" or "search=ideal,decompose=ideal" (a run.json without one:
  // standard).
  std::string ablation = "standard";
  int epochs = 1;  // report.json's epochs (lakeqa run --epochs): tasks are paired on their mean over them
};

// Run i against run 0, over the tasks both scored.
struct PairedDiff {
  size_t run = 0;
  size_t paired = 0;    // tasks in both runs
  double em_base = 0;   // EM of run 0 on the paired tasks (mean over its epochs)
  double em_other = 0;  // EM of run i on the paired tasks (mean over its epochs)
  double diff = 0;      // em_other - em_base
  double ci_low = 0;    // percentile bootstrap interval of diff
  double ci_high = 0;
  size_t other_only = 0;  // tasks run i scores higher on (single epoch: right in run i, wrong in run 0)
  size_t base_only = 0;   // tasks run 0 scores higher on
};

// One ablated variant against the standard run (SANA's table): the EM gain an oracle stage brings.
struct AblationRow {
  size_t run = 0;        // index into Comparison::runs
  std::string ablation;  // "search=ideal", "search=ideal,decompose=ideal"
  size_t stages = 0;     // stages the variant replaces (1: a single-stage oracle)
  PairedDiff diff;       // against the standard run, over the tasks both scored
};

struct Comparison {
  std::vector<RunColumn> runs;
  std::vector<std::string> task_ids;  // union, in first-seen order
  std::vector<std::vector<int>> em;   // [task][run]: 1, 0, or -1 when the run did not score the task
  // [task][run]: what the pairs compare — the task's mean EM over the run's epochs (its EM for a run of one
  // epoch), -1 when the run did not score the task.
  std::vector<std::vector<double>> score;
  std::vector<PairedDiff> pairs;  // one per run after the first
  // Tasks some run did not score: left out of the per-task differences (and of each pair that lacks
  // them), counted and warned about.
  std::vector<std::string> unpaired;
  std::vector<std::string> warnings;
  CompareOptions options;
  // When some run is ablated: the standard run every variant is paired with (the first run whose ablation
  // is standard), one row per variant, and the single stage whose oracle gains most (the bottleneck; empty
  // when no single-stage oracle gains).
  std::optional<size_t> standard_run;
  std::vector<AblationRow> ablations;
  std::string bottleneck;

  bool InAllRuns(size_t task) const;
  // Rounded for reading: fractions to 4 decimals, seconds to 3, dollars to 6.
  Json ToJson() const;
  std::string FormatTable() const;
};

// Paired bootstrap of mean(b - a) over aligned per-task outcomes (0/1, or mean EM over epochs); returns
// {low, high}.
std::pair<double, double> BootstrapDiffCi(const std::vector<int>& a, const std::vector<int>& b,
                                          const CompareOptions& options);
std::pair<double, double> BootstrapDiffCi(const std::vector<double>& a, const std::vector<double>& b,
                                          const CompareOptions& options);

// Run `other` against run `base` over the tasks both scored, with the bootstrap interval.
PairedDiff PairRuns(const Comparison& c, size_t base, size_t other, const CompareOptions& options);

// The page `eval compare --html` writes: the runs, the paired differences and, for ablated runs, the
// per-stage gain chart with its intervals. No external resource.
std::string RenderCompareHtml(const Comparison& c);

// Reads <dir>/report.json of each run (fails naming the run when one is missing or malformed).
Result<Comparison> CompareRuns(const std::vector<std::string>& dirs, const CompareOptions& options = {});

}  // namespace lakeqa::eval
