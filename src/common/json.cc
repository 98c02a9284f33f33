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

Result<Json> ParseJsonBounded(std::string_view text, std::string_view where, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    return ResourceExhausted(std::string(where) + ": " + std::to_string(text.size()) +
                             " bytes is over the limit of " + std::to_string(limits.max_bytes) + " bytes");
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limits.max_depth) {
        auto [line, col] = LineColumn(text, i);
        return ResourceExhausted(std::string(where) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                                 ": JSON nested deeper than the limit of " + std::to_string(limits.max_depth) +
                                 " levels");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return ParseJson(text, where);
}

Json ErrorJson(const Status& status) {
  return Json{{"error", {{"code", std::string(CodeName(status.code()))}, {"message", status.message()}}}};
}

std::string DumpJson(const Json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace lakeqa
