// From the catalog to the text indexes: one index::Document per dataset (Schema::Datasets(), under
// <index_dir>/text/) and, for RAG baselines, overlapping word windows of each dataset's text
// (Schema::Chunks(), under <index_dir>/chunks/). Both builds are incremental: a dataset is re-added only
// when the document it yields changed since the last build (a fingerprint per dataset is kept next to
// the index), and datasets gone from the catalog are deleted.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/catalog/catalog_fwd.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/near_duplicates.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/index/schema.h"

namespace lakeqa::index {

// Bounds on what one dataset contributes, so a dataset with thousands of files or columns cannot make
// one document (and the index buffer) unbounded.
struct DocOptions {
  size_t max_files = 200;               // file names indexed per dataset
  size_t max_columns = 512;             // column names
  size_t max_values_per_column = 20;    // sampled cell values per column
  size_t max_values_bytes = 16 * 1024;  // all sampled values of a dataset together
  size_t max_content_bytes = 8 * 1024;  // the content sample (text samples of non-tabular files)
  size_t max_description_bytes = 16 * 1024;
};

// The dataset's document: id "<namespace>/<dataset_id>", fields of Schema::Datasets(). Text repeated
// across metadata fields counts once: a description, tag or theme equal (folded) to the title or to a
// part of it ("page — section" titles) is left out. `coverage` holds the months and years the dataset
// covers (from the title, temporal coverage, numeric dates in the description and the samples of date
// columns), `rows` the data rows of its files ("14", or ">=120" when a file was read only in part).
Document DatasetDocument(const catalog::DatasetRecord& dataset, const std::vector<catalog::FileRecord>& files,
                         const DocOptions& options = {});

// A stable 64-bit fingerprint of a document (id and every field, in order).
uint64_t Fingerprint(const Document& doc);

// Chunk windows over a dataset's text (title, description, content samples): `window` words per chunk,
// consecutive chunks sharing `overlap` words, at most `max_words` words per dataset.
struct ChunkOptions {
  size_t window = 800;
  size_t overlap = 100;
  size_t max_words = 10000;
  Status Validate() const;
};
// Schema of the chunk index: dataset (keyword, the dataset id), namespace (keyword), title, text.
Schema ChunkSchema();
// Chunk documents have ids "<dataset id>#<n>" (n from 0).
std::vector<Document> ChunkDocuments(const catalog::DatasetRecord& dataset,
                                     const std::vector<catalog::FileRecord>& files,
                                     const ChunkOptions& chunks, const DocOptions& options = {});

struct TextBuildOptions {
  DocOptions docs;
  bool text = true;     // <index_dir>/text/
  bool chunks = false;  // <index_dir>/chunks/
  ChunkOptions chunk;
  bool progress = true;
  bool rebuild = false;  // drop the existing text indexes first
  // Merge policy: after the commit, an index of more segments than this is merged into one. A full build
  // over 1M datasets leaves ~28 segments, which makes 2-term queries ~10x slower (docs/benchmarks.md);
  // an incremental build adds one segment, so merges stay rare. 0 = never merge.
  size_t max_segments = 8;
  // Ranking parameters recorded in the text index manifest; unset: DatasetRanking(). Changing them
  // re-indexes nothing.
  std::optional<RankingParams> ranking;
};

// The ranking a dataset index records unless told otherwise: the schema's field weights and b with the
// values the grid search on the NBA development split chose (docs/search.md, "Ranking parameters").
RankingParams DatasetRanking();

struct TextBuildReport {
  uint64_t datasets = 0;  // datasets in the catalog
  uint64_t added = 0;     // new in the index
  uint64_t updated = 0;   // changed since the last build, re-added
  uint64_t unchanged = 0;
  uint64_t deleted = 0;                 // gone from the catalog
  uint64_t chunks = 0;                  // chunk documents written in this run (--chunks)
  uint64_t merged = 0;                  // indexes merged into one segment by the merge policy
  NearDuplicateReport near_duplicates;  // <index_dir>/near_duplicates.json, rewritten with the text index
  double seconds = 0;
  Json ToJson() const;
};

// Builds or updates the text index (and the chunk index when asked) from the catalog. Fingerprints are
// written (atomically) after the index commit; since every add deletes its id first, a crash between
// the two only means some datasets are re-added by the next run. A missing fingerprint file next to an
// existing index makes the next build start that index over.
Result<TextBuildReport> BuildTextIndex(catalog::Catalog& catalog, const std::string& index_dir,
                                       const TextBuildOptions& options = {});

}  // namespace lakeqa::index
