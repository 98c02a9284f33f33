#include "lakeqa/server/server.h"

namespace lakeqa::server {

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

}  // namespace lakeqa::server
