// The graph of a lake: every Neo4j-import node and relation file the catalog knows (found by its header:
// the catalog's profiled columns, or the file's first line when it was not profiled) read from the store
// into one graph folder. `lakeqa index build` calls it for <index>/graph/.
#pragma once

#include <cstdint>
#include <string>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::graph {

struct LakeGraphReport {
  uint64_t node_files = 0, relation_files = 0;
  uint64_t nodes = 0, edges = 0;
  Schema schema;
  Json ToJson() const;  // counts and the problems (each with file and line)
};

struct LakeGraphOptions {
  uint64_t max_file_bytes = 512ULL << 20;  // larger graph files are an error, not read
};

// Writes <graph_dir> when the lake has graph files; removes a stale <graph_dir> when it has none (and
// then returns a report with zero files).
Result<LakeGraphReport> BuildLakeGraph(catalog::Catalog& catalog, lake::Store& store, const std::string& graph_dir,
                                       const LakeGraphOptions& options = {});

}  // namespace lakeqa::graph
