// Scoring a run folder end to end, what `lakeqa eval --run` and `lakeqa demo` call: the run and its tasks
// loaded, every prediction scored (and every epoch, when the run has several), the LLM judge when asked,
// the benchmarks' report sections (report_section.h), then report.json and report.html written into the run
// folder.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::eval {

struct EvaluateRunOptions {
  std::string run_dir;
  std::vector<std::string> tasks;  // task files or folders; empty: the "tasks" run.json names
  std::string judge;               // provider:model of an LLM judge; empty: none
  std::string judge_base_url;      // the judge's API; empty: the provider's
  // The task loader's notes ("note: …" lines), as they come.
  std::function<void(const std::string& line)> on_note;
};

// Fails when the run or its tasks cannot be loaded, when no prediction matches a loaded task, when the judge
// cannot be set up and when the reports cannot be written; tasks the judge gave no verdict for are counted in
// the score (judge_failed), not returned as an error.
Result<RunScore> EvaluateRun(const EvaluateRunOptions& options);

}  // namespace lakeqa::eval
