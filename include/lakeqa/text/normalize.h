// Unicode normalisation for search: NFKC, full case folding and (optionally) accent stripping, so that
// "Ünïcode", "UNICODE" and "ｕｎｉｃｏｄｅ" index and query as the same term.
#pragma once

#include <string>
#include <string_view>

namespace lakeqa::text {

// Appends the folded form of `in` to `out`. ASCII takes a fast path with no allocation; other text goes
// through utf8proc (NFKC + casefold [+ strip marks]). Invalid UTF-8 bytes are dropped.
void FoldAppend(std::string_view in, bool strip_accents, std::string& out);

// A keyword value (namespace, category, format, publisher) folded whole: trimmed, runs of whitespace
// collapsed to one space. "  Public   Safety " -> "public safety".
std::string FoldKeyword(std::string_view in);

}  // namespace lakeqa::text
