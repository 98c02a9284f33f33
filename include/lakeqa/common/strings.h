// String helpers that several modules need; kept tiny on purpose.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lakeqa {

std::vector<std::string_view> Split(std::string_view s, char sep);
std::string_view Trim(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string ToLowerAscii(std::string_view s);
// Replaces invalid UTF-8 sequences with U+FFFD so text can go into JSON and SQLite safely.
std::string SanitizeUtf8(std::string_view s);
bool IsValidUtf8(std::string_view s);
// Appends the UTF-8 encoding of a code point.
void AppendUtf8(uint32_t code_point, std::string& out);
// Decodes XML/HTML character references: the five named ones and &#NN; / &#xHH;. Others stay as written.
std::string DecodeXmlEntities(std::string_view s);
// Cuts s to at most max_bytes without splitting a UTF-8 sequence.
std::string_view TruncateUtf8(std::string_view s, size_t max_bytes);

}  // namespace lakeqa
