// Helpers report_html.cc and report_trace.cc share: cutting long text and showing an answer.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::eval::report_internal {

// s cut to max bytes on a UTF-8 boundary, with the full size noted: "… (12345 bytes)".
inline std::string Cut(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  return std::string(TruncateUtf8(s, max)) + fmt::format(" … ({} bytes)", s.size());
}

// An answer as text: strings as they are, anything else as JSON.
inline std::string AnswerText(const Json& j) { return j.is_string() ? j.get<std::string>() : DumpJson(j); }

}  // namespace lakeqa::eval::report_internal
