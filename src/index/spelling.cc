// CorrectSpelling (searcher.h): an unknown query word gets its most frequent one-edit variant that the
// index holds beside it, and a long word every one-edit variant a metadata field holds. The variants are
// edits of the word as written (folded, not stemmed), each then analysed like any query word, because the
// index holds stems: "Decmber" → "december" → "decemb".
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

// Document frequencies in the text fields. A word of n letters has about 52n one-edit variants, looked up
// in every metadata field of every segment, and one binary search of the whole dictionary per lookup was
// most of a query's time. So every search is confined to its field's key range (empty for a field no
// document fills), and a word's candidates (ascending, each once) are located together per (segment,
// field) on first use: a divide-and-conquer search in which each probe narrows the range of its
// neighbours, about half the probes of one search each.
class Frequencies {
 public:
  explicit Frequencies(const IndexReader& r) : r_(r), nf_(r.schema().fields().size()) {
    const auto& fields = r.schema().fields();
    for (size_t s = 0; s < r.num_segments(); ++s) {
      for (size_t f = 0; f < nf_; ++f) {
        ranges_.push_back(fields[f].text
                              ? r.segment(s).PrefixRange(std::string(1, TextFieldByte(static_cast<int>(f))))
                              : std::pair<uint32_t, uint32_t>{0, 0});
      }
    }
  }
  // Live documents holding `term` in a text field the clause may match, summed over fields (an order for
  // candidates, not a statistic).
  uint64_t Any(std::string_view term, int restrict) {
    const auto& fields = r_.schema().fields();
    uint64_t n = 0;
    for (size_t f = 0; f < nf_; ++f) {
      if (!fields[f].text || (restrict >= 0 && static_cast<size_t>(restrict) != f)) continue;
      std::string key(1, TextFieldByte(static_cast<int>(f)));
      key += term;
      for (size_t s = 0; s < r_.num_segments(); ++s) {
        auto [lo, hi] = ranges_[s * nf_ + f];
        n += Live(s, lo == hi ? -1 : r_.segment(s).Find(key, lo, hi));
      }
    }
    return n;
  }
  // The candidates of the next word: ascending, each once.
  void SetCandidates(std::vector<std::string> terms) {
    candidates_ = std::move(terms);
    found_.assign(ranges_.size(), {});
  }
  const std::vector<std::string>& candidates() const { return candidates_; }
  // Live documents holding candidate c in field f.
  uint64_t Candidate(size_t c, size_t f) {
    uint64_t n = 0;
    for (size_t s = 0; s < r_.num_segments(); ++s) {
      auto [lo, hi] = ranges_[s * nf_ + f];
      if (lo == hi) continue;
      std::vector<int64_t>& at = found_[s * nf_ + f];
      if (at.empty()) {
        at.resize(candidates_.size());
        Locate(r_.segment(s), TextFieldByte(static_cast<int>(f)), 0, candidates_.size(), lo, hi, at);
      }
      n += Live(s, at[c]);
    }
    return n;
  }
  // Candidates(c, f) summed over the fields a clause restricted to `restrict` may match.
  uint64_t CandidateAny(size_t c, int restrict) {
    const auto& fields = r_.schema().fields();
    uint64_t n = 0;
    for (size_t f = 0; f < nf_; ++f) {
      if (fields[f].text && (restrict < 0 || static_cast<size_t>(restrict) == f)) n += Candidate(c, f);
    }
    return n;
  }

 private:
  // Dictionary indexes (or -1) of candidates [a, b), whose keys all lie in [lo, hi).
  void Locate(const Segment& seg, char byte, size_t a, size_t b, uint32_t lo, uint32_t hi,
              std::vector<int64_t>& at) {
    if (a >= b) return;
    size_t mid = a + (b - a) / 2;
    key_.assign(1, byte);
    key_ += candidates_[mid];
    uint32_t bound = lo;
    at[mid] = lo < hi ? seg.Find(key_, lo, hi, &bound) : -1;
    Locate(seg, byte, a, mid, lo, bound, at);
    Locate(seg, byte, mid + 1, b, at[mid] >= 0 ? bound + 1 : bound, hi, at);
  }
  // The live documents of dictionary entry i of segment s (0 for -1).
  uint64_t Live(size_t s, int64_t i) {
    if (i < 0) return 0;
    const Segment& seg = r_.segment(s);
    TermInfo info = seg.Info(static_cast<uint32_t>(i));
    const DeleteBitmap& del = r_.deletes(s);
    if (del.count() == 0) return info.df;
    uint64_t n = 0;
    PostingCursor c;
    for (c.Init(seg, info); c.doc() != PostingCursor::kEnd; c.Next()) n += !del.Get(c.doc());
    return n;
  }

  const IndexReader& r_;
  const size_t nf_;
  std::vector<std::pair<uint32_t, uint32_t>> ranges_;  // [segment * fields + field]: the field's keys
  std::vector<std::string> candidates_;
  std::vector<std::vector<int64_t>> found_;  // [segment * fields + field][candidate], empty until used
  std::string key_;
};

// (field restriction, term) pairs, looked up without copying the term: the fuzzy loop asks about every
// candidate in every metadata field.
struct PairLess {
  using is_transparent = void;
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    if (a.first != b.first) return a.first < b.first;
    return std::string_view(a.second) < std::string_view(b.second);
  }
};
using Present = std::set<std::pair<int, std::string>, PairLess>;
using Probe = std::pair<int, std::string_view>;

bool AllLetters(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
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

// Every string one edit away from w (lower-case letters only), ascending, each once.
std::vector<std::string> Edits(const std::string& w) {
  std::vector<std::string> out;
  out.reserve(54 * w.size() + 26);
  for (size_t i = 0; i < w.size(); ++i) out.push_back(w.substr(0, i) + w.substr(i + 1));
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    std::string t = w;
    std::swap(t[i], t[i + 1]);
    out.push_back(std::move(t));
  }
  for (size_t i = 0; i <= w.size(); ++i) {
    for (char c = 'a'; c <= 'z'; ++c) {
      std::string t = w;
      t.insert(t.begin() + static_cast<std::ptrdiff_t>(i), c);
      out.push_back(std::move(t));
      if (i < w.size() && w[i] != c) {
        t = w;
        t[i] = c;
        out.push_back(std::move(t));
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(std::remove(out.begin(), out.end(), w), out.end());
  return out;
}

}  // namespace

std::vector<Correction> CorrectSpelling(const IndexReader& reader, Query& query, text::Analyzer& analyzer,
                                        bool fuzzy_wanted) {
  std::vector<Correction> out;
  Present present;
  for (const TermClause& t : query.terms) present.emplace(t.field, t.term);
  const std::vector<size_t> metadata = MetadataFields(reader);
  Frequencies freq(reader);
  std::vector<TermClause> added;
  for (const TermClause& t : query.terms) {
    if (t.prefix || t.inferred || t.kind != text::TokenKind::kWord) continue;
    std::string folded;
    text::FoldAppend(t.word, analyzer.options().strip_accents, folded);
    if (folded.size() < kMinLetters || !AllLetters(folded)) continue;
    bool known = freq.Any(t.term, t.field) > 0;
    // An unknown word gets its correction instead (which finds a metadata typo too).
    bool fuzzy = fuzzy_wanted && known && folded.size() >= kMinFuzzyLetters;
    if (known && !fuzzy) continue;
    // Each variant's term (once per term: several edits stem alike).
    std::set<std::string> terms;
    for (const std::string& v : Edits(folded)) {
      const auto& toks = analyzer.Analyze(v);
      if (toks.size() != 1) continue;  // a stop word, or an edit that split the word
      std::string term(analyzer.Term(toks[0]));
      if (term != t.term) terms.insert(std::move(term));
    }
    freq.SetCandidates({terms.begin(), terms.end()});
    std::string best_term;
    uint64_t best = 0;
    for (size_t i = 0; i < freq.candidates().size(); ++i) {
      const std::string& term = freq.candidates()[i];
      if (!known && !present.count(Probe{t.field, term})) {
        uint64_t n = freq.CandidateAny(i, t.field);
        if (n > best) {  // terms are visited in order: a tie keeps the smaller
          best = n;
          best_term = term;
        }
      }
      if (!fuzzy) continue;
      for (size_t f : metadata) {
        if (t.field >= 0 && static_cast<size_t>(t.field) != f) continue;
        if (present.count(Probe{static_cast<int>(f), term}) || present.count(Probe{-1, term}) ||
            freq.Candidate(i, f) == 0)
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
