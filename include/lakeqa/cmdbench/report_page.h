// The CMDBench page of the HTML report: `lakeqa eval cmdbench --html <file>` writes the report of one task
// (the JSON `eval cmdbench --json` prints) as one offline page — inline CSS, no external resource — with the
// metrics in CMDBench's table layout (Table 3 for source selection, 4/6 for table/doc/paragraph, 5 for the
// graph) and one row per question (gold, prediction, its metrics, errors).
#pragma once

#include <string>

#include "lakeqa/common/json_fwd.h"

namespace lakeqa::cmdbench {

// `report`: {"task", "questions", "questions_file", "method", "metrics", "per_question"} as RunCmdbenchEval
// returns it. A metric the report lacks is shown as "unknown", never 0.
std::string RenderCmdbenchHtml(const Json& report);

}  // namespace lakeqa::cmdbench
