// The whole `lakeqa index build` pipeline over one lake: the catalog, then the text index of its datasets
// (and the chunk index for RAG baselines), sources.json, the graph of Neo4j-import files, the paragraph
// index of doc-source pages and the vector index. It lives in graph/ because that is the first module that
// knows every step (catalog, index and graph); the CLI verb, the demo and tests call it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/graph/lake_graph.h"
#include "lakeqa/index/catalog_docs.h"
#include "lakeqa/index/paragraphs.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/index/sources.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::graph {

struct IndexBuildOptions {
  std::string index_dir;
  // auto: full on a local lake (reading is cheap and a head's counts would be guesses), head on a remote
  // store (every byte is a paid request); none, head or full as catalog::ParseProfileMode reads them.
  std::string profile = "auto";
  size_t jobs = 0;                        // profiling threads; 0 = cores
  uint64_t debug_kill_after_batches = 0;  // test hook of the catalog build
  bool force_other_lake = false;          // replace an index built from another lake
  bool text = true;                       // <index>/text/ and <index>/paragraphs/
  bool chunks = false;                    // <index>/chunks/
  index::ChunkOptions chunk;
  bool rebuild_text = false;                    // drop and rebuild the text (and chunk) indexes
  std::optional<index::RankingParams> ranking;  // recorded in the text index; nullopt: the default
  // The vector index (<index>/vectors/): "" for none, "glove" (the GloVe binary at `glove`, or the default)
  // or "http:<base url>" of an OpenAI-compatible /v1/embeddings server.
  std::string vectors;
  std::string glove;
  std::string embed_model = "text-embedding-3-small";
  std::string embed_key_env = "OPENAI_API_KEY";
  bool progress = true;  // progress bars on stderr
  // Called once the catalog's listing is done, with the cost of the profiling phase, before any read.
  std::function<void(const Json& estimate)> on_estimate;
  // The catalog build's warnings (another lake's index replaced), as soon as the catalog is done.
  std::function<void(const std::string& warning)> on_warning;
  // A long step about to start that a user should hear of (the vector index rebuilt whole).
  std::function<void(const std::string& note)> on_note;
};

// What the vector index step did.
struct VectorBuildSummary {
  std::string embedder;    // Embedder::name()
  bool rebuilt = false;    // false: it already embedded exactly the current text index
  uint64_t documents = 0;  // datasets in the vector index
  uint64_t empty = 0;      // when rebuilt: datasets with no embeddable text
  Json ToJson() const;
};

struct IndexBuildReport {
  std::string index_dir;
  std::string lake;  // the store's URI
  catalog::BuildReport catalog;
  std::optional<index::TextBuildReport> text;  // when the text or chunk index was built
  index::SourceSummaries sources;
  LakeGraphReport graph;
  std::optional<index::ParagraphBuildReport> paragraphs;  // when the text index was built
  std::optional<VectorBuildSummary> vectors;              // when options.vectors named an embedder
  // The catalog report with "index", "lake", "text", "vectors", "sources", "graph" and "paragraphs".
  Json ToJson() const;
};

// Builds or updates every index of <options.index_dir> from `store`. A bad `vectors`, `profile` or `chunk`
// fails before the lake is read. When the folder held no index before and a step fails, the build's files
// are removed (catalog::FirstBuildCleanup); one bad lake file never fails it (it is in the reports).
Result<IndexBuildReport> BuildIndex(lake::Store& store, const IndexBuildOptions& options);

}  // namespace lakeqa::graph
