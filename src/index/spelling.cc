// CorrectSpelling (searcher.h): unknown query words are replaced by their most frequent one-edit variant
// that the index holds. The variants are edits of the word as written (folded, not stemmed), each then
// analysed like any query word, because the index holds stems: "Decmber" → "december" → "decemb".
#include <algorithm>
#include <set>

#include "index/postings.h"
#include "index/segment.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

constexpr size_t kMinLetters = 4;

bool AllLetters(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// Live documents holding `term` in a text field the clause may match, summed over fields (an order for
// candidates, not a statistic).
uint64_t Frequency(const IndexReader& r, std::string_view term, int restrict) {
  const auto& fields = r.schema().fields();
  uint64_t n = 0;
  for (size_t f = 0; f < fields.size(); ++f) {
    if (!fields[f].text || (restrict >= 0 && static_cast<size_t>(restrict) != f)) continue;
    std::string key(1, TextFieldByte(static_cast<int>(f)));
    key += term;
    for (size_t s = 0; s < r.num_segments(); ++s) {
      const Segment& seg = r.segment(s);
      int64_t i = seg.Find(key);
      if (i < 0) continue;
      TermInfo info = seg.Info(static_cast<uint32_t>(i));
      const DeleteBitmap& del = r.deletes(s);
      if (del.count() == 0) {
        n += info.df;
        continue;
      }
      PostingCursor c;
      for (c.Init(seg, info); c.doc() != PostingCursor::kEnd; c.Next()) n += !del.Get(c.doc());
    }
  }
  return n;
}

// Every string one edit away from w (lower-case letters only).
std::set<std::string> Edits(const std::string& w) {
  std::set<std::string> out;
  for (size_t i = 0; i < w.size(); ++i) out.insert(w.substr(0, i) + w.substr(i + 1));
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    std::string t = w;
    std::swap(t[i], t[i + 1]);
    out.insert(t);
  }
  for (size_t i = 0; i <= w.size(); ++i) {
    for (char c = 'a'; c <= 'z'; ++c) {
      out.insert(w.substr(0, i) + c + w.substr(i));
      if (i < w.size() && w[i] != c) out.insert(w.substr(0, i) + c + w.substr(i + 1));
    }
  }
  out.erase(w);
  return out;
}

}  // namespace

std::vector<Correction> CorrectSpelling(const IndexReader& reader, Query& query, text::Analyzer& analyzer) {
  std::vector<Correction> out;
  std::set<std::pair<int, std::string>> present;
  for (const TermClause& t : query.terms) present.emplace(t.field, t.term);
  for (TermClause& t : query.terms) {
    if (t.prefix || t.inferred || t.kind != text::TokenKind::kWord) continue;
    std::string folded;
    text::FoldAppend(t.word, analyzer.options().strip_accents, folded);
    if (folded.size() < kMinLetters || !AllLetters(folded)) continue;
    if (Frequency(reader, t.term, t.field) > 0) continue;
    std::string best_term;
    uint64_t best = 0;
    for (const std::string& v : Edits(folded)) {
      const auto& toks = analyzer.Analyze(v);
      if (toks.size() != 1) continue;  // a stop word, or an edit that split the word
      std::string term(analyzer.Term(toks[0]));
      if (present.count({t.field, term})) continue;  // already searched for
      uint64_t n = Frequency(reader, term, t.field);
      if (n > best || (n == best && n > 0 && term < best_term)) {
        best = n;
        best_term = term;
      }
    }
    if (best == 0) continue;
    out.push_back({t.word, best_term});
    present.emplace(t.field, best_term);
    t.term = best_term;
  }
  return out;
}

}  // namespace lakeqa::index
