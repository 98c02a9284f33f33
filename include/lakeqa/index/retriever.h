// Dataset retrieval in the three modes lakeqa offers, behind one call, for the CLI, the evaluation and
// the tools: bm25 (the text index, searcher.h), vector (the vector index, vector_index.h, with the query
// embedded by the embedder its manifest names) and hybrid (both lists fused, hybrid.h). Hits of every mode
// carry the text index's stored fields, so they can be shown the same way (hit_view.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "lakeqa/common/status.h"
#include "lakeqa/index/embedder.h"
#include "lakeqa/index/hybrid.h"
#include "lakeqa/index/near_duplicates.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/index/vector_index.h"

namespace lakeqa::index {

enum class RetrievalMode { kBm25, kVector, kHybrid };
Result<RetrievalMode> ParseRetrievalMode(std::string_view name);  // "bm25", "vector", "hybrid"
std::string_view RetrievalModeName(RetrievalMode mode);

struct RetrieverOptions {
  RetrievalMode mode = RetrievalMode::kBm25;
  bool keep_stop_words = false;
  // vector/hybrid: how queries are embedded (the vector index's manifest names the embedder).
  std::string glove;      // GloVe binary; "" → $LAKEQA_GLOVE
  std::string embed_url;  // base URL of the OpenAI-compatible server for an http: vector index
  // hybrid: fusion of the top `depth` of each list.
  HybridOptions fusion;
  size_t depth = 100;
  // One hit per near-duplicate group (near_duplicates.h): the best-ranked member stands for the group,
  // whose other members its hit view lists with what differs.
  bool collapse = false;
};

// The query embedder the vector index at vi was built with: GloVe (options.glove or $LAKEQA_GLOVE) or
// an HTTP server (options.embed_url); InvalidArgument when it cannot be made or does not match.
Result<std::unique_ptr<Embedder>> OpenQueryEmbedder(const VectorIndex& vi, const RetrieverOptions& options);

class Retriever {
 public:
  // Opens <index_dir>/text (always: it holds what hits show) and, for vector/hybrid, <index_dir>/vectors.
  static Result<std::unique_ptr<Retriever>> Open(const std::string& index_dir,
                                                 const RetrieverOptions& options);

  // bm25: Searcher::Search. vector/hybrid: the top options.k after options.offset; filters and facets
  // are BM25-only (InvalidArgument in the other modes). Scores are the mode's own (BM25F, cosine, fused).
  Result<SearchResult> Search(std::string_view query, const SearchOptions& options);
  // The same for a query already parsed for the text index (its text is still needed to embed it).
  Result<SearchResult> Search(std::string_view text, const Query& query, const SearchOptions& options);

  Searcher& searcher() { return *searcher_; }
  const RetrieverOptions& options() const { return options_; }
  const NearDuplicates& duplicates() const { return duplicates_; }

 private:
  Retriever() = default;
  Result<SearchResult> Ranked(std::string_view text, const Query& query, const SearchOptions& options);
  // The stored fields of a dataset by id, as a hit (score 0), or nullopt when the text index lacks it.
  Result<std::optional<Hit>> Lookup(const std::string& id);

  RetrieverOptions options_;
  std::shared_ptr<const IndexReader> reader_;
  std::unique_ptr<Searcher> searcher_;
  std::unique_ptr<VectorIndex> vectors_;
  std::unique_ptr<Embedder> embedder_;
  NearDuplicates duplicates_;
};

}  // namespace lakeqa::index
