#include "lakeqa/server/server.h"

#include "server/mcp_internal.h"

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
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limits.max_depth) {
        auto [line, col] = LineColumn(text, i);
        return ResourceExhausted(std::string(where) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                                 ": JSON nested deeper than the limit of " +
                                 std::to_string(limits.max_depth) + " levels");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return ParseJson(text, where);
}

}  // namespace lakeqa::server

namespace lakeqa::server::mcp {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// A JSON-RPC id from its token text: a string or an integer, else null.
Json IdFromToken(std::string_view token) {
  auto j = ParseJson(token, "id");
  if (j.ok() && (j->is_string() || j->is_number_integer() || j->is_number_unsigned())) return *j;
  return nullptr;
}

// Forward over the top-level members from the start of the message; npos where the text runs out.
constexpr size_t kEnd = std::string_view::npos;

size_t SkipSpace(std::string_view s, size_t i) {
  while (i < s.size() && IsSpace(s[i])) ++i;
  return i < s.size() ? i : kEnd;
}

// s[i] is an opening quote: the index after the closing one.
size_t SkipString(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return kEnd;
}

size_t SkipValue(std::string_view s, size_t i) {
  if (s[i] == '"') return SkipString(s, i);
  if (s[i] == '{' || s[i] == '[') {
    size_t depth = 0;
    while (i < s.size()) {
      char c = s[i];
      if (c == '"') {
        i = SkipString(s, i);
        if (i == kEnd) return kEnd;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return kEnd;
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && !IsSpace(s[i])) ++i;
  return i < s.size() ? i : kEnd;
}

Json IdFromHead(std::string_view s) {
  size_t i = SkipSpace(s, 0);
  if (i == kEnd || s[i] != '{') return nullptr;
  ++i;
  while (true) {
    i = SkipSpace(s, i);
    if (i == kEnd || s[i] != '"') return nullptr;  // the end of the object, or not JSON
    size_t key_end = SkipString(s, i);
    if (key_end == kEnd) return nullptr;
    std::string_view key = s.substr(i + 1, key_end - i - 2);
    i = SkipSpace(s, key_end);
    if (i == kEnd || s[i] != ':') return nullptr;
    i = SkipSpace(s, i + 1);
    if (i == kEnd) return nullptr;
    size_t value_end = SkipValue(s, i);
    if (value_end == kEnd) return nullptr;
    if (key == "id") return IdFromToken(s.substr(i, value_end - i));
    i = SkipSpace(s, value_end);
    if (i == kEnd || s[i] != ',') return nullptr;
    ++i;
  }
}

// Backward over the top-level members from the end of the message (where the TypeScript SDK writes the
// id). Indices are one past the character looked at; 0 means the text ran out.
size_t SkipSpaceBack(std::string_view s, size_t j) {
  while (j > 0 && IsSpace(s[j - 1])) --j;
  return j;
}

// s[j - 1] is a closing quote: the index of the opening one, or kEnd. A quote is escaped when an odd
// number of backslashes precede it; a run of them reaching the start of the text cannot be judged.
size_t StringStartBack(std::string_view s, size_t j) {
  for (size_t k = j - 1; k-- > 0;) {
    if (s[k] != '"') continue;
    size_t slashes = 0;
    while (slashes < k && s[k - 1 - slashes] == '\\') ++slashes;
    if (slashes == k && slashes > 0) return kEnd;
    if (slashes % 2 == 0) return k;
  }
  return kEnd;
}

// The index where the value ending at j starts, or kEnd.
size_t ValueStartBack(std::string_view s, size_t j) {
  char last = s[j - 1];
  if (last == '"') return StringStartBack(s, j);
  if (last == '}' || last == ']') {
    size_t depth = 0;
    while (j > 0) {
      char c = s[j - 1];
      if (c == '"') {
        size_t open = StringStartBack(s, j);
        if (open == kEnd) return kEnd;
        j = open;
        continue;
      }
      if (c == '}' || c == ']') ++depth;
      if ((c == '{' || c == '[') && --depth == 0) return j - 1;
      --j;
    }
    return kEnd;
  }
  while (j > 0 && s[j - 1] != ',' && s[j - 1] != ':' && s[j - 1] != '{' && !IsSpace(s[j - 1])) --j;
  return j > 0 ? j : kEnd;
}

Json IdFromTail(std::string_view s) {
  size_t j = SkipSpaceBack(s, s.size());
  if (j == 0 || s[j - 1] != '}') return nullptr;
  --j;
  while (true) {
    j = SkipSpaceBack(s, j);
    if (j == 0 || s[j - 1] == '{') return nullptr;  // the text ran out, or the start of the object
    size_t value_start = ValueStartBack(s, j);
    if (value_start == kEnd) return nullptr;
    std::string_view value = s.substr(value_start, j - value_start);
    j = SkipSpaceBack(s, value_start);
    if (j == 0 || s[j - 1] != ':') return nullptr;
    j = SkipSpaceBack(s, j - 1);
    if (j == 0 || s[j - 1] != '"') return nullptr;
    size_t key_start = StringStartBack(s, j);
    if (key_start == kEnd) return nullptr;
    if (s.substr(key_start + 1, j - key_start - 2) == "id") return IdFromToken(value);
    j = SkipSpaceBack(s, key_start);
    if (j == 0 || s[j - 1] != ',') return nullptr;
    --j;
  }
}

}  // namespace

Json FindJsonRpcId(std::string_view head, std::string_view tail) {
  Json id = IdFromHead(head);
  return id.is_null() ? IdFromTail(tail) : id;
}

}  // namespace lakeqa::server::mcp
