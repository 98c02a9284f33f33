// A relevance suite measured and checked against pinned metrics (`lakeqa eval suite`): every collection with
// plain BM25 and with the ranking in use, strict and twin-ok; pins catch a regression and a stale pin.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::eval {

// One runner per index, shared by the suite's collections over it.
using SuiteRunners = std::map<std::string, std::unique_ptr<DiscoveryRunner>>;
Result<SuiteRunners> OpenSuiteRunners(const std::vector<SuiteCollection>& suite,
                                      const index::RetrieverOptions& retriever);

// The metrics of one collection: plain BM25, the ranking measured, and the latter twin-ok.
struct SuiteMeasured {
  DiscoveryMetrics plain, used, twin_ok;
};
// Measures every collection; `used` is the ranking measured (nullopt: each index's own).
Result<std::vector<SuiteMeasured>> MeasureSuite(const std::vector<SuiteCollection>& suite,
                                                SuiteRunners& runners,
                                                const std::optional<index::RankingParams>& used, size_t k,
                                                const index::RetrieverOptions& retriever);

// The metrics pinned by WriteSuitePins and what CheckSuitePins compares.
inline constexpr const char* kPinnedMetrics[] = {"p@1", "r@5", "mrr", "ndcg@10"};

struct PinCheck {
  std::vector<std::string> regressions;  // below the pin by more than the tolerance
  std::vector<std::string> stale;        // above it by more than the tolerance, or not pinned
  bool ok() const { return regressions.empty() && stale.empty(); }
};
// Compares the measured metrics with the pins file ({"tolerance", "collections": {name: {metric: value}}};
// `tolerance` when the file gives none). An improvement re-pins, so the next drop is caught from there.
Result<PinCheck> CheckSuitePins(const std::string& pins_path, double tolerance,
                                const std::vector<SuiteCollection>& suite,
                                const std::vector<SuiteMeasured>& measured);
// The pins of the metrics measured now (kPinnedMetrics, to 4 decimals).
Json SuitePinsJson(double tolerance, const std::vector<SuiteCollection>& suite,
                   const std::vector<SuiteMeasured>& measured);
// Per collection: {"name", "split", "index", "questions", "plain_bm25", "metrics", "twin_ok", "skipped"?}.
Json SuiteCollectionsJson(const std::vector<SuiteCollection>& suite,
                          const std::vector<SuiteMeasured>& measured);

}  // namespace lakeqa::eval
