// The parameters of lakeqa's BM25F ranking (docs/search.md "Ranking (BM25F)"):
//
//   x(t, d)   = sum over text fields f that t may match of w_f * tf_f(t, d) / (1 - b_f + b_f * len_f / avg_f)
//   score(d)  = sum over query terms t of  idf(t) * x * (k1 + 1) / (x + k1)
//             + proximity * sum over adjacent query-word pairs (s, t) found together in a field f both may
//               match of min(idf(s), idf(t)) * (largest such weight_f) / max_f weight_f
//   idf(t)    = log(1 + (N - df(t) + 0.5) / (df(t) + 0.5)), df(t) = max df_f(t) over the fields t may match
//
// A field marked `data` (sampled cell values) is left out of x and scored on its own, with its weight
// outside the saturation, so it adds at most weight * idf per term:
//   score(d) += sum over query terms t, data fields f of  idf(t) * w_f * n / (n + data_k1),
//               n = tf_f(t, d) / (1 - b_f + b_f * len_f(d) / avglen_f)
// Why: in one BM25F sum, a name repeated in a table's cells outranks the same name in another table's
// title; metadata should decide and cell values break ties or rescue a name found only in cells.
//
// They are stored in the text index manifest (index.json "ranking"), default to the schema's field
// weights and b with kDefaultK1 and kDefaultProximity, and can be overridden per search. The defaults for
// Schema::Datasets() were chosen by the grid search of `lakeqa eval tune` on a development collection.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/schema.h"

namespace lakeqa::index {

inline constexpr double kDefaultK1 = 1.2;
inline constexpr double kDefaultProximity = 0.0;
inline constexpr double kDefaultDataK1 = 1.2;
// Until the real-collection grid (docs/search.md "Tuning discipline") sets them: a correction counts as the
// word it corrects (as when it replaced it), and fuzzy matching is off, so today's rankings are unchanged.
inline constexpr double kDefaultCorrection = 1.0;
inline constexpr double kDefaultFuzzy = 0.0;
// Two query words are "together" when their positions in one field differ by 1 or 2 (either order).
inline constexpr uint32_t kProximityWindow = 2;

struct FieldRanking {
  double weight = 1.0;
  double b = 0.75;
  bool data = false;  // scored apart from the BM25F sum (above)
};

struct RankingParams {
  double k1 = kDefaultK1;
  double proximity = kDefaultProximity;
  double data_k1 = kDefaultDataK1;  // saturation of the data fields' own terms
  // Score factors of the terms the searcher adds beside a written word (searcher.h CorrectSpelling): the
  // spelling correction of a word no document holds, and a one-edit variant a metadata field holds (0:
  // no fuzzy matching).
  double correction = kDefaultCorrection;
  double fuzzy = kDefaultFuzzy;
  std::map<std::string, FieldRanking> fields;  // every text field of the schema, by name

  // k1 and proximity defaults, field weights and b from the schema.
  static RankingParams FromSchema(const Schema& schema);
  // {"k1", "proximity", "data_k1", "correction", "fuzzy", "fields": {"title": {"weight", "b", "data"}, ...}};
  // what is left out keeps `base`'s values.
  static Result<RankingParams> FromJson(const Json& j, const Schema& schema, const RankingParams& base);
  Json ToJson() const;
  // k1 >= 0, proximity >= 0, data_k1 > 0, correction and fuzzy in [0, 1], weights > 0, b in [0, 1], one entry
  // per text field of the schema.
  Status Validate(const Schema& schema) const;

  // One parameter by name: "k1", "proximity", "data_k1", "correction", "fuzzy", "<field>.weight",
  // "<field>.b", "<field>.data" (0 or 1) (flags and the grid search).
  Status Set(std::string_view name, double value);
  Result<double> Get(std::string_view name) const;
  // Every settable name, in a stable order.
  std::vector<std::string> Names() const;

  bool operator==(const RankingParams& o) const;
};

}  // namespace lakeqa::index
