// index.json: the one file that says which segments (and which deletes generation of each) make up
// the committed index. Replaced atomically on every commit.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/index/index.h"

namespace lakeqa::index {

struct Manifest {
  uint64_t generation = 0;
  uint64_t next_segment = 1;
  Schema schema;
  std::vector<SegmentInfo> segments;
  int analysis = 1;  // kAnalysisVersion of the analyzer that wrote the segments (1 when absent)
  Json ranking;      // RankingParams::ToJson(), or null: the schema's defaults
};

Result<Manifest> ReadManifest(const std::string& dir);
Status WriteManifest(const std::string& dir, const Manifest& m);
std::string DeletesFile(const std::string& dir, const SegmentInfo& info);

}  // namespace lakeqa::index
