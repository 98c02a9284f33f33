// CorrectSpelling (searcher.h): an unknown query word gets its most frequent one-edit variant that the
// index holds beside it, and a long word every one-edit variant a metadata field holds. The variants are edits of the word as written (folded, not stemmed), each then
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
constexpr size_t kMinFuzzyLetters = 5;

// Live documents holding the text term in field f.
uint64_t FieldFrequency(const IndexReader& r, std::string_view term, size_t f);

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
    n += FieldFrequency(r, term, f);
  }
  return n;
}

uint64_t FieldFrequency(const IndexReader& r, std::string_view term, size_t f) {
  std::string key(1, TextFieldByte(static_cast<int>(f)));
  key += term;
  uint64_t n = 0;
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
  return n;
}

// Metadata fields: what a dataset is called and what it holds, not its cells or prose. Fuzzy variants
// match only there, because a one-edit variant of a word is often another real word somewhere in
// sampled cells.
std::vector<size_t> MetadataFields(const IndexReader& r) {
  std::vector<size_t> out;
  const auto& fields = r.schema().fields();
  for (size_t f = 0; f < fields.size(); ++f) {
    if (!fields[f].text || fields[f].name == "content" || fields[f].name == "coverage") continue;
    auto it = r.ranking().fields.find(fields[f].name);
    if (it != r.ranking().fields.end() && it->second.data) continue;
    out.push_back(f);
  }
  return out;
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
  const std::vector<size_t> metadata = MetadataFields(reader);
  std::vector<TermClause> added;
  for (const TermClause& t : query.terms) {
    if (t.prefix || t.inferred || t.kind != text::TokenKind::kWord) continue;
    std::string folded;
    text::FoldAppend(t.word, analyzer.options().strip_accents, folded);
    if (folded.size() < kMinLetters || !AllLetters(folded)) continue;
    bool known = Frequency(reader, t.term, t.field) > 0;
    // An unknown word gets its correction instead (which finds a metadata typo too).
    bool fuzzy = known && folded.size() >= kMinFuzzyLetters;
    if (known && !fuzzy) continue;
    // Each variant's term (once per term: several edits stem alike).
    std::set<std::string> terms;
    for (const std::string& v : Edits(folded)) {
      const auto& toks = analyzer.Analyze(v);
      if (toks.size() != 1) continue;  // a stop word, or an edit that split the word
      std::string term(analyzer.Term(toks[0]));
      if (term != t.term) terms.insert(std::move(term));
    }
    std::string best_term;
    uint64_t best = 0;
    for (const std::string& term : terms) {
      if (!known && !present.count({t.field, term})) {
        uint64_t n = Frequency(reader, term, t.field);
        if (n > best) {  // terms are visited in order: a tie keeps the smaller
          best = n;
          best_term = term;
        }
      }
      if (!fuzzy) continue;
      for (size_t f : metadata) {
        if (t.field >= 0 && static_cast<size_t>(t.field) != f) continue;
        if (present.count({static_cast<int>(f), term}) || present.count({-1, term}) ||
            FieldFrequency(reader, term, f) == 0)
          continue;
        TermClause c = t;
        c.field = static_cast<int>(f);
        c.term = term;
        c.inferred = true;
        c.variant = TermClause::Variant::kFuzzy;
        present.emplace(c.field, term);
        added.push_back(std::move(c));
      }
    }
    if (best == 0) continue;
    out.push_back({t.word, best_term});
    present.emplace(t.field, best_term);
    TermClause c = t;
    c.term = best_term;
    // Not inferred: it forms proximity pairs as the word it stands for would (the word itself matches
    // nothing, so it adds no score).
    c.variant = TermClause::Variant::kCorrection;
    added.push_back(std::move(c));
  }
  for (TermClause& c : added) query.terms.push_back(std::move(c));
  return out;
}

}  // namespace lakeqa::index
