// The parameters of lakeqa's BM25F ranking (docs/search.md "Ranking (BM25F)"):
//
//   x(t, d)   = sum over text fields f that t may match of w_f * tf_f(t, d) / (1 - b_f + b_f * len_f / avg_f)
//   score(d)  = sum over query terms t of  idf(t) * x * (k1 + 1) / (x + k1)
//             + proximity * sum over adjacent query-word pairs (s, t) found together in a field f both may
//               match of min(idf(s), idf(t)) * (largest such weight_f) / max_f weight_f
//   idf(t)    = log(1 + (N - df(t) + 0.5) / (df(t) + 0.5)), df(t) = max df_f(t) over the fields t may match
//
// They are stored in the text index manifest (index.json "ranking"), default to the schema's field
// weights and b with kDefaultK1 and kDefaultProximity, and can be overridden per search. The defaults for
// Schema::Datasets() were chosen by the grid search of `lakeqa eval tune` on a development collection.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/schema.h"

namespace lakeqa::index {

inline constexpr double kDefaultK1 = 1.2;
inline constexpr double kDefaultProximity = 0.0;
// Two query words are "together" when their positions in one field differ by 1 or 2 (either order).
inline constexpr uint32_t kProximityWindow = 2;

struct FieldRanking {
  double weight = 1.0;
  double b = 0.75;
};

struct RankingParams {
  double k1 = kDefaultK1;
  double proximity = kDefaultProximity;
  std::map<std::string, FieldRanking> fields;  // every text field of the schema, by name

  // k1 and proximity defaults, field weights and b from the schema.
  static RankingParams FromSchema(const Schema& schema);
  // {"k1", "proximity", "fields": {"title": {"weight", "b"}, ...}}; fields left out keep `base`'s values.
  static Result<RankingParams> FromJson(const Json& j, const Schema& schema, const RankingParams& base);
  Json ToJson() const;
  // k1 >= 0, proximity >= 0, weights > 0, b in [0, 1], one entry per text field of the schema.
  Status Validate(const Schema& schema) const;

  // One parameter by name: "k1", "proximity", "<field>.weight", "<field>.b" (flags and the grid search).
  Status Set(std::string_view name, double value);
  Result<double> Get(std::string_view name) const;
  // Every settable name, in a stable order.
  std::vector<std::string> Names() const;

  bool operator==(const RankingParams& o) const;
};

}  // namespace lakeqa::index
