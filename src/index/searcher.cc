#include "lakeqa/index/searcher.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

#include "index/postings.h"
#include "index/search_internal.h"
#include "index/segment.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

// Bounds are compared with this much slack, so that rounding in a partial sum never prunes a document
// whose exact score ties the current threshold.
constexpr double kSlack = 1e-9;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct FieldStats {
  uint64_t docs = 0;     // live documents with a non-empty field
  uint64_t sum_len = 0;  // of quantised lengths
};

struct Entry {
  double score;
  uint32_t seg, doc;
  const Segment* segment;
  // The dataset id breaks score ties only, so it is read from the stored fields when a tie needs it or
  // the entry is returned, not for every document offered (that read was ~11% of query time).
  mutable std::string id;
  mutable bool has_id = false;
  // Bit part_base_[t] + j: part j of query term t holds the doc. Filled when SearchOptions::matches asks,
  // from the cursors the scoring loop already positioned on the doc, so that listing
  // the matched words needs no second lookup per (term, field) (that lookup was 28% of a query's
  // instructions: docs/benchmarks.md, issue 25 item 5).
  std::vector<uint64_t> matched;
};

class TopK {
 public:
  explicit TopK(size_t k) : k_(k) {}
  double threshold() const { return heap_.size() < k_ ? kNegInf : heap_.front().score; }
  // Offers a scored doc; fill(entry.matched) runs only when the doc is kept. Fails only when a stored id a
  // tie needed could not be read (a corrupt segment).
  template <typename Fill>
  Status Offer(double score, const Segment& seg, uint32_t s, uint32_t doc, Fill&& fill) {
    if (k_ == 0) return Status::Ok();
    if (heap_.size() == k_ && score < heap_.front().score) return Status::Ok();
    Entry e{score, s, doc, &seg, {}, false, {}};
    auto better = [this](const Entry& a, const Entry& b) { return Better(a, b); };
    if (heap_.size() == k_) {
      if (!Better(e, heap_.front())) return error_;
      std::pop_heap(heap_.begin(), heap_.end(), better);
      e.matched = std::move(heap_.back().matched);  // reuses the evicted entry's storage
      heap_.back() = std::move(e);
    } else {
      heap_.push_back(std::move(e));
    }
    fill(heap_.back().matched);
    std::push_heap(heap_.begin(), heap_.end(), better);
    return error_;
  }
  Status Offer(double score, const Segment& seg, uint32_t s, uint32_t doc) {
    return Offer(score, seg, s, doc, [](std::vector<uint64_t>& m) { m.clear(); });
  }
  // Best first, every id read.
  Result<std::vector<Entry>> Sorted() {
    std::sort(heap_.begin(), heap_.end(), [this](const Entry& a, const Entry& b) { return Better(a, b); });
    for (const Entry& e : heap_) Id(e);
    if (!error_.ok()) return error_;
    return std::move(heap_);
  }

 private:
  // a before b in the ranking: higher score, then smaller id.
  bool Better(const Entry& a, const Entry& b) {
    if (a.score != b.score) return a.score > b.score;
    return Id(a) < Id(b);
  }
  const std::string& Id(const Entry& e) {
    if (!e.has_id) {
      auto id = e.segment->StoredId(e.doc);
      if (id.ok()) {
        e.id = std::string(*id);
      } else if (error_.ok()) {
        error_ = id.status();
      }
      e.has_id = true;
    }
    return e.id;
  }

  size_t k_;
  std::vector<Entry> heap_;  // front: the worst kept entry
  Status error_;
};

// One text field of a query term.
struct Part {
  int field;
  std::string key;  // field byte + term
  double weight, b;
  bool data = false;  // scored on its own (ranking.h): wn holds no weight then
  double avg_len;
  double wn[256];  // weight / (1 - b + b * len / avg_len) per length byte (1 / (...) for data)
};

// One scoring term: BM25F over its parts (ascending field).
struct Term {
  std::string term, word;
  uint32_t position = 0;
  bool pairs = false;  // may form proximity pairs
  double idf = 0;
  std::vector<Part> parts;
  double k1 = 0, data_k1 = 1;
  double boost = 1;  // < 1 for a term the searcher added (a spelling correction, a fuzzy variant)
  double Saturate(double x) const { return x > 0 ? boost * idf * x * (k1 + 1.0) / (x + k1) : 0.0; }
  // A data field's share: weight * idf at most.
  double SaturateData(double weight, double n) const {
    return n > 0 ? boost * idf * weight * n / (n + data_k1) : 0.0;
  }
};

// Two terms of adjacent query words: a bonus when they occur together in one field.
struct Pair {
  size_t a, b;  // term indexes
  double ub;    // proximity * min(idf)
};

// A term's postings in one segment: the union of its parts' cursors.
class TermCursor {
 public:
  void Init(const Segment& seg, const Term& t, size_t index) {
    term_ = &t;
    index_ = index;
    for (const Part& p : t.parts) {
      int64_t i = seg.Find(p.key);
      if (i < 0) continue;
      TermInfo info = seg.Info(static_cast<uint32_t>(i));
      pcs_.emplace_back();
      pcs_.back().Init(seg, info);
      parts_.push_back(&p);
      norms_.push_back(seg.norms(static_cast<size_t>(p.field)));
      max_n_.push_back(info.max_tf * p.wn[info.min_norm]);
      postings_ += info.df;
    }
    Settle();
  }
  bool empty() const { return pcs_.empty(); }
  uint32_t doc() const { return doc_; }
  size_t index() const { return index_; }
  const Term& term() const { return *term_; }
  uint64_t postings() const { return postings_; }

  // The parts one by one, for skipping at the level of one field's postings. A part's n is its weighted
  // term frequency tf * wn[norm]: it adds to x (BM25F) or, for a data part, is saturated on its own.
  size_t num_parts() const { return pcs_.size(); }
  PostingCursor& part(size_t i) { return pcs_[i]; }
  bool part_data(size_t i) const { return parts_[i]->data; }
  // Part i's place in the term's Term::parts (the cursors hold only the parts the segment has).
  size_t part_slot(size_t i) const { return static_cast<size_t>(parts_[i] - term_->parts.data()); }
  // n of part i on its current doc.
  double PartN(size_t i) const { return pcs_[i].tf() * parts_[i]->wn[norms_[i][pcs_[i].doc()]]; }
  // Largest n of part i in the segment (dictionary skip data).
  double PartMaxN(size_t i) const { return max_n_[i]; }
  // Largest n of part i on the docs of [lo, hi], from the skip data of the block that may hold them
  // ([lo, hi] lies within one of its blocks: a single doc, or a window NarrowWindow made); 0 when the part
  // holds none of them.
  double PartBlockN(size_t i, uint32_t lo, uint32_t hi) {
    PostingCursor& c = pcs_[i];
    if (c.doc() > hi || !c.ShallowAdvance(std::max(lo, c.doc()))) return 0;
    return c.block_max_tf() * parts_[i]->wn[c.block_min_norm()];
  }
  // Part i's share of the term's score when its n is added to the term's other (BM25F) parts' x: an upper
  // bound of what it adds to any doc, since the saturation is concave.
  double PartShare(size_t i, double x, double n) const {
    if (parts_[i]->data) return term_->SaturateData(parts_[i]->weight, n);
    return term_->Saturate(x + n) - term_->Saturate(x);
  }
  // Makes d the doc that X, Score and Positions read: every part is positioned at d or beyond it.
  void Focus(uint32_t d) { doc_ = d; }
  // x of the current doc: the BM25F (non-data) parts positioned on it, in field order.
  double X() const {
    double x = 0;
    for (size_t i = 0; i < pcs_.size(); ++i) {
      if (pcs_[i].doc() == doc_ && !parts_[i]->data) x += pcs_[i].tf() * parts_[i]->wn[norms_[i][doc_]];
    }
    return x;
  }
  // The term's score on the current doc: the saturated x plus each data field's own share.
  double Score() const {
    double sc = term_->Saturate(X());
    for (size_t i = 0; i < pcs_.size(); ++i) {
      if (pcs_[i].doc() == doc_ && parts_[i]->data)
        sc += term_->SaturateData(parts_[i]->weight, pcs_[i].tf() * parts_[i]->wn[norms_[i][doc_]]);
    }
    return sc;
  }
  void Next() {
    for (PostingCursor& c : pcs_) {
      if (c.doc() == doc_) c.Next();
    }
    Settle();
  }
  void Advance(uint32_t target) {
    for (PostingCursor& c : pcs_) {
      if (c.doc() < target) c.Advance(target);
    }
    Settle();
  }
  // Positions of the current doc in `field`, or null when the term is not there.
  const std::vector<uint32_t>* Positions(int field) {
    for (size_t i = 0; i < pcs_.size(); ++i) {
      if (parts_[i]->field == field && pcs_[i].doc() == doc_) return &pcs_[i].Positions();
    }
    return nullptr;
  }
  bool Corrupt() const {
    for (const PostingCursor& c : pcs_) {
      if (c.corrupt()) return true;
    }
    return false;
  }

 private:
  void Settle() {
    doc_ = PostingCursor::kEnd;
    for (const PostingCursor& c : pcs_) doc_ = std::min(doc_, c.doc());
  }
  const Term* term_ = nullptr;
  size_t index_ = 0;
  std::vector<PostingCursor> pcs_;
  std::vector<const Part*> parts_;
  std::vector<const uint8_t*> norms_;
  std::vector<double> max_n_;
  uint64_t postings_ = 0;
  uint32_t doc_ = PostingCursor::kEnd;
};

// One field's postings of one query term in one segment: the unit MaxScore skips by, as the per-field sum
// that BM25F replaced skipped by its per-field clauses. A BM25F term saturates the sum of its parts' n, so a
// part has no score of its own: its bound is its share when it is its term's only part on a doc, and a set
// of parts is bounded by summing their n per term before the saturation (DocSums), which is never below
// what the parts add to a doc's score, because the saturation is concave and 0 at 0.
struct PartRef {
  TermCursor* term;
  size_t part;  // within the term's parts
  double ub;    // the part's share of its term's score on any doc of the segment, on its own
  PostingCursor& pc() const { return term->part(part); }
  size_t index() const { return term->index(); }
};

// A doc's score as its parts are read: per term, the x of the BM25F parts read so far. Add returns what a
// part adds to the sum of the terms' scores (up to rounding, which the bounds' slack absorbs).
class DocSums {
 public:
  explicit DocSums(size_t terms) : x_(terms, 0.0), seen_(terms, 0) {}
  double Gain(const PartRef& r, double n) const { return r.term->PartShare(r.part, x_[r.index()], n); }
  double Add(const PartRef& r, double n) {
    const size_t t = r.index();
    if (!seen_[t]) {
      seen_[t] = 1;
      touched_.push_back(t);
    }
    double g = Gain(r, n);
    if (!r.term->part_data(r.part)) x_[t] += n;
    return g;
  }
  void Clear() {
    for (size_t t : touched_) {
      x_[t] = 0;
      seen_[t] = 0;
    }
    touched_.clear();
  }
  // The terms with a part read (for the exact score), and room for their cursors (for the bonus).
  std::vector<size_t>& touched() { return touched_; }
  std::vector<TermCursor*>& at() { return at_; }

 private:
  std::vector<double> x_;
  std::vector<char> seen_;
  std::vector<size_t> touched_;
  std::vector<TermCursor*> at_;
};

// Whether two sorted position lists hold p, q with 0 < |p - q| <= kProximityWindow.
bool Near(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  size_t j = 0;
  for (uint32_t p : a) {
    while (j < b.size() && b[j] + kProximityWindow < p) ++j;
    for (size_t k = j; k < b.size() && b[k] <= p + kProximityWindow; ++k) {
      if (b[k] != p) return true;
    }
  }
  return false;
}

class Execution {
 public:
  Execution(const IndexReader& r, const Query& q, const SearchOptions& o, text::Analyzer& a)
      : r_(r),
        q_(q),
        o_(o),
        ranking_(o.ranking ? *o.ranking : r.ranking()),
        analyzer_(a),
        top_(o.k + o.offset) {}

  Result<SearchResult> Run();

 private:
  Status Prepare();
  void ExpandTerms();
  uint32_t LiveDf(size_t s, std::string_view key);
  // Allowed docs of segment s (filters, phrases, deletes); false if there is nothing to restrict.
  bool Constraints(size_t s, Bits& allowed);
  void PhraseDocs(size_t s, int field, const PhraseClause& ph, Bits& out);
  Status ScoreSegment(size_t s, const Bits* allowed);
  // Per segment, before its documents are walked (none of this runs per document).
  std::vector<PartRef> OpenParts(const Segment& seg, std::vector<TermCursor>& terms);
  void PartBounds(const std::vector<PartRef>& cur, DocSums& sums, std::vector<double>& cum,
                  std::vector<double>& cum_split) const;
  double WindowBound(std::vector<PartRef>& cur, size_t p, uint32_t lo, uint32_t hi, DocSums& sums);
  bool ScoreDoc(std::vector<PartRef>& cur, size_t p, uint32_t d, const std::vector<double>& cum,
                std::vector<TermCursor>& terms, DocSums& sums, double* score);
  // The proximity bonus of the current doc: every cursor of a term present on it is positioned on it.
  double Bonus(std::vector<TermCursor*>& at);
  void MatchSet(size_t s, const Bits* allowed, Bits& out);
  Status Facets(std::vector<Bits>& matches);
  // The parts positioned on d (every part holds d exactly when it is positioned there, after ScoreDoc).
  void MatchedParts(const std::vector<PartRef>& cur, uint32_t d, std::vector<uint64_t>& out) const;
  // field → query words, from the parts that hold a hit (Hit::matches).
  std::vector<std::pair<std::string, std::vector<std::string>>> Matches(
      const std::vector<uint64_t>& parts) const;
  Status MakeHits(std::vector<Entry> entries);
  Explanation Explain(const Segment& seg, uint32_t doc);
  Status ExplainIds();
  bool Corrupt(bool bad, size_t s);

  const IndexReader& r_;
  const Query& q_;
  const SearchOptions& o_;
  const RankingParams& ranking_;
  text::Analyzer& analyzer_;
  TopK top_;
  std::vector<FieldStats> stats_;
  uint64_t live_docs_ = 0;
  double max_weight_ = 1;
  std::vector<Term> terms_;
  std::vector<size_t> part_base_;    // term i's parts are numbered part_base_[i] + their place in Term::parts
  size_t num_parts_ = 0;             // of all terms
  std::vector<size_t> query_order_;  // term indexes in query order: how explanations and matches list words
  std::vector<Pair> pairs_;
  double pairs_ub_ = 0;
  SearchResult result_;
  Status failure_;
};

bool Execution::Corrupt(bool bad, size_t s) {
  if (bad && failure_.ok()) failure_ = lakeqa::Corrupt(r_.segment(s).name() + ".pst: postings do not decode");
  return bad;
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
  Corrupt(c.corrupt(), s);
  return n;
}

Status Execution::Prepare() {
  const auto& fields = r_.schema().fields();
  LAKEQA_RETURN_IF_ERROR(ranking_.Validate(r_.schema()).WithContext("ranking parameters"));
  if (o_.k > 100000 || o_.offset > 100000) return InvalidArgument("k and offset must each be at most 100000");
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
  live_docs_ = r_.num_docs();
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
  max_weight_ = 0;
  for (const auto& [name, fr] : ranking_.fields) max_weight_ = std::max(max_weight_, fr.weight);
  ExpandTerms();
  return failure_;
}

void Execution::ExpandTerms() {
  const auto& fields = r_.schema().fields();
  // (restriction, term) → the clause it came from; prefixes expand to the lexicographically first
  // max_prefix_expansions terms some live document holds, per field, each scored over all the clause's
  // fields. std::map: canonical (sorted) term order, so scores never depend on query order.
  struct Source {
    const TermClause* clause;
    bool pairs;
  };
  std::map<std::pair<int, std::string>, Source> wanted;
  for (const TermClause& t : q_.terms) {
    if (!t.prefix) {
      bool pairs = !t.inferred && t.kind != text::TokenKind::kPart;
      wanted.try_emplace({t.field, t.term}, Source{&t, pairs});
      continue;
    }
    for (size_t f = 0; f < fields.size(); ++f) {
      if (!fields[f].text || (t.field >= 0 && static_cast<size_t>(t.field) != f)) continue;
      std::string prefix(1, TextFieldByte(static_cast<int>(f)));
      prefix += t.term;
      // Each segment offers its first max_prefix_expansions live terms, so the union's first ones are the
      // global first.
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
        wanted.try_emplace({t.field, term}, Source{&t, false});
      }
    }
  }
  const double n = static_cast<double>(live_docs_);
  for (const auto& [key, src] : wanted) {
    const auto& [restrict, term] = key;
    Term t;
    t.term = term;
    t.word = src.clause->word.empty() ? term : src.clause->word;
    t.position = src.clause->position;
    t.pairs = src.pairs;
    t.k1 = ranking_.k1;
    t.data_k1 = ranking_.data_k1;
    t.boost = src.clause->boost;
    if (src.clause->variant == TermClause::Variant::kCorrection) t.boost *= ranking_.correction;
    if (src.clause->variant == TermClause::Variant::kFuzzy) t.boost *= ranking_.fuzzy;
    if (t.boost <= 0) continue;
    uint64_t df = 0;
    for (size_t f = 0; f < fields.size(); ++f) {
      if (!fields[f].text || (restrict >= 0 && static_cast<size_t>(restrict) != f)) continue;
      Part p;
      p.field = static_cast<int>(f);
      p.key = std::string(1, TextFieldByte(p.field)) + term;
      uint64_t field_df = 0;
      for (size_t s = 0; s < r_.num_segments(); ++s) field_df += LiveDf(s, p.key);
      if (field_df == 0) continue;
      // The term's document frequency is its largest per-field one (Lucene's CombinedFieldQuery makes
      // the same choice): a lower bound of the true one that needs no union of postings.
      df = std::max(df, field_df);
      const FieldRanking& fr = ranking_.fields.at(fields[f].name);
      p.weight = fr.weight;
      p.b = fr.b;
      p.data = fr.data;
      p.avg_len = static_cast<double>(stats_[f].sum_len) / static_cast<double>(stats_[f].docs);
      for (int nb = 0; nb < 256; ++nb) {
        double len = DecodeLength(static_cast<uint8_t>(nb));
        p.wn[nb] = (p.data ? 1.0 : fr.weight) / (1.0 - fr.b + fr.b * len / p.avg_len);
      }
      t.parts.push_back(std::move(p));
    }
    if (df == 0) continue;
    double d = static_cast<double>(df);
    t.idf = std::log(1.0 + (n - d + 0.5) / (d + 0.5));
    terms_.push_back(std::move(t));
  }
  for (const Term& t : terms_) {
    part_base_.push_back(num_parts_);
    num_parts_ += t.parts.size();
  }
  for (size_t i = 0; i < terms_.size(); ++i) query_order_.push_back(i);
  std::stable_sort(query_order_.begin(), query_order_.end(),
                   [&](size_t a, size_t b) { return terms_[a].position < terms_[b].position; });
  if (ranking_.proximity <= 0) return;
  for (size_t a = 0; a < terms_.size(); ++a) {
    for (size_t b = 0; b < terms_.size(); ++b) {
      const Term &x = terms_[a], &y = terms_[b];
      if (a == b || !x.pairs || !y.pairs || y.position != x.position + 1) continue;
      bool shared = false;
      for (const Part& p : x.parts) {
        for (const Part& q : y.parts) shared |= p.field == q.field;
      }
      if (!shared) continue;
      Pair p{a, b, ranking_.proximity * std::min(x.idf, y.idf)};
      pairs_.push_back(p);
      pairs_ub_ += p.ub;
    }
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
        for (PostingCursor& x : cs) Corrupt(x.corrupt(), s);
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
      for (c.Init(seg, seg.Info(static_cast<uint32_t>(t))); c.doc() != PostingCursor::kEnd; c.Next())
        SetBit(one, c.doc());
      Corrupt(c.corrupt(), s);
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

double Execution::Bonus(std::vector<TermCursor*>& at) {
  double bonus = 0;
  for (const Pair& p : pairs_) {
    TermCursor *a = nullptr, *b = nullptr;
    for (TermCursor* c : at) {
      if (c->index() == p.a) a = c;
      if (c->index() == p.b) b = c;
    }
    if (a == nullptr || b == nullptr) continue;
    double best = 0;
    for (const Part& part : terms_[p.a].parts) {
      const std::vector<uint32_t>* pa = a->Positions(part.field);
      if (pa == nullptr || part.weight <= best) continue;
      const std::vector<uint32_t>* pb = b->Positions(part.field);
      if (pb != nullptr && Near(*pa, *pb)) best = part.weight;
    }
    bonus += p.ub * best / max_weight_;
  }
  return bonus;
}

// The parts of the query terms the segment holds, in increasing order of their bounds (MaxScore's order: the
// first ones become non-essential first). terms[i] becomes term i's cursor; the parts point into it.
std::vector<PartRef> Execution::OpenParts(const Segment& seg, std::vector<TermCursor>& terms) {
  std::vector<PartRef> cur;
  for (size_t i = 0; i < terms_.size(); ++i) {
    TermCursor& t = terms[i];
    t.Init(seg, terms_[i], i);
    result_.stats.postings += t.postings();
    for (size_t j = 0; j < t.num_parts(); ++j) cur.push_back({&t, j, t.PartShare(j, 0.0, t.PartMaxN(j))});
  }
  std::sort(cur.begin(), cur.end(), [](const PartRef& a, const PartRef& b) {
    if (a.ub != b.ub) return a.ub < b.ub;
    return std::make_pair(a.index(), a.part) < std::make_pair(b.index(), b.part);
  });
  return cur;
}

// cum[i]: bound of a document holding only parts [0, i], their segment maxima summed per term before the
// saturation; the essential split adds the bonus of every pair whose two terms both have a part within
// [0, i], the per-document checks add every pair's bound.
void Execution::PartBounds(const std::vector<PartRef>& cur, DocSums& sums, std::vector<double>& cum,
                           std::vector<double>& cum_split) const {
  sums.Clear();
  std::vector<size_t> first(terms_.size(), cur.size());  // the first part of each term
  double total = 0, pairs = 0;
  for (size_t i = 0; i < cur.size(); ++i) {
    const PartRef& r = cur[i];
    total += sums.Add(r, r.term->PartMaxN(r.part));
    cum[i] = total;
    if (first[r.index()] == cur.size()) first[r.index()] = i;
    for (const Pair& p : pairs_) {
      if (std::max(first[p.a], first[p.b]) == i) pairs += p.ub;
    }
    cum_split[i] = total + pairs;
  }
  sums.Clear();
}

namespace {
// Narrows `hi` to the last doc of the block that c has at `lo` (moving its skip pointer only, nothing is
// decoded), so that c has one block over [lo, hi].
void NarrowWindow(PostingCursor& c, uint32_t lo, uint32_t& hi) {
  if (c.doc() != PostingCursor::kEnd && c.ShallowAdvance(std::max(lo, c.doc())))
    hi = std::min(hi, c.block_last_doc());
}
}  // namespace

// A bound of the score of every doc of [lo, hi]: the non-essential parts' segment maxima and the essential
// parts' block maxima, summed per term before the saturation, and every pair's bonus.
double Execution::WindowBound(std::vector<PartRef>& cur, size_t p, uint32_t lo, uint32_t hi, DocSums& sums) {
  sums.Clear();
  double bound = pairs_ub_;
  for (size_t i = 0; i < cur.size(); ++i) {
    PartRef& r = cur[i];
    double n = i < p ? r.term->PartMaxN(r.part) : r.term->PartBlockN(r.part, lo, hi);
    if (n > 0) bound += sums.Add(r, n);
  }
  sums.Clear();
  return bound;
}

// Scores d from the essential parts [p, n) on it, then reads the non-essential ones from the largest bound
// down while d can still reach the threshold; false when it cannot. The score is then computed per term in
// canonical order, as exhaustive scoring computes it, so it does not depend on which parts were essential.
bool Execution::ScoreDoc(std::vector<PartRef>& cur, size_t p, uint32_t d, const std::vector<double>& cum,
                         std::vector<TermCursor>& terms, DocSums& sums, double* score) {
  sums.Clear();
  double partial = 0;
  for (size_t i = p; i < cur.size(); ++i) {
    if (cur[i].pc().doc() == d) partial += sums.Add(cur[i], cur[i].term->PartN(cur[i].part));
  }
  const double theta = o_.exhaustive ? kNegInf : top_.threshold();
  for (size_t i = p; i-- > 0;) {
    const double rest = (i ? cum[i - 1] : 0.0) + pairs_ub_;
    if ((partial + cum[i] + pairs_ub_) * (1 + kSlack) < theta) return false;
    PartRef& r = cur[i];
    PostingCursor& c = r.pc();
    if (c.doc() > d) continue;
    // What this part can add given the term's x so far, and then the others at most `rest` (concavity).
    double block = sums.Gain(r, r.term->PartBlockN(r.part, d, d));
    if ((partial + block + rest) * (1 + kSlack) < theta) return false;
    c.Advance(d);
    if (c.doc() == d) partial += sums.Add(r, r.term->PartN(r.part));
  }
  // Every part is read: partial is the terms' score up to rounding. A doc that cannot reach the threshold
  // even with every pair's bonus is not scored exactly (the per-term score and the positions the bonus
  // reads are what a scored doc costs most).
  if ((partial + pairs_ub_) * (1 + kSlack) < theta) return false;
  std::vector<size_t>& touched = sums.touched();
  std::sort(touched.begin(), touched.end());
  std::vector<TermCursor*>& at = sums.at();
  at.clear();
  double sc = 0;
  for (size_t t : touched) {
    terms[t].Focus(d);
    sc += terms[t].Score();
    at.push_back(&terms[t]);
  }
  if (!pairs_.empty()) sc += Bonus(at);
  *score = sc;
  return true;
}

Status Execution::ScoreSegment(size_t s, const Bits* allowed) {
  const Segment& seg = r_.segment(s);
  if (terms_.empty() && q_.terms.empty()) {  // filters only: every allowed doc, score 0
    for (uint32_t d = 0; d < seg.num_docs(); ++d) {
      if (allowed == nullptr || TestBit(*allowed, d))
        LAKEQA_RETURN_IF_ERROR(top_.Offer(0.0, seg, static_cast<uint32_t>(s), d));
    }
    return Status::Ok();
  }
  std::vector<TermCursor> terms(terms_.size());
  std::vector<PartRef> cur = OpenParts(seg, terms);
  const size_t n = cur.size();
  DocSums sums(terms_.size());
  std::vector<double> cum(n), cum_split(n);
  PartBounds(cur, sums, cum, cum_split);
  size_t p = 0;  // parts [0, p) are non-essential
  auto update_p = [&] {
    if (o_.exhaustive) return;
    double theta = top_.threshold();
    while (p < n && cum_split[p] * (1 + kSlack) < theta) ++p;
  };
  update_p();
  // Block-max skipping of the essential parts: a window [lo, hi] in which every essential part stays in one
  // block is bounded by its block maxima; while that bound (with every non-essential part's bound) is below
  // the threshold, the next window is tried, and the essential parts then jump past all of them, so the
  // skipped blocks are never decoded. A window that cannot be skipped is checked again only when it ends or
  // the threshold or the essential set changes.
  uint32_t win_hi = 0;
  double win_theta = kNegInf;
  size_t win_p = n;
  while (p < n) {
    uint32_t d = PostingCursor::kEnd;
    for (size_t i = p; i < n; ++i) d = std::min(d, cur[i].pc().doc());
    if (d == PostingCursor::kEnd) break;
    if (double theta = top_.threshold();
        !o_.exhaustive && theta > kNegInf && (d > win_hi || theta != win_theta || p != win_p)) {
      uint32_t lo = d;
      for (;;) {
        uint32_t hi = PostingCursor::kEnd - 1;
        for (size_t i = p; i < n; ++i) NarrowWindow(cur[i].pc(), lo, hi);
        if (WindowBound(cur, p, lo, hi, sums) * (1 + kSlack) >= theta) {
          win_hi = hi;
          break;
        }
        lo = hi + 1;  // hi < kEnd: lo == kEnd ends every cursor
        if (lo == PostingCursor::kEnd) break;
      }
      win_theta = theta;
      win_p = p;
      if (lo > d) {
        for (size_t i = p; i < n; ++i) cur[i].pc().Advance(lo);
        continue;
      }
    }
    if (allowed == nullptr || TestBit(*allowed, d)) {
      ++result_.stats.scored_docs;
      double score = 0;
      if (ScoreDoc(cur, p, d, cum, terms, sums, &score)) {
        LAKEQA_RETURN_IF_ERROR(
            top_.Offer(score, seg, static_cast<uint32_t>(s), d, [&](std::vector<uint64_t>& m) {
              if (o_.matches) {
                MatchedParts(cur, d, m);
              } else {
                m.clear();
              }
            }));
        update_p();
      }
    }
    // Every part on d moves past it, the non-essential ones ScoreDoc advanced too.
    for (PartRef& r : cur) {
      if (r.pc().doc() == d) r.pc().Next();
    }
  }
  for (TermCursor& t : terms) Corrupt(t.Corrupt(), s);
  return Status::Ok();
}

void Execution::MatchedParts(const std::vector<PartRef>& cur, uint32_t d, std::vector<uint64_t>& out) const {
  out.assign((num_parts_ + 63) / 64, 0);
  for (const PartRef& r : cur) {
    if (r.pc().doc() != d) continue;
    size_t bit = part_base_[r.index()] + r.term->part_slot(r.part);
    out[bit >> 6] |= uint64_t{1} << (bit & 63);
  }
}

std::vector<std::pair<std::string, std::vector<std::string>>> Execution::Matches(
    const std::vector<uint64_t>& parts) const {
  const auto& fields = r_.schema().fields();
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (size_t f = 0; f < fields.size(); ++f) {
    std::vector<std::string> words;
    for (size_t i : query_order_) {
      const Term& t = terms_[i];
      for (size_t j = 0; j < t.parts.size(); ++j) {
        size_t bit = part_base_[i] + j;
        if (t.parts[j].field != static_cast<int>(f) || (bit >> 6) >= parts.size() ||
            !(parts[bit >> 6] >> (bit & 63) & 1))
          continue;
        if (std::find(words.begin(), words.end(), t.word) == words.end()) words.push_back(t.word);
      }
    }
    if (!words.empty()) out.emplace_back(fields[f].name, std::move(words));
  }
  return out;
}

void Execution::MatchSet(size_t s, const Bits* allowed, Bits& out) {
  const Segment& seg = r_.segment(s);
  uint32_t n = seg.num_docs();
  if (terms_.empty() && q_.terms.empty()) {
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
  for (const Term& t : terms_) {
    for (const Part& part : t.parts) {
      int64_t i = seg.Find(part.key);
      if (i < 0) continue;
      for (c.Init(seg, seg.Info(static_cast<uint32_t>(i))); c.doc() != PostingCursor::kEnd; c.Next())
        SetBit(out, c.doc());
      Corrupt(c.corrupt(), s);
    }
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
  std::string_view id;
  std::vector<std::pair<int, std::string_view>> stored;
  for (const std::string& name : o_.facet_fields) {
    int f = r_.schema().Find(name);
    struct Count {
      uint64_t n = 0;
      uint32_t seg = 0, doc = 0;  // the first matching document with the value: it shows how it is written
    };
    std::map<std::string, Count, std::less<>> counts;
    for (size_t s = 0; s < r_.num_segments(); ++s) {
      const Segment& seg = r_.segment(s);
      auto [lo, hi] = seg.PrefixRange(std::string(1, KeywordFieldByte(f)));
      for (uint32_t i = lo; i < hi; ++i) {
        uint64_t n = 0;
        uint32_t first = PostingCursor::kEnd;
        for (c.Init(seg, seg.Info(i)); c.doc() != PostingCursor::kEnd; c.Next()) {
          if (!TestBit(matches[s], c.doc())) continue;
          if (n++ == 0) first = c.doc();
        }
        Corrupt(c.corrupt(), s);
        if (n == 0) continue;
        Count& e = counts[std::string(seg.Key(i).substr(1))];
        if (e.n == 0) e = {0, static_cast<uint32_t>(s), first};
        e.n += n;
      }
    }
    std::vector<std::pair<const std::string*, const Count*>> order;
    for (const auto& [v, e] : counts) order.emplace_back(&v, &e);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.second->n > b.second->n || (a.second->n == b.second->n && *a.first < *b.first);
    });
    if (order.size() > o_.facet_limit) order.resize(o_.facet_limit);
    std::vector<FacetValue> values;
    for (const auto& [folded, e] : order) {
      FacetValue v{*folded, e->n};
      if (r_.schema().fields()[f].stored) {
        LAKEQA_RETURN_IF_ERROR(r_.segment(e->seg).Stored(e->doc, &id, &stored));
        for (const auto& [sf, value] : stored) {
          if (sf == f && text::FoldKeyword(value) == *folded) {
            v.value = std::string(value);
            break;
          }
        }
      }
      values.push_back(std::move(v));
    }
    result_.facets[name] = std::move(values);
  }
  return Status::Ok();
}

Explanation Execution::Explain(const Segment& seg, uint32_t doc) {
  const auto& fields = r_.schema().fields();
  Explanation ex;
  ex.k1 = ranking_.k1;
  std::vector<TermCursor> at(terms_.size());
  std::vector<TermCursor*> present;
  for (size_t i = 0; i < terms_.size(); ++i) {
    const Term& t = terms_[i];
    at[i].Init(seg, t, i);
    at[i].Advance(doc);
    if (at[i].doc() != doc) continue;
    present.push_back(&at[i]);
  }
  std::set<std::string> matched_words;
  // Query order for reading; the numbers are the ones the ranking used.
  for (size_t i : query_order_) {
    const Term& t = terms_[i];
    if (at[i].doc() != doc) continue;
    matched_words.insert(t.word);
    TermExplanation te;
    te.word = t.word;
    te.term = t.term;
    te.idf = t.idf;
    te.x = at[i].X();
    te.score = at[i].Score();
    const double x_score = t.Saturate(te.x);
    for (const Part& p : t.parts) {
      int64_t k = seg.Find(p.key);
      if (k < 0) continue;
      PostingCursor c;
      c.Init(seg, seg.Info(static_cast<uint32_t>(k)));
      c.Advance(doc);
      if (c.doc() != doc) continue;
      FieldExplanation fe;
      fe.field = fields[p.field].name;
      fe.tf = c.tf();
      uint8_t nb = seg.norms(static_cast<size_t>(p.field))[doc];
      fe.length = DecodeLength(nb);
      fe.avg_length = p.avg_len;
      fe.weight = p.weight;
      fe.b = p.b;
      fe.weighted_tf = c.tf() * p.wn[nb];
      fe.data = p.data;
      if (p.data) {
        fe.contribution = t.SaturateData(p.weight, fe.weighted_tf);
        fe.weighted_tf *= p.weight;
      } else {
        fe.contribution = te.x > 0 ? x_score * fe.weighted_tf / te.x : 0;
      }
      te.fields.push_back(std::move(fe));
    }
    ex.terms.push_back(std::move(te));
  }
  for (const TermClause& c : q_.terms) {
    std::string w = c.word.empty() ? c.term : c.word;
    if (!c.inferred && !matched_words.count(w) &&
        std::find(ex.unmatched.begin(), ex.unmatched.end(), w) == ex.unmatched.end())
      ex.unmatched.push_back(w);
  }
  for (const Pair& p : pairs_) {
    TermCursor* a = at[p.a].doc() == doc ? &at[p.a] : nullptr;
    TermCursor* b = at[p.b].doc() == doc ? &at[p.b] : nullptr;
    if (a == nullptr || b == nullptr) continue;
    std::vector<TermCursor*> two = {a, b};
    double bonus = Bonus(two);
    if (bonus <= 0) continue;
    ProximityExplanation pe{terms_[p.a].word, terms_[p.b].word, "", bonus};
    double best = 0;
    for (const Part& part : terms_[p.a].parts) {
      const std::vector<uint32_t>* pa = a->Positions(part.field);
      if (pa == nullptr || part.weight <= best) continue;
      const std::vector<uint32_t>* pb = b->Positions(part.field);
      if (pb != nullptr && Near(*pa, *pb)) {
        best = part.weight;
        pe.field = fields[part.field].name;
      }
    }
    ex.proximity.push_back(std::move(pe));
  }
  return ex;
}

Status Execution::MakeHits(std::vector<Entry> entries) {
  const auto& fields = r_.schema().fields();
  int column_field = r_.schema().Find(o_.column_field);
  std::unordered_set<std::string> all_terms, column_terms;
  for (const Term& t : terms_) {
    all_terms.insert(t.term);
    for (const Part& p : t.parts) {
      if (p.field == column_field) column_terms.insert(t.term);
    }
  }
  std::string_view id;
  std::vector<std::pair<int, std::string_view>> stored;
  for (size_t rank = o_.offset; rank < entries.size(); ++rank) {
    Entry& e = entries[rank];
    const Segment& seg = r_.segment(e.seg);
    Hit hit;
    hit.id = std::move(e.id);
    hit.score = e.score;
    if (!o_.stored && !o_.snippets && !o_.matches && !o_.explain) {
      result_.hits.push_back(std::move(hit));
      continue;
    }
    LAKEQA_RETURN_IF_ERROR(seg.Stored(e.doc, &id, &stored));
    for (const auto& [f, v] : stored) {
      if (f < 0 || static_cast<size_t>(f) >= fields.size())
        return lakeqa::Corrupt(seg.name() + ".sto: field number out of range");
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
    if (o_.matches) hit.matches = Matches(e.matched);
    if (o_.explain) hit.explanation = Explain(seg, e.doc);
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
            while (!hit.snippet.text.empty() && (hit.snippet.text.back() & 0xC0) == 0x80)
              hit.snippet.text.pop_back();
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
  result_.dropped = q_.dropped;
  // Words were given but none is left to search for: say so instead of listing every document.
  if (q_.terms.empty() && q_.filters.empty() && q_.words > 0) {
    result_.total = 0;
    result_.note = q_.dropped.empty()
                       ? "the query has no searchable words"
                       : "every word of the query is a stop word or question phrasing, so nothing is left to "
                         "search for (use --keep-stop-words, or search for what the question is about)";
    return std::move(result_);
  }
  if (terms_.empty() && !q_.terms.empty()) result_.note = "no dataset holds any of the query's words";
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
  LAKEQA_ASSIGN_OR_RETURN(std::vector<Entry> best, top_.Sorted());
  LAKEQA_RETURN_IF_ERROR(MakeHits(std::move(best)));
  LAKEQA_RETURN_IF_ERROR(ExplainIds());
  LAKEQA_RETURN_IF_ERROR(failure_);
  return std::move(result_);
}

Status Execution::ExplainIds() {
  const auto& fields = r_.schema().fields();
  std::string_view id;
  std::vector<std::pair<int, std::string_view>> stored;
  for (const std::string& want : o_.explain_ids) {
    std::string key(1, kIdFieldByte);
    key += want;
    for (size_t s = 0; s < r_.num_segments(); ++s) {
      const Segment& seg = r_.segment(s);
      int64_t t = seg.Find(key);
      if (t < 0) continue;
      PostingCursor c;
      for (c.Init(seg, seg.Info(static_cast<uint32_t>(t))); c.doc() != PostingCursor::kEnd; c.Next()) {
        if (r_.deletes(s).Get(c.doc())) continue;
        LAKEQA_RETURN_IF_ERROR(seg.Stored(c.doc(), &id, &stored));
        Hit h;
        h.id = want;
        for (const auto& [f, v] : stored) {
          if (f >= 0 && static_cast<size_t>(f) < fields.size())
            h.fields.emplace_back(fields[f].name, std::string(v));
        }
        Explanation ex = Explain(seg, c.doc());
        for (const TermExplanation& te : ex.terms) h.score += te.score;
        for (const ProximityExplanation& pe : ex.proximity) h.score += pe.bonus;
        h.explanation = std::move(ex);
        result_.explained.push_back(std::move(h));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

text::AnalyzerOptions QueryAnalyzerOptions(bool keep_stop_words) {
  text::AnalyzerOptions o;
  o.stop_words = !keep_stop_words;
  return o;
}

Searcher::Searcher(std::shared_ptr<const IndexReader> reader, text::AnalyzerOptions analyzer)
    : reader_(std::move(reader)), analyzer_(analyzer) {}

Result<Query> Searcher::Parse(std::string_view query, std::vector<Correction>* corrections,
                              const RankingParams* ranking) {
  LAKEQA_ASSIGN_OR_RETURN(Query q, ParseQuery(query, reader_->schema(), analyzer_));
  const RankingParams& rp = ranking != nullptr ? *ranking : reader_->ranking();
  std::vector<Correction> c = CorrectSpelling(*reader_, q, analyzer_, rp.fuzzy > 0);
  if (corrections != nullptr) *corrections = std::move(c);
  return q;
}

Result<SearchResult> Searcher::Search(std::string_view query, const SearchOptions& options) {
  std::vector<Correction> corrections;
  LAKEQA_ASSIGN_OR_RETURN(Query q, Parse(query, &corrections, options.ranking));
  LAKEQA_ASSIGN_OR_RETURN(SearchResult r, Search(q, options));
  r.corrections = std::move(corrections);
  return r;
}

Result<SearchResult> Searcher::Search(const Query& query, const SearchOptions& options) {
  Execution ex(*reader_, query, options, analyzer_);
  return ex.Run();
}

}  // namespace lakeqa::index
