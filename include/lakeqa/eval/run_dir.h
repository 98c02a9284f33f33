// The layout of a run folder (docs/formats-run.md), the one place that spells its file names: `lakeqa run`
// writes it (agent/run.h), `lakeqa eval` scores it and writes its reports (score.h, report.h), the
// workbench and `eval compare` read it.
//   run.json                          the run's record (format, settings, tasks, history)
//   predictions.jsonl                 one line per finished attempt (prediction.h)
//   traces/<task>.jsonl               one event per turn, epoch 1
//   traces/epoch-<e>/<task>.jsonl     the same for epoch e > 1 of a repeated run
//   cassette.jsonl                    the llm agent's recorded model answers (the default place)
//   work/                             tool sessions and the download cache
//   report.json, report.html          written by `lakeqa eval`
//   report-traces/<n>.js              task n's trace for report.html
//   judge/                            the judge's verdict cache
// It lives in eval/, the lowest module every reader and writer of a run folder sees.
#pragma once

#include <cstddef>
#include <string>

#include "lakeqa/eval/trace_file.h"

namespace lakeqa::eval {

class RunDir {
 public:
  // A folder holds a run when it has this file (what the workbench looks for).
  static constexpr const char* kPredictionsName = "predictions.jsonl";

  explicit RunDir(std::string dir) : dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }
  std::string RunJson() const { return Join("run.json"); }
  std::string Predictions() const { return Join(kPredictionsName); }
  // traces/ for epoch 1 (and anything below it), traces/epoch-<e>/ for a later epoch.
  std::string TracesDir(int epoch = 1) const { return Join(TracesRelative(epoch)); }
  // A task's trace file: TraceFileName(task id) + ".jsonl" in its epoch's folder.
  std::string Trace(const std::string& task_id, int epoch = 1) const {
    return Join(TraceRelative(task_id, epoch));
  }
  // The same, relative to the run folder (as reports link it).
  static std::string TraceRelative(const std::string& task_id, int epoch = 1);
  std::string Cassette() const { return Join("cassette.jsonl"); }
  std::string WorkDir() const { return Join("work"); }
  std::string ReportJson() const { return Join("report.json"); }
  std::string ReportHtml() const { return Join("report.html"); }
  std::string ReportTracesDir() const { return Join(kReportTraces); }
  // Task n's trace script for report.html, relative to the run folder (the page loads it by this path).
  static std::string ReportTraceScript(size_t index);
  std::string JudgeDir() const { return Join("judge"); }

 private:
  static constexpr const char* kReportTraces = "report-traces";
  static std::string TracesRelative(int epoch);
  // As std::filesystem joins: "<dir>/<name>", one '/' when dir ends with one, the bare name for "".
  std::string Join(const std::string& name) const;
  std::string dir_;
};

}  // namespace lakeqa::eval
