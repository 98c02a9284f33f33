// Flags shared by `lakeqa search`, `lakeqa eval discovery` and `lakeqa eval tune`: the retrieval mode
// with its embedder and fusion settings, and overrides of the index's ranking parameters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/index/retriever.h"

namespace lakeqa::cli {

struct RetrievalFlags {
  std::string mode = "bm25", glove, embed_url, fusion = "rrf";
  double vector_weight = index::kDefaultVectorWeight;
  double rrf_k = index::kDefaultRrfK;
  size_t depth = 100;
  bool keep_stop_words = false;
};
void AddRetrievalFlags(CLI::App* cmd, RetrievalFlags& flags);
Result<index::RetrieverOptions> ToRetrieverOptions(const RetrievalFlags& flags);

// --ranking FILE (a RankingParams JSON, e.g. from `lakeqa eval tune --out`), then --k1, --proximity,
// --field-weight f=w, --field-b f=b and --param name=value (any RankingParams name) on top of it.
struct RankingFlags {
  std::string file;
  std::optional<double> k1, proximity;
  std::vector<std::string> weights, bs, params;
  bool any() const {
    return !file.empty() || k1 || proximity || !weights.empty() || !bs.empty() || !params.empty();
  }
};
void AddRankingFlags(CLI::App* cmd, RankingFlags& flags);
// The index's parameters with the flags applied, or nullopt when no flag is given.
Result<std::optional<index::RankingParams>> ApplyRankingFlags(const RankingFlags& flags,
                                                              const index::Schema& schema,
                                                              const index::RankingParams& base);

}  // namespace lakeqa::cli
