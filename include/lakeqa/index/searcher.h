// Ranked keyword search over an IndexReader.
//
// Scoring is BM25F (ranking.h has the formula and its parameters): per query term, the field weights and
// per-field length normalisation apply to the term frequency of every field it may match before one
// saturation, with one idf per term (its largest per-field df); a proximity bonus rewards adjacent query
// words found together in one field both may match. Field lengths, N and every df are taken over the live
// documents of all segments, so results do not depend on how documents are split into segments, nor on
// deleted ones. Lengths are the 1-byte quantised ones. Top-k is exact: MaxScore over per-term cursors
// (each the union of the term's per-field postings) with block-max upper bounds; ties are broken by id.
// tests/index/reference.h scores every document by the same formula, and the tests require equality.
// See docs/search.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::index {

// A parsed query. Scoring terms are ORed; phrases and filters are required.
struct TermClause {
  int field = -1;    // -1: every text field
  std::string term;  // analysed (folded, stemmed) text term, or a folded prefix
  bool prefix = false;
  std::string word;  // the query word it came from, as written ("" for terms built in code)
  // Ordinal of the query word among the words that produced terms; terms of one word (an identifier and
  // its parts) share it. Proximity pairs are terms of adjacent ordinals (kind kWord or kCompound).
  uint32_t position = 0;
  text::TokenKind kind = text::TokenKind::kWord;
  bool inferred = false;  // added by the parser (a season from "March 2009"), not written by the user
  // Multiplies the term's score: below 1 for a variant the searcher adds beside a written word (a spelling
  // correction, a fuzzy match), so the word as written always counts more.
  double boost = 1.0;
  // A term the searcher added beside a written word (CorrectSpelling): its score is also multiplied by
  // the ranking's `correction` or `fuzzy` factor.
  enum class Variant : uint8_t { kNone, kCorrection, kFuzzy };
  Variant variant = Variant::kNone;
};
struct PhraseClause {
  int field = -1;
  std::vector<std::pair<std::string, uint32_t>> terms;  // term, position relative to the first
};
struct FilterClause {
  int field = -1;                   // a keyword field
  std::vector<std::string> values;  // folded; any of them
};
struct Query {
  std::vector<TermClause> terms;
  std::vector<PhraseClause> phrases;  // their terms are also scoring terms
  std::vector<FilterClause> filters;  // different fields AND, values of one field OR
  std::vector<std::string> dropped;   // words left out as stop words or question phrasing, as written
  size_t words = 0;                   // words in the query text (dropped ones included)
};

// Query syntax: words, "quoted phrases", prefix*, field:value, field:"two words", field:prefix*.
// field:value on a keyword field is a filter (exact, folded); on a text-only field it restricts the
// terms to that field. Unknown field names are read as plain text.
// When the analyzer drops stop words (the query side), free-text words that only phrase the question are
// dropped too (text::IsQuestionWord anywhere, text::IsRequestWord in the run of dropped words the query
// starts with), and "<month> [of] <year>" also adds the season the month falls in ("March 2009" →
// 2008-09, "November 2008" → 2008-09; January–April belong to the season ending that year,
// October–December to the one starting in it) as an extra, inferred term.
Result<Query> ParseQuery(std::string_view text, const Schema& schema, text::Analyzer& analyzer);

// A word of the query that matches no text field, and the word the index holds that was searched for
// beside it.
struct Correction {
  std::string word;  // as written
  std::string term;  // the analysed term added beside it
};
// Spelling and near spellings, added to the query beside the words as written (never replacing them):
// - correction: a query word (letters only, at least 4 of them, not a prefix, not restricted to a keyword
//   field) whose term no live document holds gets the term of its one-edit variant (a letter deleted,
//   inserted, replaced, or two adjacent letters swapped) with the highest document frequency, if any
//   variant occurs (ties: the smaller term), as an extra term (Variant::kCorrection); returned, so
//   the result can say what else was searched for. Why not replace: a real word the index lacks
//   ("stage") is not a typo of the word it is one edit from ("state").
// - fuzzy: a query word of at least 5 letters that the index holds also matches every one-edit variant that a
// metadata field
//   holds (a text field the index's ranking does not mark as data, and not `coverage`), as a term
//   restricted to that field (Variant::kFuzzy), so a typo in a caption ("Feburary") still finds the
//   table. Not reported (explanations show the term).
// The ranking's `correction` and `fuzzy` factors discount them (ranking.h), so the word as written counts
// more; with `fuzzy` false (the ranking's fuzzy factor is 0, so the variants would score nothing) no
// variant is looked up, which is most of a query's time on a large dictionary (docs/benchmarks.md).
// Runs on the text index's terms, so it needs the reader.
std::vector<Correction> CorrectSpelling(const IndexReader& reader, Query& query, text::Analyzer& analyzer,
                                        bool fuzzy = true);

struct SearchOptions {
  size_t k = 20;
  size_t offset = 0;                       // hits to skip (paging: the ranking is exact, so pages are stable)
  const RankingParams* ranking = nullptr;  // overrides the index manifest's parameters
  size_t max_prefix_expansions = 128;      // per field, lexicographically first
  std::vector<std::string> facet_fields;   // keyword fields to count over the whole match set
  size_t facet_limit = 20;
  bool count_total = false;  // also count every match (implied by facets)
  bool exhaustive = false;   // score every match, no pruning (reference and debugging)
  bool stored = true;  // hits carry their stored fields (and matched columns); false: ids and scores only
  bool snippets = true;
  std::vector<std::string> snippet_fields = {"description", "content", "title"};
  size_t snippet_bytes = 200;
  std::string column_field = "columns";
  bool matches = true;   // Hit::matches: which query words matched in which field
  bool explain = false;  // Hit::explanation
  // Documents to explain whatever their rank (e.g. the gold datasets a ranking missed):
  // SearchResult::explained.
  std::vector<std::string> explain_ids;
};

struct Highlight {
  uint32_t start, end;  // byte offsets into Snippet::text
};
struct Snippet {
  std::string field;
  std::string text;
  std::vector<Highlight> highlights;
};

// Why a hit scored what it did (SearchOptions::explain): every query term with its contribution and
// the share of each field in it, then the proximity bonuses. `score` of the hit = the terms' scores +
// the proximity bonuses.
struct FieldExplanation {
  std::string field;
  uint32_t tf = 0;
  uint32_t length = 0;  // the field's (quantised) length in this document
  double avg_length = 0;
  double weight = 0, b = 0;
  double weighted_tf = 0;   // weight * tf / (1 - b + b * length / avg_length)
  double contribution = 0;  // the saturated x * weighted_tf / x; a data field: its own share (ranking.h)
  bool data = false;        // a data field, outside x
};
struct TermExplanation {
  std::string word;  // as written in the query (or the misspelled word it corrects)
  std::string term;
  double idf = 0;
  double x = 0;                          // sum of the non-data fields' weighted_tf
  double score = 0;                      // idf * x * (k1 + 1) / (x + k1) plus the data fields' shares
  std::vector<FieldExplanation> fields;  // fields holding the term
};
struct ProximityExplanation {
  std::string first, second;  // the two query words
  std::string field;          // the best field that holds them together
  double bonus = 0;
};
struct Explanation {
  double k1 = 0;
  std::vector<TermExplanation> terms;  // terms the document holds, in query order
  std::vector<std::string> unmatched;  // query words it does not hold
  std::vector<ProximityExplanation> proximity;
  Json ToJson() const;
  std::string ToText() const;  // indented lines for a terminal
};

struct Hit {
  std::string id;
  double score = 0;
  std::vector<std::pair<std::string, std::string>> fields;  // stored (field name, value)
  Snippet snippet;
  std::vector<std::string> matched_columns;
  // field name → the query words (as written) found in it, in query order (SearchOptions::matches).
  std::vector<std::pair<std::string, std::vector<std::string>>> matches;
  std::optional<Explanation> explanation;
};

// Every live document of the reader, in segment order, as a Hit with its stored fields (score 0); stops at
// the first error `visit` returns.
Status ForEachStoredDocument(const IndexReader& reader, const std::function<Status(const Hit&)>& visit);

struct FacetValue {
  std::string value;  // as written in the first matching document that holds it (facets match folded)
  uint64_t count = 0;
};

struct SearchStats {
  uint64_t scored_docs = 0;  // documents whose score was fully or partly computed
  uint64_t postings = 0;     // total postings of the scoring cursors
};

struct SearchResult {
  std::vector<Hit> hits;
  int64_t total = -1;  // matches, when counted (count_total or facets), else -1
  std::map<std::string, std::vector<FacetValue>> facets;
  SearchStats stats;
  // Why there are no hits when the reason is the query itself (e.g. every word was a stop word), else "".
  std::string note;
  std::vector<std::string> dropped;     // Query::dropped
  std::vector<Correction> corrections;  // spelling corrections made (Searcher::Search(text))
  // SearchOptions::explain_ids the index holds: stored fields, score and explanation (not ranked).
  std::vector<Hit> explained;
};

// The analyzer options of the query side: the index's analysis with stop words dropped.
text::AnalyzerOptions QueryAnalyzerOptions(bool keep_stop_words = false);

// One Searcher per thread (it owns an Analyzer); the reader may be shared. The default analyzer is the
// query side's (QueryAnalyzerOptions()).
class Searcher {
 public:
  explicit Searcher(std::shared_ptr<const IndexReader> reader,
                    text::AnalyzerOptions analyzer = QueryAnalyzerOptions());
  // Parses the text (ParseQuery) and corrects its spelling (CorrectSpelling). `ranking`: the parameters the
  // query will be scored with (null: the index's); fuzzy variants are added only when its fuzzy factor is >
  // 0.
  Result<Query> Parse(std::string_view query, std::vector<Correction>* corrections = nullptr,
                      const RankingParams* ranking = nullptr);
  // Parse + Search.
  Result<SearchResult> Search(std::string_view query, const SearchOptions& options = {});
  Result<SearchResult> Search(const Query& query, const SearchOptions& options = {});
  const IndexReader& reader() const { return *reader_; }
  text::Analyzer& analyzer() { return analyzer_; }

 private:
  std::shared_ptr<const IndexReader> reader_;
  text::Analyzer analyzer_;
};

}  // namespace lakeqa::index
