#include <algorithm>
#include <map>

#include "index/search_internal.h"

namespace lakeqa::index {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

Snippet MakeSnippet(std::string_view value, const std::unordered_set<std::string>& terms, size_t max_bytes,
                    text::Analyzer& analyzer, size_t* matched) {
  Snippet out;
  *matched = 0;
  struct M {
    uint32_t start, end;
    std::string term;
  };
  std::vector<M> hits;
  for (const text::Token& t : analyzer.Analyze(value)) {
    std::string term(analyzer.Term(t));
    if (terms.count(term)) hits.push_back({t.start, t.end, std::move(term)});
  }
  if (hits.empty()) return out;
  // Two pointers over the matches: the window (within max_bytes) with the most distinct terms.
  std::map<std::string_view, int> counts;
  size_t best = 0, best_i = 0, best_j = 0, i = 0;
  for (size_t j = 0; j < hits.size(); ++j) {
    ++counts[hits[j].term];
    while (hits[j].end - hits[i].start > max_bytes && i < j) {
      if (--counts[hits[i].term] == 0) counts.erase(hits[i].term);
      ++i;
    }
    if (counts.size() > best) {
      best = counts.size();
      best_i = i;
      best_j = j;
    }
  }
  *matched = best;
  size_t span = hits[best_j].end - hits[best_i].start;
  size_t start = hits[best_i].start;
  if (span < max_bytes) start -= std::min<size_t>(start, (max_bytes - span) / 2);
  size_t end = std::min(value.size(), start + max_bytes);
  if (end - start < max_bytes) start = end > max_bytes ? end - max_bytes : 0;
  // Start and end on character boundaries, and at a word start when one is near.
  while (start > 0 && IsContinuation(value[start])) --start;
  while (end < value.size() && IsContinuation(value[end])) --end;
  if (start > 0) {
    size_t sp = value.find(' ', start);
    if (sp != std::string_view::npos && sp < hits[best_i].start) start = sp + 1;
  }
  out.text = std::string(value.substr(start, end - start));
  for (const M& h : hits) {
    if (h.start < start || h.end > end) continue;
    uint32_t s = static_cast<uint32_t>(h.start - start), e = static_cast<uint32_t>(h.end - start);
    if (!out.highlights.empty() && s <= out.highlights.back().end) {  // compound and its parts overlap
      out.highlights.back().end = std::max(out.highlights.back().end, e);
    } else {
      out.highlights.push_back({s, e});
    }
  }
  return out;
}

}  // namespace lakeqa::index
