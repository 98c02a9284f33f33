// Pieces of the searcher shared between its files.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "lakeqa/index/searcher.h"

namespace lakeqa::index {

using Bits = std::vector<uint64_t>;
inline bool TestBit(const Bits& b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
inline void SetBit(Bits& b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }

// The best window of `value` for the query terms, or an empty snippet if none matches; `matched` is the
// number of distinct query terms in the window.
Snippet MakeSnippet(std::string_view value, const std::unordered_set<std::string>& terms, size_t max_bytes,
                    text::Analyzer& analyzer, size_t* matched);

}  // namespace lakeqa::index
