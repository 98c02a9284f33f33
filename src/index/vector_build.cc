// BuildDatasetVectors: the text index's stored dataset fields → embeddings → <index_dir>/vectors/.
// Reading the text index (not the catalog) keeps this step independent of how documents were made.
#include <cmath>

#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/index/vector_index.h"

namespace lakeqa::index {
namespace {

// Fields that say what a dataset is about, in the order they are joined: the metadata BM25 also scores.
// Values and content are left out: sampled cell values and raw text drown the topic in a word average.
constexpr const char* kEmbedFields[] = {"title",    "description", "tags",       "theme",
                                        "category", "columns",     "file_names", "coverage"};
constexpr size_t kMaxTextBytes = 16384;  // per document: bounds memory and request size

}  // namespace

std::string DatasetEmbeddingText(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const char* want : kEmbedFields) {
    for (const auto& [name, value] : fields) {
      if (name != want || value.empty()) continue;
      if (out.size() + value.size() + 1 > kMaxTextBytes) return out;
      if (!out.empty()) out += '\n';
      out += value;
    }
  }
  return out;
}

Result<BuildVectorsReport> BuildDatasetVectors(const std::string& index_dir, Embedder& embedder,
                                               const BuildVectorsOptions& options) {
  if (options.batch == 0) return InvalidArgument("vector build: batch must be > 0");
  LAKEQA_ASSIGN_OR_RETURN(auto reader, IndexReader::Open(catalog::IndexDir(index_dir).Text()));
  std::unique_ptr<VectorIndex> vix;
  BuildVectorsReport report;
  std::vector<std::string> ids, texts;

  auto flush = [&]() -> Status {
    if (texts.empty()) return Status::Ok();
    LAKEQA_ASSIGN_OR_RETURN(auto vecs, embedder.Embed(texts));
    if (vecs.size() != texts.size())
      return Internal("vector build: embedder " + embedder.name() + " returned " +
                      std::to_string(vecs.size()) + " vectors for " + std::to_string(texts.size()) +
                      " texts");
    if (!vix) {
      if (vecs.front().empty())
        return InvalidArgument("vector build: embedder " + embedder.name() + " returned empty vectors");
      VectorIndexOptions vo;
      vo.dim = vecs.front().size();
      vo.M = options.M;
      vo.ef_construction = options.ef_construction;
      vo.embedder = embedder.name();
      LAKEQA_ASSIGN_OR_RETURN(vix, VectorIndex::Create(vo));
    }
    for (size_t i = 0; i < vecs.size(); ++i) {
      double norm = 0;
      for (float x : vecs[i]) norm += static_cast<double>(x) * x;
      if (norm == 0) ++report.empty;
      LAKEQA_RETURN_IF_ERROR(vix->Add(ids[i], vecs[i]).WithContext("vector build"));
      ++report.documents;
    }
    ids.clear();
    texts.clear();
    return Status::Ok();
  };

  LAKEQA_RETURN_IF_ERROR(ForEachStoredDocument(*reader, [&](const Hit& doc) -> Status {
    ids.push_back(doc.id);
    texts.push_back(DatasetEmbeddingText(doc.fields));
    if (texts.size() >= options.batch) return flush();
    return Status::Ok();
  }));
  LAKEQA_RETURN_IF_ERROR(flush());
  if (!vix) {
    // An empty text index still gets a (empty) vector index, so searches find a consistent state.
    if (embedder.dim() == 0)
      return InvalidArgument("vector build: " + index_dir +
                             "/text has no documents and the embedder's dimension is unknown");
    VectorIndexOptions vo;
    vo.dim = embedder.dim();
    vo.M = options.M;
    vo.ef_construction = options.ef_construction;
    vo.embedder = embedder.name();
    LAKEQA_ASSIGN_OR_RETURN(vix, VectorIndex::Create(vo));
  }
  LAKEQA_RETURN_IF_ERROR(vix->Save(catalog::IndexDir(index_dir).Vectors()));
  return report;
}

}  // namespace lakeqa::index
