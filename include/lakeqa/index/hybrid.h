// Hybrid ranking: fuses ranked lists (BM25 hits from the text index, nearest neighbours from the vector
// index) into one. Two methods:
//  - weighted Reciprocal Rank Fusion: score(d) = sum_i w_i / (k + rank_i(d)), rank 1-based, a list that
//    lacks d contributes 0 (Cormack et al. 2009; the LakeQA paper weights vectors 0.7, text 0.3, k = 60);
//  - linear fusion of min-max normalised scores: score(d) = sum_i w_i * (s_i(d) - min_i) / (max_i - min_i),
//    a list that lacks d contributes 0, a list whose scores are all equal normalises them to 1.
// Ties (equal fused score) are broken by id, ascending, so results are deterministic.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::index {

struct RankedItem {
  std::string id;
  double score = 0;  // only linear fusion reads it; the list order is the rank
};

struct RankedList {
  double weight = 1.0;
  std::vector<RankedItem> items;  // best first; an id repeated later in the same list is ignored
};

enum class FusionMethod { kRrf, kLinear };

struct FusionOptions {
  FusionMethod method = FusionMethod::kRrf;
  double rrf_k = 60;
  size_t limit = 20;  // 0: all
};

struct FusedItem {
  std::string id;
  double score = 0;
  // Per input list: 1-based rank and original score, rank 0 when the list lacks the id.
  std::vector<size_t> ranks;
  std::vector<double> scores;
};

// Invalid: a negative or non-finite weight or score, rrf_k < 0.
Result<std::vector<FusedItem>> Fuse(const std::vector<RankedList>& lists, const FusionOptions& options = {});

// The usual text + vector case: weights (1 - vector_weight) and vector_weight. The defaults (RRF, k 60,
// vector weight 0.02) were chosen on the NBA dev split (docs/search.md, "Hybrid"): with GloVe vectors a
// larger vector weight costs P@1, so the vector list only reorders hits of adjacent text ranks.
inline constexpr double kDefaultVectorWeight = 0.02;
inline constexpr double kDefaultRrfK = 60;
struct HybridOptions {
  FusionMethod method = FusionMethod::kRrf;
  double vector_weight = kDefaultVectorWeight;
  double rrf_k = kDefaultRrfK;
  size_t limit = 20;
};
Result<std::vector<FusedItem>> FuseTextAndVectors(std::vector<RankedItem> text,
                                                  std::vector<RankedItem> vectors,
                                                  const HybridOptions& options = {});

}  // namespace lakeqa::index
