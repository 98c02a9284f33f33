#include "lakeqa/common/json.h"

namespace lakeqa {

std::pair<size_t, size_t> LineColumn(std::string_view text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

Result<Json> ParseJson(std::string_view text, std::string_view where) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    size_t off = e.byte > 0 ? e.byte - 1 : 0;
    auto [line, col] = LineColumn(text, off);
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 3, column 5: " prefix;
    // we report position ourselves.
    auto colon = what.find(": ");
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    return ParseError(std::string(where) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                      ": invalid JSON: " + detail);
  }
}

Json ErrorJson(const Status& status) {
  return Json{{"error", {{"code", std::string(CodeName(status.code()))}, {"message", status.message()}}}};
}

std::string DumpJson(const Json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace lakeqa
