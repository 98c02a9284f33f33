// The relevance-collection flags of `lakeqa eval discovery` and `lakeqa eval tune`: one of CMDBench
// questions, LakeQA tasks, or TREC topics with qrels. Also the retrieval and ranking flags (search_flags.h).
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/search_flags.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::cli {

struct CollectionFlags {
  std::string questions, ns = "cmdbench", topics, qrels;
  std::vector<std::string> tasks;
  bool skip_bad = false;
  std::string Describe() const;
};
void AddCollectionFlags(CLI::App* cmd, CollectionFlags& flags);
// Exactly one collection kind must be given; *skipped gets the tasks --skip-bad-tasks left out.
Result<std::vector<eval::DiscoveryQuestion>> LoadCollection(const CollectionFlags& flags, std::vector<std::string>* skipped);

}  // namespace lakeqa::cli
