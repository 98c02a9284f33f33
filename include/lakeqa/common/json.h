// JSON helpers shared by every module: nlohmann::json for building and small documents (results, tool
// calls, metadata); simdjson is used directly where throughput matters (profiling, task loading).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "lakeqa/common/status.h"

namespace lakeqa {

using Json = nlohmann::ordered_json;

// Parses text; a failure names `where` (a path or URI) plus line and column of the error.
Result<Json> ParseJson(std::string_view text, std::string_view where);

// Bounds for JSON that arrives from outside (HTTP bodies, MCP messages, tool arguments). Parsed values are
// copied, compared and dumped recursively, so a deep document must be refused before it is parsed.
struct JsonLimits {
  size_t max_depth = 64;              // nesting of arrays and objects
  uint64_t max_bytes = 4ULL << 20;    // size of the text
};
// Checks text against limits with one non-recursive scan (resource_exhausted naming `where`, the limit
// and the byte offset where it was passed), then parses it like ParseJson.
Result<Json> ParseJsonBounded(std::string_view text, std::string_view where, const JsonLimits& limits);
// (line, column), both 1-based, of byte offset `offset` in text.
std::pair<size_t, size_t> LineColumn(std::string_view text, size_t offset);
// The standard JSON error object for tools, HTTP and --json CLI output:
// {"error": {"code": "not_found", "message": "..."}}
Json ErrorJson(const Status& status);
// Dumps without throwing on invalid UTF-8 (replaces bad bytes), which lake content often has.
std::string DumpJson(const Json& j, int indent = -1);

}  // namespace lakeqa
