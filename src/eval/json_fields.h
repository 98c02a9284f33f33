// Typed optional members of the JSONL lines the scorer reads (predictions, traces): absent or null → the
// caller's default; present with the wrong type → a ParseError naming where, the field and what was expected.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::eval::internal {

Status FieldError(std::string_view where, std::string_view field, std::string_view expected);
Status GetNumber(const Json& j, const char* key, std::string_view where, double& out);
// A number, truncated to an integer.
Status GetInt(const Json& j, const char* key, std::string_view where, int64_t& out);
Status GetString(const Json& j, const char* key, std::string_view where, std::string& out);
// Dataset ids, without trailing '/' (empty ones dropped).
Status GetIds(const Json& j, const char* key, std::string_view where, std::vector<std::string>& out);

}  // namespace lakeqa::eval::internal
