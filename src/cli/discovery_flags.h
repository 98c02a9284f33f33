// The relevance-collection flags of `lakeqa eval discovery` and `lakeqa eval tune`: one of a benchmark's
// questions (task_format.h: discovery_questions), LakeQA tasks, or TREC topics with qrels. Also the retrieval
// and ranking flags (search_flags.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/search_flags.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::cli {

struct CollectionFlags {
  std::string questions, ns, topics, qrels;  // ns: AddCollectionFlags sets the questions' default
  std::vector<std::string> tasks;
  bool skip_bad = false;
  std::string Describe() const;
};
void AddCollectionFlags(CLI::App* cmd, CollectionFlags& flags);
// Exactly one collection kind must be given; *skipped gets the tasks --skip-bad-tasks left out.
Result<std::vector<eval::DiscoveryQuestion>> LoadCollection(const CollectionFlags& flags,
                                                            std::vector<std::string>* skipped);

// What `eval discovery` and `eval tune` both take: the index, the collection, how to retrieve and rank, and
// the evaluation depth.
struct DiscoveryFlags {
  std::string index;
  CollectionFlags collection;
  RetrievalFlags retrieval;
  RankingFlags ranking;
  size_t k = 10;
};
void AddDiscoveryFlags(CLI::App* cmd, DiscoveryFlags& flags);

// The collection loaded, the index opened for it, and the ranking the flags give (nullopt: the index's own).
struct DiscoverySetup {
  std::vector<eval::DiscoveryQuestion> questions;
  std::vector<std::string> skipped;  // tasks --skip-bad-tasks left out
  index::RetrieverOptions retriever;
  std::unique_ptr<eval::DiscoveryRunner> runner;
  std::optional<index::RankingParams> ranking;
  // The flags' ranking, else the one the index records.
  index::RankingParams EffectiveRanking() const { return ranking ? *ranking : runner->index_ranking(); }
};
Result<DiscoverySetup> OpenDiscovery(const DiscoveryFlags& flags);

}  // namespace lakeqa::cli
