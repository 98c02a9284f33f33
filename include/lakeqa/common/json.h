// JSON helpers shared by every module: nlohmann::json for building and small documents (results, tool
// calls, metadata); simdjson is used directly where throughput matters (profiling, task loading).
// Headers that only name Json in declarations include common/json_fwd.h instead (the build-time note
// in docs/benchmarks.md).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa {

// Parses text; a failure names `where` (a path or URI) plus line and column of the error.
Result<Json> ParseJson(std::string_view text, std::string_view where);
// (line, column), both 1-based, of byte offset `offset` in text.
std::pair<size_t, size_t> LineColumn(std::string_view text, size_t offset);
// The standard JSON error object for tools, HTTP and --json CLI output:
// {"error": {"code": "not_found", "message": "..."}}
Json ErrorJson(const Status& status);
// Dumps without throwing on invalid UTF-8 (replaces bad bytes), which lake content often has.
std::string DumpJson(const Json& j, int indent = -1);

}  // namespace lakeqa
