// Repeated runs (`lakeqa run --epochs K`): per-task correctness over K epochs and what τ²-bench and the
// HumanEval paper report from it. With n = K runs of a task of which c are correct (exact match):
//   pass@k = 1 − C(n−c, k) / C(n, k)   the unbiased estimator of "at least one of k runs is right"
//                                      (Chen et al. 2021, HumanEval; computed as the product
//                                      ∏_{i=n−c+1..n} (1 − k/i) to stay exact for large n)
//   pass^k = C(c, k) / C(n, k)         τ-bench/τ²-bench's "all k runs are right" (pass^K: all K correct)
// both averaged over the tasks that have all K epochs scored (the others are listed as incomplete), for
// k = 1..K. mean is pass@1 = pass^1, the mean correctness over those tasks' runs; the spread across epochs
// is the sample variance (n − 1 in the denominator) of the per-epoch accuracies. docs/scoring.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"

namespace lakeqa::eval {

struct RunData;
struct Task;

// pass@k and pass^k of one task with n runs, c correct (0 <= c <= n, 1 <= k <= n).
double PassAtK(int n, int c, int k);
double PassHatK(int n, int c, int k);

struct EpochTask {
  std::string task_id;
  std::vector<int> correct;  // per epoch: 1, 0, or -1 when the epoch did not score the task
  int runs() const;          // epochs that scored it
  int right() const;
};

struct EpochStats {
  int epochs = 0;                      // K
  std::vector<EpochTask> tasks;        // in task order
  std::vector<double> epoch_accuracy;  // per epoch, over the tasks that epoch scored
  std::vector<size_t> epoch_tasks;     // tasks each epoch scored
  size_t complete = 0;                 // tasks with all K epochs scored
  std::vector<std::string> incomplete;
  size_t inconsistent = 0;                 // complete tasks right in some epochs and wrong in others
  std::optional<double> mean;              // unknown when no task is complete
  std::optional<double> variance, stddev;  // of epoch_accuracy; unknown with fewer than 2 epochs
  std::vector<std::optional<double>> pass_at, pass_hat;  // [k-1], k = 1..K

  Json ToJson() const;
  std::string FormatText() const;
};

// The statistics of a correctness matrix (tasks × K epochs).
EpochStats ComputeEpochStats(std::vector<EpochTask> tasks, int epochs);

// Scores every epoch of `run` (EpochView + ScoreRun, exact match) over `tasks`. K is the run's epoch count:
// the larger of run.json's "epochs" and the highest epoch with a prediction.
EpochStats ScoreEpochs(const RunData& run, const std::vector<Task>& tasks);

}  // namespace lakeqa::eval
