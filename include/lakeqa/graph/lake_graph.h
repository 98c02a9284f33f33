// The graph of a lake: every Neo4j-import node and relation file the catalog knows (found by its header:
// the catalog's profiled columns, or the file's first line when it was not profiled) read from the store
// into one graph folder. `lakeqa index build` calls it for <index>/graph/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::graph {

// A graph file that could not be read or taken (unreadable, a symbolic link leading outside the lake, over
// the size limit, a malformed header): the build goes on without it.
struct GraphFileError {
  std::string file;
  std::string code;  // CodeName() of the error
  std::string message;
};

struct LakeGraphReport {
  uint64_t node_files = 0, relation_files = 0;
  uint64_t nodes = 0, edges = 0;
  Schema schema;
  std::vector<GraphFileError> errors;  // one per file left out
  Json ToJson() const;  // counts, the problems (each with file and line) and the files left out
};

struct LakeGraphOptions {
  uint64_t max_file_bytes = 512ULL << 20;  // larger graph files are an error, not read
};

// Writes <graph_dir> when the lake has graph files; removes a stale <graph_dir> when it has none (and
// then returns a report with zero files). One bad file never fails the build: it goes to `errors`.
// Errors of the catalog, the index folder or the write are returned.
Result<LakeGraphReport> BuildLakeGraph(catalog::Catalog& catalog, lake::Store& store,
                                       const std::string& graph_dir, const LakeGraphOptions& options = {});

}  // namespace lakeqa::graph
