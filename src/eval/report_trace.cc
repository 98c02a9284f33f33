// The trace half of report.html: each task's trace is written beside the page as report-traces/<n>.js,
// a script that hands the trace to the page (`lakeqaTrace(n, {...})`), and the page loads it only when the
// trace is opened. A script, not JSON fetched with XHR, because a page opened from file:// may load
// scripts beside it but not fetch files; the page itself stays small however long the run (a 1,006-task
// run's traces are tens of megabytes, which the page used to embed and lay out up front).
#include <utility>
#include <vector>

#include "eval/report_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/run_dir.h"

namespace lakeqa::eval {
namespace {

using report_internal::AnswerText;
using report_internal::Cut;

// Arguments with every string cut to `max` bytes (code stays a string, so the page shows its real lines).
Json CutStrings(const Json& j, size_t max) {
  if (j.is_string()) return Cut(j.get_ref<const std::string&>(), max);
  if (j.is_array() || j.is_object()) {
    Json out = j;
    for (auto it = out.begin(); it != out.end(); ++it) *it = CutStrings(*it, max);
    return out;
  }
  return j;
}

Json OrNull(double v) { return v < 0 ? Json(nullptr) : Json(v); }
Json OrNull(int64_t v) { return v < 0 ? Json(nullptr) : Json(v); }

}  // namespace

Json TraceJson(const TaskScore& t, const RunData& run, const ReportOptions& o) {
  Json j = {{"task_id", t.task_id},
            {"question", Cut(t.question, 4 * o.max_field_chars)},
            {"gold", Cut(AnswerText(t.gold), o.max_field_chars)},
            {"answer", Cut(AnswerText(t.raw_answer), o.max_field_chars)},
            {"cleaned", Cut(t.answer.cleaned, o.max_field_chars)},
            {"em", t.answer.em},
            {"status", t.status},
            {"stage", std::string(FunnelStageName(t.stage))},
            {"gold_datasets", t.gold_datasets},
            {"trace_file", RunDir::TraceRelative(t.task_id)}};
  j["judge"] =
      t.judge ? Json{{"correct", t.judge->correct}, {"rationale", Cut(t.judge->rationale, o.max_field_chars)}}
              : Json(nullptr);
  Json events = Json::array();
  size_t total = 0;
  if (auto it = run.traces.find(t.task_id); it != run.traces.end()) {
    total = it->second.size();
    for (const TraceEvent& e : it->second) {
      if (events.size() >= o.max_trace_events) break;
      events.push_back({{"turn", e.turn},
                        {"tool", e.tool},
                        {"status", e.status},
                        {"elapsed_ms", e.elapsed_ms},
                        {"model_ms", OrNull(e.model_ms)},
                        {"input_tokens", OrNull(e.input_tokens)},
                        {"output_tokens", OrNull(e.output_tokens)},
                        {"content", Cut(e.content, o.max_text_chars)},
                        {"arguments", CutStrings(e.arguments, o.max_text_chars)},
                        {"summary", Cut(e.summary, o.max_field_chars)},
                        {"result", Cut(e.result, o.max_result_chars)},
                        {"returned", e.returned},
                        {"accessed", e.accessed}});
    }
  }
  j["events"] = std::move(events);
  j["more_events"] = total - j["events"].size();
  return j;
}

Status WriteTraceScripts(const RunScore& score, const RunData& run, const std::string& dir,
                         const ReportOptions& o) {
  // A report written before for more tasks must not leave its traces behind.
  const RunDir run_dir(dir);
  LAKEQA_RETURN_IF_ERROR(RemoveAll(run_dir.ReportTracesDir()));
  LAKEQA_RETURN_IF_ERROR(MakeDirs(run_dir.ReportTracesDir()));
  // One sync for the batch, not one per file (a run has a thousand tasks): temp files, syncfs, renames.
  std::vector<std::pair<std::string, std::string>> written;
  for (size_t i = 0; i < score.tasks.size(); ++i) {
    std::string js =
        "lakeqaTrace(" + std::to_string(i) + "," + DumpJson(TraceJson(score.tasks[i], run, o)) + ");\n";
    std::string path = dir + "/" + RunDir::ReportTraceScript(i);
    LAKEQA_ASSIGN_OR_RETURN(std::string tmp, WriteTempFileBeside(path, js));
    written.emplace_back(std::move(tmp), std::move(path));
  }
  LAKEQA_RETURN_IF_ERROR(SyncFileSystem(dir));
  for (const auto& [tmp, path] : written) LAKEQA_RETURN_IF_ERROR(RenameInto(tmp, path));
  return Status::Ok();
}

}  // namespace lakeqa::eval
