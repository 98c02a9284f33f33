#include <algorithm>
#include <array>
#include <string_view>

#include "lakeqa/text/analyzer.h"

namespace lakeqa::text {
namespace {
// Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), sorted for binary search.
constexpr std::array<std::string_view, 33> kStopWords = {
    "a",    "an",    "and",   "are",  "as",   "at",   "be",    "but",  "by",   "for",  "if",
    "in",   "into",  "is",    "it",   "no",   "not",  "of",    "on",   "or",   "such", "that",
    "the",  "their", "then",  "there", "these", "they", "this", "to",   "was",  "will", "with"};
}  // namespace

bool IsStopWord(std::string_view folded) {
  return std::binary_search(kStopWords.begin(), kStopWords.end(), folded);
}

}  // namespace lakeqa::text
