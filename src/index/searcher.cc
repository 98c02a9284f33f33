#include "lakeqa/index/searcher.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_set>

#include "index/postings.h"
#include "index/search_internal.h"
#include "index/segment.h"

namespace lakeqa::index {
namespace {

// Bounds are compared with this much slack, so that rounding in a partial sum never prunes a document
// whose exact score ties the current threshold.
constexpr double kSlack = 1e-9;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// One (field, term) pair of the expanded query, in canonical (key) order.
struct Clause {
  int field;
  std::string key;  // field byte + term
  double weight;    // field weight * idf
  double k1p1;      // k1 + 1
  double norm_k[256];  // k1 * (1 - b + b * len / avglen) per length byte

  double Score(uint32_t tf, uint8_t norm) const {
    double t = tf;
    return weight * t * k1p1 / (t + norm_k[norm]);
  }
};

struct FieldStats {
  uint64_t docs = 0;     // live documents with a non-empty field
  uint64_t sum_len = 0;  // of quantised lengths
};

struct Entry {
  double score;
  std::string id;
  uint32_t seg, doc;
};
// a before b in the ranking
bool Better(const Entry& a, const Entry& b) { return a.score > b.score || (a.score == b.score && a.id < b.id); }

class TopK {
 public:
  explicit TopK(size_t k) : k_(k) {}
  double threshold() const { return heap_.size() < k_ ? kNegInf : heap_.front().score; }
  // Offers a scored doc; the id is read only when it can matter.
  Status Offer(double score, const Segment& seg, uint32_t s, uint32_t doc) {
    if (k_ == 0) return Status::Ok();
    if (heap_.size() == k_ && score < heap_.front().score) return Status::Ok();
    LAKEQA_ASSIGN_OR_RETURN(std::string_view id, seg.StoredId(doc));
    Entry e{score, std::string(id), s, doc};
    if (heap_.size() == k_) {
      if (!Better(e, heap_.front())) return Status::Ok();
      std::pop_heap(heap_.begin(), heap_.end(), Better);
      heap_.back() = std::move(e);
    } else {
      heap_.push_back(std::move(e));
    }
    std::push_heap(heap_.begin(), heap_.end(), Better);
    return Status::Ok();
  }
  std::vector<Entry> Sorted() {
    std::sort(heap_.begin(), heap_.end(), Better);
    return std::move(heap_);
  }

 private:
  size_t k_;
  std::vector<Entry> heap_;  // front: the worst kept entry
};

class Execution {
 public:
  Execution(const IndexReader& r, const Query& q, const SearchOptions& o, text::Analyzer& a)
      : r_(r), q_(q), o_(o), analyzer_(a), top_(o.k) {}

  Result<SearchResult> Run();

 private:
  Status Prepare();
  void ExpandTerms();
  uint32_t LiveDf(size_t s, std::string_view key);
  // Allowed docs of segment s (filters, phrases, deletes); false if there is nothing to restrict.
  bool Constraints(size_t s, Bits& allowed);
  void PhraseDocs(size_t s, int field, const PhraseClause& ph, Bits& out);
  Status ScoreSegment(size_t s, const Bits* allowed);
  void MatchSet(size_t s, const Bits* allowed, Bits& out);
  Status Facets(std::vector<Bits>& matches);
  Status MakeHits(std::vector<Entry> entries);
  bool Corrupt(const PostingCursor& c, size_t s);

  const IndexReader& r_;
  const Query& q_;
  const SearchOptions& o_;
  text::Analyzer& analyzer_;
  TopK top_;
  std::vector<FieldStats> stats_;
  std::vector<Clause> clauses_;
  SearchResult result_;
  Status failure_;
};

bool Execution::Corrupt(const PostingCursor& c, size_t s) {
  if (c.corrupt() && failure_.ok())
    failure_ = lakeqa::Corrupt(r_.segment(s).name() + ".pst: postings do not decode");
  return c.corrupt();
}

uint32_t Execution::LiveDf(size_t s, std::string_view key) {
  const Segment& seg = r_.segment(s);
  int64_t t = seg.Find(key);
  if (t < 0) return 0;
  TermInfo info = seg.Info(static_cast<uint32_t>(t));
  const DeleteBitmap& del = r_.deletes(s);
  if (del.count() == 0) return info.df;
  // Deleted documents must not count; segments with deletes pay a postings scan until merged.
  uint32_t n = 0;
  PostingCursor c;
  for (c.Init(seg, info); c.doc() != PostingCursor::kEnd; c.Next()) n += !del.Get(c.doc());
  Corrupt(c, s);
  return n;
}

Status Execution::Prepare() {
  const auto& fields = r_.schema().fields();
  if (!(o_.k1 >= 0) || !(o_.b >= 0 && o_.b <= 1)) return InvalidArgument("BM25 needs k1 >= 0 and 0 <= b <= 1");
  if (o_.k > 100000) return InvalidArgument("k must be at most 100000");
  for (const std::string& f : o_.facet_fields) {
    int i = r_.schema().Find(f);
    if (i < 0 || !fields[i].keyword) return InvalidArgument("facet field '" + f + "' is not a keyword field");
  }
  for (const FilterClause& f : q_.filters) {
    if (f.field < 0 || static_cast<size_t>(f.field) >= fields.size() || !fields[f.field].keyword)
      return InvalidArgument("filter on a field that is not a keyword field");
  }
  for (const TermClause& t : q_.terms) {
    if (t.field >= static_cast<int>(fields.size()) || (t.field >= 0 && !fields[t.field].text))
      return InvalidArgument("term restricted to a field that is not a text field");
  }
  stats_.assign(fields.size(), {});
  for (size_t s = 0; s < r_.num_segments(); ++s) {
    const Segment& seg = r_.segment(s);
    const DeleteBitmap& del = r_.deletes(s);
    for (size_t f = 0; f < fields.size(); ++f) {
      if (!fields[f].text) continue;
      uint64_t docs = seg.docs_with_field(f), sum = seg.sum_length(f);
      if (del.count() > 0) {
        const uint8_t* norms = seg.norms(f);
        for (uint32_t d = 0; d < seg.num_docs(); ++d) {
          if (del.Get(d) && norms[d] != 0) {
            --docs;
            sum -= DecodeLength(norms[d]);
          }
        }
      }
      stats_[f].docs += docs;
      stats_[f].sum_len += sum;
    }
  }
  ExpandTerms();
  return failure_;
}

void Execution::ExpandTerms() {
  const auto& fields = r_.schema().fields();
  std::set<std::pair<int, std::string>> pairs;  // (field, term): sorted like the keys
  for (const TermClause& t : q_.terms) {
    for (size_t f = 0; f < fields.size(); ++f) {
      if (!fields[f].text || (t.field >= 0 && static_cast<size_t>(t.field) != f)) continue;
      if (!t.prefix) {
        pairs.emplace(static_cast<int>(f), t.term);
        continue;
      }
      std::string prefix(1, TextFieldByte(static_cast<int>(f)));
      prefix += t.term;
      // The lexicographically first expansions that some live document holds: each segment offers
      // its first max_prefix_expansions live terms, so the union's first ones are the global first.
      std::set<std::string> found;
      for (size_t s = 0; s < r_.num_segments(); ++s) {
        auto [lo, hi] = r_.segment(s).PrefixRange(prefix);
        size_t live = 0;
        for (uint32_t i = lo; i < hi && live < o_.max_prefix_expansions; ++i) {
          if (r_.deletes(s).count() > 0 && LiveDf(s, r_.segment(s).Key(i)) == 0) continue;
          found.emplace(r_.segment(s).Key(i).substr(1));
          ++live;
        }
      }
      size_t n = 0;
      for (const std::string& term : found) {
        if (n++ == o_.max_prefix_expansions) break;
        pairs.emplace(static_cast<int>(f), term);
      }
    }
  }
  for (const auto& [f, term] : pairs) {
    Clause c;
    c.field = f;
    c.key = std::string(1, TextFieldByte(f)) + term;
    uint64_t df = 0;
    for (size_t s = 0; s < r_.num_segments(); ++s) df += LiveDf(s, c.key);
    if (df == 0) continue;
    double n = static_cast<double>(stats_[f].docs);
    double idf = std::log(1.0 + (n - static_cast<double>(df) + 0.5) / (static_cast<double>(df) + 0.5));
    c.weight = fields[f].weight * idf;
    c.k1p1 = o_.k1 + 1.0;
    double avg = static_cast<double>(stats_[f].sum_len) / n;
    for (int b = 0; b < 256; ++b)
      c.norm_k[b] = o_.k1 * (1.0 - o_.b + o_.b * static_cast<double>(DecodeLength(static_cast<uint8_t>(b))) / avg);
    clauses_.push_back(std::move(c));
  }
}

void Execution::PhraseDocs(size_t s, int field, const PhraseClause& ph, Bits& out) {
  const Segment& seg = r_.segment(s);
  std::vector<PostingCursor> cs(ph.terms.size());
  for (size_t i = 0; i < ph.terms.size(); ++i) {
    int64_t t = seg.Find(std::string(1, TextFieldByte(field)) + ph.terms[i].first);
    if (t < 0) return;
    cs[i].Init(seg, seg.Info(static_cast<uint32_t>(t)));
  }
  uint32_t d = 0;
  for (;;) {
    bool all = true;
    for (PostingCursor& c : cs) {
      c.Advance(d);
      if (c.doc() == PostingCursor::kEnd) {
        for (PostingCursor& x : cs) Corrupt(x, s);
        return;
      }
      if (c.doc() != d) {
        d = c.doc();
        all = false;
        break;
      }
    }
    if (!all) continue;
    // Every term is in d: is there a start p with term i at p + offset i for all i?
    const std::vector<uint32_t> first = cs[0].Positions();
    for (uint32_t p0 : first) {
      if (p0 < ph.terms[0].second) continue;
      uint32_t p = p0 - ph.terms[0].second;
      bool ok = true;
      for (size_t i = 1; i < cs.size() && ok; ++i) {
        const auto& pos = cs[i].Positions();
        ok = std::binary_search(pos.begin(), pos.end(), p + ph.terms[i].second);
      }
      if (ok) {
        SetBit(out, d);
        break;
      }
    }
    ++d;
  }
}

bool Execution::Constraints(size_t s, Bits& allowed) {
  const Segment& seg = r_.segment(s);
  const DeleteBitmap& del = r_.deletes(s);
  if (q_.filters.empty() && q_.phrases.empty() && del.count() == 0) return false;
  uint32_t n = seg.num_docs();
  allowed.assign((n + 63) / 64, ~uint64_t{0});
  if (n % 64) allowed.back() = (uint64_t{1} << (n % 64)) - 1;
  for (uint32_t d = 0; del.count() > 0 && d < n; ++d) {
    if (del.Get(d)) allowed[d >> 6] &= ~(uint64_t{1} << (d & 63));
  }
  Bits one;
  PostingCursor c;
  for (const FilterClause& f : q_.filters) {
    one.assign(allowed.size(), 0);
    for (const std::string& v : f.values) {
      int64_t t = seg.Find(std::string(1, KeywordFieldByte(f.field)) + v);
      if (t < 0) continue;
      for (c.Init(seg, seg.Info(static_cast<uint32_t>(t))); c.doc() != PostingCursor::kEnd; c.Next()) SetBit(one, c.doc());
      Corrupt(c, s);
    }
    for (size_t i = 0; i < allowed.size(); ++i) allowed[i] &= one[i];
  }
  const auto& fields = r_.schema().fields();
  for (const PhraseClause& ph : q_.phrases) {
    one.assign(allowed.size(), 0);
    for (size_t f = 0; f < fields.size(); ++f) {
      if (fields[f].text && (ph.field < 0 || static_cast<size_t>(ph.field) == f))
        PhraseDocs(s, static_cast<int>(f), ph, one);
    }
    for (size_t i = 0; i < allowed.size(); ++i) allowed[i] &= one[i];
  }
  return true;
}

Status Execution::ScoreSegment(size_t s, const Bits* allowed) {
  const Segment& seg = r_.segment(s);
  if (clauses_.empty() && q_.terms.empty()) {  // filters only: every allowed doc, score 0
    for (uint32_t d = 0; d < seg.num_docs(); ++d) {
      if (allowed == nullptr || TestBit(*allowed, d)) LAKEQA_RETURN_IF_ERROR(top_.Offer(0.0, seg, static_cast<uint32_t>(s), d));
    }
    return Status::Ok();
  }
  struct Cur {
    PostingCursor pc;
    const Clause* clause;
    size_t index;
    const uint8_t* norms;
    double ub;
  };
  std::vector<Cur> cur;
  cur.reserve(clauses_.size());
  for (size_t i = 0; i < clauses_.size(); ++i) {
    int64_t t = seg.Find(clauses_[i].key);
    if (t < 0) continue;
    TermInfo info = seg.Info(static_cast<uint32_t>(t));
    cur.push_back({});
    Cur& c = cur.back();
    c.pc.Init(seg, info);
    c.clause = &clauses_[i];
    c.index = i;
    c.norms = seg.norms(static_cast<size_t>(clauses_[i].field));
    c.ub = clauses_[i].Score(info.max_tf, info.min_norm);
    result_.stats.postings += info.df;
  }
  if (cur.empty()) return Status::Ok();
  std::sort(cur.begin(), cur.end(), [](const Cur& a, const Cur& b) { return a.ub < b.ub; });
  const size_t n = cur.size();
  std::vector<double> cum(n);
  for (size_t i = 0; i < n; ++i) cum[i] = cur[i].ub + (i ? cum[i - 1] : 0.0);
  std::vector<double> contrib(clauses_.size(), 0.0);
  std::vector<size_t> touched;
  size_t p = 0;  // cursors [0, p) are non-essential
  auto update_p = [&] {
    if (o_.exhaustive) return;
    double theta = top_.threshold();
    while (p < n && cum[p] * (1 + kSlack) < theta) ++p;
  };
  update_p();
  while (p < n) {
    uint32_t d = PostingCursor::kEnd;
    for (size_t i = p; i < n; ++i) d = std::min(d, cur[i].pc.doc());
    if (d == PostingCursor::kEnd) break;
    bool ok = allowed == nullptr || TestBit(*allowed, d);
    double partial = 0;
    touched.clear();
    for (size_t i = p; i < n; ++i) {
      Cur& c = cur[i];
      if (c.pc.doc() != d) continue;
      if (ok) {
        double sc = c.clause->Score(c.pc.tf(), c.norms[d]);
        partial += sc;
        contrib[c.index] = sc;
        touched.push_back(c.index);
      }
      c.pc.Next();
    }
    if (!ok) continue;
    ++result_.stats.scored_docs;
    double theta = o_.exhaustive ? kNegInf : top_.threshold();
    bool pruned = false;
    for (size_t i = p; i-- > 0;) {
      if ((partial + cum[i]) * (1 + kSlack) < theta) {
        pruned = true;
        break;
      }
      Cur& c = cur[i];
      if (!c.pc.ShallowAdvance(d)) continue;
      double block_ub = c.clause->Score(c.pc.block_max_tf(), c.pc.block_min_norm());
      if ((partial + block_ub + (i ? cum[i - 1] : 0.0)) * (1 + kSlack) < theta) {
        pruned = true;
        break;
      }
      c.pc.Advance(d);
      if (c.pc.doc() == d) {
        double sc = c.clause->Score(c.pc.tf(), c.norms[d]);
        partial += sc;
        contrib[c.index] = sc;
        touched.push_back(c.index);
      }
    }
    if (!pruned) {
      // The reported score sums clause contributions in canonical order, so it does not depend on
      // which cursors happened to be essential.
      std::sort(touched.begin(), touched.end());
      double score = 0;
      for (size_t i : touched) score += contrib[i];
      LAKEQA_RETURN_IF_ERROR(top_.Offer(score, seg, static_cast<uint32_t>(s), d));
      update_p();
    }
  }
  for (Cur& c : cur) Corrupt(c.pc, s);
  return Status::Ok();
}

void Execution::MatchSet(size_t s, const Bits* allowed, Bits& out) {
  const Segment& seg = r_.segment(s);
  uint32_t n = seg.num_docs();
  if (clauses_.empty() && q_.terms.empty()) {
    if (allowed != nullptr) {
      out = *allowed;
    } else {
      out.assign((n + 63) / 64, ~uint64_t{0});
      if (n % 64) out.back() = (uint64_t{1} << (n % 64)) - 1;
    }
    return;
  }
  out.assign((n + 63) / 64, 0);
  PostingCursor c;
  for (const Clause& cl : clauses_) {
    int64_t t = seg.Find(cl.key);
    if (t < 0) continue;
    for (c.Init(seg, seg.Info(static_cast<uint32_t>(t))); c.doc() != PostingCursor::kEnd; c.Next()) SetBit(out, c.doc());
    Corrupt(c, s);
  }
  if (allowed != nullptr) {
    for (size_t i = 0; i < out.size(); ++i) out[i] &= (*allowed)[i];
  }
}

Status Execution::Facets(std::vector<Bits>& matches) {
  int64_t total = 0;
  for (const Bits& m : matches) {
    for (uint64_t w : m) total += std::popcount(w);
  }
  result_.total = total;
  PostingCursor c;
  for (const std::string& name : o_.facet_fields) {
    int f = r_.schema().Find(name);
    std::map<std::string, uint64_t, std::less<>> counts;
    for (size_t s = 0; s < r_.num_segments(); ++s) {
      const Segment& seg = r_.segment(s);
      auto [lo, hi] = seg.PrefixRange(std::string(1, KeywordFieldByte(f)));
      for (uint32_t i = lo; i < hi; ++i) {
        uint64_t n = 0;
        for (c.Init(seg, seg.Info(i)); c.doc() != PostingCursor::kEnd; c.Next()) n += TestBit(matches[s], c.doc());
        Corrupt(c, s);
        if (n > 0) counts[std::string(seg.Key(i).substr(1))] += n;
      }
    }
    std::vector<FacetValue> values;
    for (auto& [v, n] : counts) values.push_back({v, n});
    std::sort(values.begin(), values.end(), [](const FacetValue& a, const FacetValue& b) {
      return a.count > b.count || (a.count == b.count && a.value < b.value);
    });
    if (values.size() > o_.facet_limit) values.resize(o_.facet_limit);
    result_.facets[name] = std::move(values);
  }
  return Status::Ok();
}

Status Execution::MakeHits(std::vector<Entry> entries) {
  const auto& fields = r_.schema().fields();
  int column_field = r_.schema().Find(o_.column_field);
  std::unordered_set<std::string> all_terms, column_terms;
  for (const Clause& c : clauses_) {
    all_terms.insert(c.key.substr(1));
    if (c.field == column_field) column_terms.insert(c.key.substr(1));
  }
  std::string_view id;
  std::vector<std::pair<int, std::string_view>> stored;
  for (Entry& e : entries) {
    LAKEQA_RETURN_IF_ERROR(r_.segment(e.seg).Stored(e.doc, &id, &stored));
    Hit hit;
    hit.id = std::move(e.id);
    hit.score = e.score;
    for (const auto& [f, v] : stored) {
      if (f < 0 || static_cast<size_t>(f) >= fields.size())
        return lakeqa::Corrupt(r_.segment(e.seg).name() + ".sto: field number out of range");
      hit.fields.emplace_back(fields[f].name, std::string(v));
      if (f == column_field && !column_terms.empty()) {
        for (const text::Token& t : analyzer_.Analyze(v)) {
          if (column_terms.count(std::string(analyzer_.Term(t)))) {
            hit.matched_columns.emplace_back(v);
            break;
          }
        }
      }
    }
    if (o_.snippets) {
      size_t best = 0;
      for (const std::string& name : o_.snippet_fields) {
        int f = r_.schema().Find(name);
        for (const auto& [sf, v] : stored) {
          if (sf != f) continue;
          size_t matched = 0;
          Snippet sn = MakeSnippet(v, all_terms, o_.snippet_bytes, analyzer_, &matched);
          if (matched > best) {
            best = matched;
            sn.field = name;
            hit.snippet = std::move(sn);
          } else if (hit.snippet.text.empty() && !v.empty() && best == 0) {
            hit.snippet.field = name;  // nothing matched anywhere yet: the field's opening as a preview
            hit.snippet.text = std::string(v.substr(0, o_.snippet_bytes));
            while (!hit.snippet.text.empty() && (hit.snippet.text.back() & 0xC0) == 0x80) hit.snippet.text.pop_back();
            if (!hit.snippet.text.empty() && static_cast<unsigned char>(hit.snippet.text.back()) >= 0xC0)
              hit.snippet.text.pop_back();
          }
        }
      }
    }
    result_.hits.push_back(std::move(hit));
  }
  return Status::Ok();
}

Result<SearchResult> Execution::Run() {
  LAKEQA_RETURN_IF_ERROR(Prepare());
  bool count = o_.count_total || !o_.facet_fields.empty();
  std::vector<Bits> matches(count ? r_.num_segments() : 0);
  Bits allowed;
  for (size_t s = 0; s < r_.num_segments(); ++s) {
    bool restricted = Constraints(s, allowed);
    const Bits* a = restricted ? &allowed : nullptr;
    if (o_.k > 0) LAKEQA_RETURN_IF_ERROR(ScoreSegment(s, a));
    if (count) MatchSet(s, a, matches[s]);
    LAKEQA_RETURN_IF_ERROR(failure_);
  }
  if (count) LAKEQA_RETURN_IF_ERROR(Facets(matches));
  LAKEQA_RETURN_IF_ERROR(MakeHits(top_.Sorted()));
  LAKEQA_RETURN_IF_ERROR(failure_);
  return std::move(result_);
}

}  // namespace

Searcher::Searcher(std::shared_ptr<const IndexReader> reader, text::AnalyzerOptions analyzer)
    : reader_(std::move(reader)), analyzer_(analyzer) {}

Result<SearchResult> Searcher::Search(std::string_view query, const SearchOptions& options) {
  LAKEQA_ASSIGN_OR_RETURN(Query q, ParseQuery(query, reader_->schema(), analyzer_));
  return Search(q, options);
}

Result<SearchResult> Searcher::Search(const Query& query, const SearchOptions& options) {
  Execution ex(*reader_, query, options, analyzer_);
  return ex.Run();
}

}  // namespace lakeqa::index
