// Ranked keyword search over an IndexReader.
//
// Scoring is a weighted sum of per-field BM25 (not BM25F): for every query term t and every text field
// f that holds it, w_f * idf_f(t) * tf*(k1+1) / (tf + k1*(1-b+b*len/avglen_f)), where idf_f and avglen_f
// come from field f's own statistics over the live documents of all segments (so results do not depend
// on how documents are split into segments, nor on deleted documents). Lengths are the 1-byte quantised
// ones. Top-k is exact: MaxScore over per-(field, term) cursors with block-max upper bounds; ties are
// broken by id. See docs/search.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/index/index.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::index {

// A parsed query. Scoring terms are ORed; phrases and filters are required.
struct TermClause {
  int field = -1;     // -1: every text field
  std::string term;   // analysed (folded, stemmed) text term, or a folded prefix
  bool prefix = false;
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
};

// Query syntax: words, "quoted phrases", prefix*, field:value, field:"two words", field:prefix*.
// field:value on a keyword field is a filter (exact, folded); on a text-only field it restricts the
// terms to that field. Unknown field names are read as plain text.
Result<Query> ParseQuery(std::string_view text, const Schema& schema, text::Analyzer& analyzer);

struct SearchOptions {
  size_t k = 20;
  double k1 = 1.2;
  double b = 0.75;
  size_t max_prefix_expansions = 128;   // per field, lexicographically first
  std::vector<std::string> facet_fields;  // keyword fields to count over the whole match set
  size_t facet_limit = 20;
  bool count_total = false;              // also count every match (implied by facets)
  bool exhaustive = false;               // score every match, no pruning (reference and debugging)
  bool snippets = true;
  std::vector<std::string> snippet_fields = {"description", "content", "title"};
  size_t snippet_bytes = 200;
  std::string column_field = "columns";
};

struct Highlight {
  uint32_t start, end;  // byte offsets into Snippet::text
};
struct Snippet {
  std::string field;
  std::string text;
  std::vector<Highlight> highlights;
};

struct Hit {
  std::string id;
  double score = 0;
  std::vector<std::pair<std::string, std::string>> fields;  // stored (field name, value)
  Snippet snippet;
  std::vector<std::string> matched_columns;
};

struct FacetValue {
  std::string value;
  uint64_t count = 0;
};

struct SearchStats {
  uint64_t scored_docs = 0;   // documents whose score was fully or partly computed
  uint64_t postings = 0;      // total postings of the scoring cursors
};

struct SearchResult {
  std::vector<Hit> hits;
  int64_t total = -1;  // matches, when counted (count_total or facets), else -1
  std::map<std::string, std::vector<FacetValue>> facets;
  SearchStats stats;
};

// One Searcher per thread (it owns an Analyzer); the reader may be shared.
class Searcher {
 public:
  explicit Searcher(std::shared_ptr<const IndexReader> reader, text::AnalyzerOptions analyzer = {});
  Result<SearchResult> Search(std::string_view query, const SearchOptions& options = {});
  Result<SearchResult> Search(const Query& query, const SearchOptions& options = {});
  const IndexReader& reader() const { return *reader_; }

 private:
  std::shared_ptr<const IndexReader> reader_;
  text::Analyzer analyzer_;
};

}  // namespace lakeqa::index
