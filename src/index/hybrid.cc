#include "lakeqa/index/hybrid.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace lakeqa::index {

Result<std::vector<FusedItem>> Fuse(const std::vector<RankedList>& lists, const FusionOptions& options) {
  if (!(options.rrf_k >= 0) || !std::isfinite(options.rrf_k))
    return InvalidArgument("fusion: rrf_k must be a finite number >= 0");
  const size_t n = lists.size();
  std::unordered_map<std::string, size_t> slot;
  std::vector<FusedItem> out;
  for (size_t li = 0; li < n; ++li) {
    const RankedList& list = lists[li];
    if (!(list.weight >= 0) || !std::isfinite(list.weight))
      return InvalidArgument("fusion: list " + std::to_string(li) + " has a negative or non-finite weight");
    // Min-max bounds over the list's first occurrences (the ones that count).
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < list.items.size(); ++r) {
      const RankedItem& it = list.items[r];
      if (!std::isfinite(it.score))
        return InvalidArgument("fusion: list " + std::to_string(li) + " item '" + it.id +
                               "' has a non-finite score");
      lo = std::min(lo, it.score);
      hi = std::max(hi, it.score);
    }
    size_t rank = 0;
    for (const RankedItem& it : list.items) {
      auto [pos, inserted] = slot.try_emplace(it.id, out.size());
      if (inserted) {
        FusedItem f;
        f.id = it.id;
        f.ranks.assign(n, 0);
        f.scores.assign(n, 0.0);
        out.push_back(std::move(f));
      }
      FusedItem& f = out[pos->second];
      if (f.ranks[li] != 0) continue;  // repeated id in one list: the first (best) rank counts
      f.ranks[li] = ++rank;
      f.scores[li] = it.score;
      if (options.method == FusionMethod::kRrf) {
        f.score += list.weight / (options.rrf_k + static_cast<double>(rank));
      } else {
        double norm = hi > lo ? (it.score - lo) / (hi - lo) : 1.0;
        f.score += list.weight * norm;
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const FusedItem& a, const FusedItem& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.id < b.id;
  });
  if (options.limit > 0 && out.size() > options.limit) out.resize(options.limit);
  return out;
}

Result<std::vector<FusedItem>> FuseTextAndVectors(std::vector<RankedItem> text,
                                                  std::vector<RankedItem> vectors,
                                                  const HybridOptions& options) {
  if (!(options.vector_weight >= 0 && options.vector_weight <= 1))
    return InvalidArgument("hybrid: vector weight must be in [0, 1]");
  std::vector<RankedList> lists(2);
  lists[0].weight = 1.0 - options.vector_weight;
  lists[0].items = std::move(text);
  lists[1].weight = options.vector_weight;
  lists[1].items = std::move(vectors);
  FusionOptions fo;
  fo.method = options.method;
  fo.rrf_k = options.rrf_k;
  fo.limit = options.limit;
  return Fuse(lists, fo);
}

}  // namespace lakeqa::index
