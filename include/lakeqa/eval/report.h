// The reports `lakeqa eval` writes into a run directory: report.json (RunScore::ToJson) and report.html,
// one self-contained file that works offline — inline CSS, inline SVG charts drawn here (EM by hops and
// by gold documents, the failure funnel, D_ret vs D_acc precision/recall/F1, cost vs accuracy), a
// per-task table and, embedded, a readable view of each task's trace that the table links to.
#pragma once

#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/eval/score.h"

namespace lakeqa::eval {

struct ReportOptions {
  size_t max_trace_events = 300;  // per task; the rest are counted, not shown
  size_t max_field_chars = 1500;  // arguments and summaries are cut to this many bytes (UTF-8 safe)
};

std::string RenderHtml(const RunScore& score, const RunData& run, const ReportOptions& options = {});

// Writes <dir>/report.json and <dir>/report.html, each atomically.
Status WriteReports(const RunScore& score, const RunData& run, const std::string& dir,
                    const ReportOptions& options = {});

// HTML text escaping (&, <, >, ", ').
std::string HtmlEscape(std::string_view s);

}  // namespace lakeqa::eval
