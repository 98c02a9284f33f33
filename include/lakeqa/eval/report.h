// The reports `lakeqa eval` writes into a run directory: report.json (RunScore::ToJson) and report.html,
// a page that works offline with no external resource — inline CSS, inline SVG charts drawn here (EM by
// hops and by gold documents, the failure funnel, D_ret vs D_acc precision/recall/F1, cost vs accuracy),
// metric tiles, a per-task table with filters (funnel stage, hops, status, answer type, namespaces) — and,
// beside it in report-traces/, one script per task with that task's trace, which the page loads and renders
// only when the trace is opened (from the table's links or a #trace-<n> address).
#pragma once

#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::eval {

struct ReportOptions {
  size_t max_trace_events = 300;   // per task; the rest are counted, not shown
  size_t max_field_chars = 1500;   // answers and summaries are cut to this many bytes (UTF-8 safe)
  size_t max_result_chars = 2000;  // each tool result in the trace view
  size_t max_text_chars = 4000;    // the model's text and each string argument (code) in the trace view
};

std::string RenderHtml(const RunScore& score, const RunData& run, const ReportOptions& options = {});

// Writes <dir>/report.json, <dir>/report-traces/<n>.js (task n's trace, which report.html loads when it
// is opened) and <dir>/report.html, each atomically.
Status WriteReports(const RunScore& score, const RunData& run, const std::string& dir,
                    const ReportOptions& options = {});

// The trace view's data for one task: its answers, status and funnel stage, and each event (capped: tool
// result, model text, arguments) with its tool and model time and tokens (null when not recorded).
Json TraceJson(const TaskScore& task, const RunData& run, const ReportOptions& options = {});
// Writes every task's trace script into <dir>/report-traces/ (replacing what was there).
Status WriteTraceScripts(const RunScore& score, const RunData& run, const std::string& dir,
                         const ReportOptions& options = {});

// HTML text escaping (&, <, >, ", ').
std::string HtmlEscape(std::string_view s);

}  // namespace lakeqa::eval
