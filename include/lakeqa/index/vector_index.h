// Approximate nearest-neighbour search over embeddings (hnswlib's HNSW graph, inner product on
// L2-normalised vectors = cosine), beside the text index in <index_dir>/vectors/:
//   manifest.json       {"format": 1, "embedder", "dim", "count", "M", "ef_construction", "ef_search",
//                        "generation", "files": {"graph", "ids", "vectors"}, "crc32": {...}}
//   hnsw-<gen>.bin      hnswlib's own graph file (labels are row numbers)
//   ids-<gen>.txt       one document id per line, row order
//   vectors-<gen>.f32   the raw vectors, row-major little-endian float32 (exact search, recall, rebuilds)
// Save writes the generation's files, fsyncs them, then replaces manifest.json atomically and removes the
// previous generation's files, so a crash leaves the old or the new index readable, never a mix. Load
// checks every file's CRC-32 against the manifest before hnswlib reads it (hnswlib trusts its input).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/index/embedder.h"

namespace lakeqa::index {

struct VectorIndexOptions {
  size_t dim = 0;
  size_t M = 16;  // graph degree
  size_t ef_construction = 200;
  size_t ef_search = 128;  // raised to k; recall@10 0.97 on real GloVe words (docs/vectors.md)
  uint64_t seed = 100;
  std::string embedder;  // name of the embedding space, checked on load and query
};

struct VectorHit {
  std::string id;
  float score = 0;  // inner product (cosine for unit vectors)
};

class VectorIndex {
 public:
  static Result<std::unique_ptr<VectorIndex>> Create(const VectorIndexOptions& options);
  // Loads <dir>/manifest.json and the files it names.
  static Result<std::unique_ptr<VectorIndex>> Load(const std::string& dir);
  ~VectorIndex();

  // The vector must have dim() finite floats; ids must be unique (AlreadyExists otherwise).
  Status Add(std::string_view id, const std::vector<float>& vector);
  Status Save(const std::string& dir) const;

  // Approximate k nearest by inner product, best first, ties by id.
  Result<std::vector<VectorHit>> Search(const std::vector<float>& query, size_t k) const;
  // Exact: scores every vector.
  Result<std::vector<VectorHit>> SearchExact(const std::vector<float>& query, size_t k) const;
  // Not concurrent with Search; searches may run concurrently with each other (hnswlib's searchKnn).
  void set_ef_search(size_t ef);
  // InvalidArgument unless `embedder` made this index's vectors (same name and dimension): vectors of
  // two embedding spaces are not comparable, however equal their lengths.
  Status CheckEmbedder(const Embedder& embedder) const;

  size_t size() const { return ids_.size(); }
  size_t dim() const { return options_.dim; }
  const VectorIndexOptions& options() const { return options_; }
  const std::string& id(size_t row) const { return ids_[row]; }

 private:
  VectorIndex() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  VectorIndexOptions options_;
  std::vector<std::string> ids_;
  std::vector<float> data_;  // rows * dim
};

// Mean over queries of |approximate top-k ∩ exact top-k| / |exact top-k|.
struct RecallReport {
  size_t queries = 0;
  size_t k = 0;
  double recall = 0;
};
Result<RecallReport> MeasureRecall(const VectorIndex& index, const std::vector<std::vector<float>>& queries,
                                   size_t k = 10);

// Embeds every live dataset document of the text index at <index_dir>/text/ (title, description, tags,
// theme, category, columns, file names from its stored fields) and writes <index_dir>/vectors/.
struct BuildVectorsOptions {
  size_t batch = 256;
  size_t M = 16;
  size_t ef_construction = 200;
};
struct BuildVectorsReport {
  size_t documents = 0;
  size_t empty = 0;  // documents whose text embedded to the zero vector
};
Result<BuildVectorsReport> BuildDatasetVectors(const std::string& index_dir, Embedder& embedder,
                                               const BuildVectorsOptions& options = {});
// The text BuildDatasetVectors embeds for one document's stored fields.
std::string DatasetEmbeddingText(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace lakeqa::index
