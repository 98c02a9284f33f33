// Text helpers shared by the CMDBench methods over an index and a graph (router_lexical.cc,
// cmdbench/eval.cc): questions as plain query text, schema names as words, and names as lower-case word
// strings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lakeqa::cmdbench::internal {

// A natural-language question as query text: field:value, quotes, wildcards and parentheses in it are
// text, not query syntax, so they become spaces.
std::string PlainQuery(std::string question);

// A schema name as words: "playsFor" → "plays For", "start_time" → "start time".
std::string SplitSchemaName(std::string_view name);

// words[from, from + n) joined by single spaces.
std::string JoinWords(const std::vector<std::string>& words, size_t from, size_t n);

// LowerWords(text) joined by single spaces: "Dennis  Rodman!" → "dennis rodman" (common/words.h).
std::string LowerWordText(std::string_view text);

}  // namespace lakeqa::cmdbench::internal
