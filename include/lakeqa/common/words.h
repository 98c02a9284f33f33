// Words for matching names in text (leakage checks, the lexical router): runs of ASCII letters and digits
// plus any non-ASCII byte (so "Zürich" stays one word), ASCII folded to lower case (or kept as written:
// Words). No stemming, no stop words — unlike the search analyzer, which these callers must not depend on.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lakeqa {

std::vector<std::string> LowerWords(std::string_view s);
// The same words with their case as written ("Reading" stays "Reading").
std::vector<std::string> Words(std::string_view s);

}  // namespace lakeqa
