// Dataset-discovery evaluation: run each question as a search over the text index and score the ranked
// dataset ids against the gold datasets. Questions come in CMDBench's table-discovery format
// ([{"qid", "question", "provenance_table": {"table": "t_1_13619135_7", ...}}, ...]); a gold table name
// maps to the dataset id the cmdbench lake builder gives it ("cmdbench/" + NameToFolder(table)).
//
// Metrics per question (gold set G, ranked list r_1..r_n cut at the evaluation depth k):
//   P@1 = [r_1 in G];  R@j = |G ∩ {r_1..r_j}| / |G| for j = 1, 3, 5, 10;
//   R-precision = |G ∩ {r_1..r_|G|}| / |G|;  MRR = 1 / (rank of the first gold id), 0 when none is in the
//   top k. Overall values are means over questions.
// Ties: the searcher orders equal scores by id ascending (deterministic). Because that can favour or
// hurt gold ids by name alone, R@1 is also reported in expectation under random tie-breaking:
//   E[R@1] = (gold ids among the T ids tied at the top score) / T / |G|.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::eval {

struct DiscoveryQuestion {
  std::string qid;
  std::string question;
  std::vector<std::string> gold;  // dataset ids ("cmdbench/t_1_13619135_7")
};

// The dataset id the cmdbench lake builder gives a WikiSQL table.
std::string CmdbenchTableDatasetId(std::string_view table, std::string_view ns = "cmdbench");

// Reads CMDBench table-discovery questions; provenance_table.table is a name or a list of names.
// An item without a question or gold table is an error naming the file and the item.
Result<std::vector<DiscoveryQuestion>> LoadCmdbenchQuestions(const std::string& path, std::string_view ns = "cmdbench");

struct ScoredId {
  std::string id;
  double score = 0;
};

struct DiscoveryMetrics {
  double p_at_1 = 0, r_at_1 = 0, r_at_3 = 0, r_at_5 = 0, r_at_10 = 0, r_precision = 0, mrr = 0;
  double r_at_1_random = 0;  // expected R@1 under random tie-breaking
  Json ToJson() const;
};

// `ranked` is best first (as the searcher returns it, ties by id); only its first `k` entries count,
// except that the top tie group is read whole for r_at_1_random.
DiscoveryMetrics ComputeDiscoveryMetrics(const std::vector<ScoredId>& ranked, const std::vector<std::string>& gold,
                                         size_t k);

struct DiscoveryOptions {
  size_t k = 10;               // evaluation depth
  size_t tie_depth = 1000;     // hits fetched so the top tie group is seen whole
  bool drop_stop_words = true; // query-side stop words (see docs/search.md)
};

struct QuestionResult {
  DiscoveryQuestion question;
  std::vector<ScoredId> top;        // the first k hits
  std::vector<std::string> missing_gold;  // gold ids that are not in the index
  size_t top_ties = 0;              // ids tied at the top score
  DiscoveryMetrics metrics;
};

struct DiscoveryReport {
  std::vector<QuestionResult> questions;
  DiscoveryMetrics overall;
  size_t k = 10;
  Json ToJson() const;
};

// Runs every question against <index_dir>/text/.
Result<DiscoveryReport> RunDiscovery(const std::string& index_dir, const std::vector<DiscoveryQuestion>& questions,
                                     const DiscoveryOptions& options = {});

}  // namespace lakeqa::eval
