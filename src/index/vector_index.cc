#include "lakeqa/index/vector_index.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

// hnswlib 0.6.2's SSE path prefetches one entry past the end of a link list (searchBaseLayer reads
// datal[j + 1] for the last j): harmless on hardware, a heap-buffer-overflow under AddressSanitizer.
// Sanitized builds use its portable path; normal builds keep SIMD distances and prefetching.
#if defined(__SANITIZE_ADDRESS__) && !defined(NO_MANUAL_VECTORIZATION)
#define NO_MANUAL_VECTORIZATION
#endif
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

#include <hnswlib/hnswlib.h>

#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"

namespace lakeqa::index {
namespace {

constexpr int kVectorFormat = 1;
constexpr std::string_view kVectorManifest = catalog::IndexDir::kVectorsManifestName;

uint32_t Crc(std::string_view data) {
  uLong c = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths: feed large buffers in pieces.
  while (!data.empty()) {
    size_t n = std::min<size_t>(data.size(), 1u << 30);
    c = crc32(c, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(n));
    data.remove_prefix(n);
  }
  return static_cast<uint32_t>(c);
}

Status FsyncPath(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, path);
  int rc = ::fsync(fd);
  int e = errno;
  ::close(fd);
  return rc == 0 ? Status::Ok() : ErrnoStatus(e, path);
}

bool BetterHit(const VectorHit& a, const VectorHit& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.id < b.id;
}

}  // namespace

struct VectorIndex::Impl {
  std::unique_ptr<hnswlib::InnerProductSpace> space;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> graph;
  std::unordered_set<std::string> id_set;
};

VectorIndex::~VectorIndex() = default;

void L2Normalize(std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += static_cast<double>(x) * x;
  if (s <= 0) return;
  float inv = static_cast<float>(1.0 / std::sqrt(s));
  for (float& x : v) x *= inv;
}

Result<std::unique_ptr<VectorIndex>> VectorIndex::Create(const VectorIndexOptions& options) {
  if (options.dim == 0 || options.dim > 65536)
    return InvalidArgument("vector index: dim must be in 1..65536");
  if (options.M < 2 || options.M > 1024) return InvalidArgument("vector index: M must be in 2..1024");
  if (options.ef_construction == 0) return InvalidArgument("vector index: ef_construction must be > 0");
  std::unique_ptr<VectorIndex> ix(new VectorIndex());
  ix->options_ = options;
  ix->impl_ = std::make_unique<Impl>();
  ix->impl_->space = std::make_unique<hnswlib::InnerProductSpace>(options.dim);
  try {
    ix->impl_->graph = std::make_unique<hnswlib::HierarchicalNSW<float>>(
        ix->impl_->space.get(), 1024, options.M, options.ef_construction, options.seed);
    ix->impl_->graph->setEf(options.ef_search);
  } catch (const std::exception& e) {
    return ResourceExhausted(std::string("vector index: ") + e.what());
  }
  return ix;
}

Status VectorIndex::Add(std::string_view id, const std::vector<float>& vector) {
  if (vector.size() != options_.dim)
    return InvalidArgument("vector index: vector for '" + std::string(id) + "' has " +
                           std::to_string(vector.size()) + " values, expected " +
                           std::to_string(options_.dim));
  for (float x : vector) {
    if (!std::isfinite(x))
      return InvalidArgument("vector index: vector for '" + std::string(id) + "' is not finite");
  }
  if (id.empty() || id.find('\n') != std::string_view::npos)
    return InvalidArgument("vector index: document id must be non-empty and one line");
  if (impl_->id_set.count(std::string(id)))
    return Status(ErrorCode::kAlreadyExists,
                  "vector index: document id '" + std::string(id) + "' added twice");
  static_assert(sizeof(hnswlib::labeltype) >= sizeof(size_t));
  auto& graph = *impl_->graph;
  try {
    // hnswlib has a fixed capacity: grow it geometrically.
    if (graph.cur_element_count >= graph.max_elements_) graph.resizeIndex(graph.max_elements_ * 2);
    graph.addPoint(vector.data(), ids_.size());
  } catch (const std::exception& e) {
    return ResourceExhausted(std::string("vector index: adding '") + std::string(id) + "': " + e.what());
  }
  ids_.emplace_back(id);
  impl_->id_set.insert(ids_.back());
  data_.insert(data_.end(), vector.begin(), vector.end());
  return Status::Ok();
}

Result<std::vector<VectorHit>> VectorIndex::Search(const std::vector<float>& query, size_t k) const {
  if (query.size() != options_.dim)
    return InvalidArgument("vector search: query has " + std::to_string(query.size()) +
                           " values, index has dim " + std::to_string(options_.dim));
  std::vector<VectorHit> hits;
  if (k == 0 || ids_.empty()) return hits;
  try {
    auto pq = impl_->graph->searchKnn(query.data(), std::min(k, ids_.size()));
    while (!pq.empty()) {
      auto [dist, label] = pq.top();
      pq.pop();
      hits.push_back({ids_[label], 1.0f - dist});
    }
  } catch (const std::exception& e) {
    return Internal(std::string("vector search: ") + e.what());
  }
  std::sort(hits.begin(), hits.end(), BetterHit);
  return hits;
}

Result<std::vector<VectorHit>> VectorIndex::SearchExact(const std::vector<float>& query, size_t k) const {
  if (query.size() != options_.dim)
    return InvalidArgument("vector search: query has " + std::to_string(query.size()) +
                           " values, index has dim " + std::to_string(options_.dim));
  std::vector<VectorHit> all;
  all.reserve(ids_.size());
  const size_t d = options_.dim;
  for (size_t r = 0; r < ids_.size(); ++r) {
    // hnswlib's portable distance (1 - float dot); its SIMD kernels may differ in the last bits.
    float dist = hnswlib::InnerProductDistance(query.data(), data_.data() + r * d, &d);
    all.push_back({ids_[r], 1.0f - dist});
  }
  k = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k), all.end(), BetterHit);
  all.resize(k);
  return all;
}

Status VectorIndex::Save(const std::string& dir) const {
  LAKEQA_RETURN_IF_ERROR(MakeDirs(dir));
  const std::string manifest_path = dir + "/" + std::string(kVectorManifest);
  uint64_t generation = 1;
  Json old;
  if (PathExists(manifest_path)) {
    auto text = ReadFile(manifest_path, 1 << 20);
    if (text.ok()) {
      auto j = ParseJson(*text, manifest_path);
      if (j.ok() && j->is_object()) {
        old = *j;
        generation = old.value("generation", uint64_t{0}) + 1;
      }
    }
  }
  const std::string g = std::to_string(generation);
  const std::string graph_name = "hnsw-" + g + ".bin", ids_name = "ids-" + g + ".txt",
                    vec_name = "vectors-" + g + ".f32";
  std::string ids_text;
  for (const std::string& id : ids_) ids_text.append(id).push_back('\n');
  std::string_view vec_bytes(reinterpret_cast<const char*>(data_.data()), data_.size() * sizeof(float));
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/" + ids_name, ids_text));
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/" + vec_name, vec_bytes));
  try {
    impl_->graph->saveIndex(dir + "/" + graph_name);
  } catch (const std::exception& e) {
    return IoError(dir + "/" + graph_name + ": " + e.what());
  }
  LAKEQA_RETURN_IF_ERROR(FsyncPath(dir + "/" + graph_name));
  LAKEQA_ASSIGN_OR_RETURN(std::string graph_bytes, ReadFile(dir + "/" + graph_name));
  if (graph_bytes.empty()) return IoError(dir + "/" + graph_name + ": hnswlib wrote an empty file");

  Json m = {{"format", kVectorFormat},
            {"embedder", options_.embedder},
            {"dim", options_.dim},
            {"count", ids_.size()},
            {"M", options_.M},
            {"ef_construction", options_.ef_construction},
            {"ef_search", options_.ef_search},
            {"generation", generation},
            {"files", {{"graph", graph_name}, {"ids", ids_name}, {"vectors", vec_name}}},
            {"crc32", {{"graph", Crc(graph_bytes)}, {"ids", Crc(ids_text)}, {"vectors", Crc(vec_bytes)}}}};
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(manifest_path, DumpJson(m, 2) + "\n"));
  // The new manifest is durable: the previous generation's files are garbage now.
  if (old.is_object() && old.contains("files") && old["files"].is_object()) {
    for (auto& [k, v] : old["files"].items()) {
      if (!v.is_string()) continue;
      std::string name = v.get<std::string>();
      if (name.find('/') != std::string::npos || name == graph_name || name == ids_name || name == vec_name)
        continue;
      std::error_code ec;
      std::filesystem::remove(dir + "/" + name, ec);
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<VectorIndex>> VectorIndex::Load(const std::string& dir) {
  const std::string manifest_path = dir + "/" + std::string(kVectorManifest);
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(manifest_path, 1 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json m, ParseJson(text, manifest_path));
  auto bad = [&](const std::string& what) { return Corrupt(manifest_path + ": " + what); };
  try {
    if (!m.is_object()) return bad("not a JSON object");
    if (m.value("format", 0) != kVectorFormat)
      return Unsupported(manifest_path + ": vector index format " + m.value("format", Json()).dump() +
                         ", this build reads " + std::to_string(kVectorFormat));
    VectorIndexOptions o;
    o.dim = m.at("dim").get<size_t>();
    o.M = m.at("M").get<size_t>();
    o.ef_construction = m.at("ef_construction").get<size_t>();
    o.ef_search = m.value("ef_search", size_t{128});
    o.embedder = m.value("embedder", std::string());
    size_t count = m.at("count").get<size_t>();
    const Json& files = m.at("files");
    const Json& crcs = m.at("crc32");
    LAKEQA_ASSIGN_OR_RETURN(auto ix, Create(o));
    auto read_checked = [&](const char* key) -> Result<std::string> {
      std::string name = files.at(key).get<std::string>();
      if (name.empty() || name.find('/') != std::string::npos)
        return bad(std::string("bad file name for ") + key);
      LAKEQA_ASSIGN_OR_RETURN(std::string bytes, ReadFile(dir + "/" + name));
      if (Crc(bytes) != crcs.at(key).get<uint32_t>()) return Corrupt(dir + "/" + name + ": CRC-32 mismatch");
      return bytes;
    };
    LAKEQA_ASSIGN_OR_RETURN(std::string ids_text, read_checked("ids"));
    LAKEQA_ASSIGN_OR_RETURN(std::string vec_bytes, read_checked("vectors"));
    LAKEQA_ASSIGN_OR_RETURN(std::string graph_bytes, read_checked("graph"));
    graph_bytes.clear();
    graph_bytes.shrink_to_fit();
    size_t start = 0;
    while (start < ids_text.size()) {
      size_t nl = ids_text.find('\n', start);
      if (nl == std::string::npos) return bad("ids file does not end with a newline");
      ix->ids_.emplace_back(ids_text.substr(start, nl - start));
      if (!ix->impl_->id_set.insert(ix->ids_.back()).second)
        return bad("document id '" + ix->ids_.back() + "' repeats");
      start = nl + 1;
    }
    if (ix->ids_.size() != count)
      return bad("count " + std::to_string(count) + " but ids file has " + std::to_string(ix->ids_.size()));
    if (vec_bytes.size() != count * o.dim * sizeof(float))
      return bad("vectors file size does not match count * dim");
    ix->data_.resize(count * o.dim);
    if (!vec_bytes.empty()) std::memcpy(ix->data_.data(), vec_bytes.data(), vec_bytes.size());
    ix->impl_->graph = std::make_unique<hnswlib::HierarchicalNSW<float>>(
        ix->impl_->space.get(), dir + "/" + files.at("graph").get<std::string>(), false,
        std::max<size_t>(count, 1024));
    if (ix->impl_->graph->cur_element_count != count) return bad("graph holds a different number of vectors");
    ix->impl_->graph->setEf(o.ef_search);
    return ix;
  } catch (const Json::exception& e) {
    return bad(std::string("missing or mistyped field: ") + e.what());
  } catch (const std::exception& e) {
    return Corrupt(dir + ": loading the HNSW graph: " + e.what());
  }
}

void VectorIndex::set_ef_search(size_t ef) {
  options_.ef_search = std::max<size_t>(ef, 1);
  impl_->graph->setEf(options_.ef_search);
}

Status VectorIndex::CheckEmbedder(const Embedder& embedder) const {
  if (embedder.name() != options_.embedder)
    return InvalidArgument("vector index was built with embedder '" + options_.embedder +
                           "', queries come from '" + embedder.name() +
                           "': rebuild the vectors or use the same embedder");
  if (embedder.dim() != 0 && embedder.dim() != options_.dim)
    return InvalidArgument("vector index has dim " + std::to_string(options_.dim) + ", embedder '" +
                           embedder.name() + "' has " + std::to_string(embedder.dim()));
  return Status::Ok();
}

Result<RecallReport> MeasureRecall(const VectorIndex& index, const std::vector<std::vector<float>>& queries,
                                   size_t k) {
  RecallReport r;
  r.k = k;
  double sum = 0;
  for (const auto& q : queries) {
    LAKEQA_ASSIGN_OR_RETURN(auto exact, index.SearchExact(q, k));
    LAKEQA_ASSIGN_OR_RETURN(auto approx, index.Search(q, k));
    if (exact.empty()) continue;
    std::unordered_set<std::string> truth;
    for (auto& h : exact) truth.insert(h.id);
    size_t found = 0;
    for (auto& h : approx) found += truth.count(h.id);
    sum += static_cast<double>(found) / static_cast<double>(exact.size());
    ++r.queries;
  }
  r.recall = r.queries ? sum / static_cast<double>(r.queries) : 0;
  return r;
}

}  // namespace lakeqa::index
