#include <algorithm>
#include <array>
#include <string_view>

#include "lakeqa/text/analyzer.h"

namespace lakeqa::text {
namespace {
// Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), sorted for binary search.
constexpr std::array<std::string_view, 33> kStopWords = {
    "a",   "an",    "and",  "are",   "as",    "at",   "be",   "but", "by",  "for",  "if",
    "in",  "into",  "is",   "it",    "no",    "not",  "of",   "on",  "or",  "such", "that",
    "the", "their", "then", "there", "these", "they", "this", "to",  "was", "will", "with"};

// Sorted for binary search. Interrogatives, auxiliaries, pronouns and quantifiers: what a question asks
// for, not what it is about.
constexpr std::array<std::string_view, 46> kQuestionWords = {
    "am",    "can",    "could", "did",  "do",     "does", "had",   "has", "have",  "he",   "her",   "hers",
    "him",   "his",    "how",   "i",    "its",    "many", "may",   "me",  "might", "much", "must",  "my",
    "our",   "please", "shall", "she",  "should", "them", "us",    "we",  "were",  "what", "whats", "when",
    "where", "which",  "who",   "whom", "whose",  "why",  "would", "you", "your",  "yours"};
// Verbs that open a request.
constexpr std::array<std::string_view, 14> kRequestWords = {
    "calculate", "compute", "count", "determine", "find",    "get",  "give",
    "identify",  "know",    "list",  "name",      "provide", "show", "tell"};

template <size_t N>
constexpr bool Sorted(const std::array<std::string_view, N>& a) {
  for (size_t i = 1; i < N; ++i) {
    if (!(a[i - 1] < a[i])) return false;
  }
  return true;
}
}  // namespace

bool IsStopWord(std::string_view folded) {
  return std::binary_search(kStopWords.begin(), kStopWords.end(), folded);
}

bool IsQuestionWord(std::string_view folded) {
  static_assert(Sorted(kQuestionWords));
  return std::binary_search(kQuestionWords.begin(), kQuestionWords.end(), folded);
}

bool IsRequestWord(std::string_view folded) {
  static_assert(Sorted(kRequestWords));
  return std::binary_search(kRequestWords.begin(), kRequestWords.end(), folded);
}

}  // namespace lakeqa::text
