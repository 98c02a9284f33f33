#include "index/manifest.h"
#include "index/segment.h"
#include "lakeqa/common/json.h"
#include "lakeqa/index/index.h"

namespace lakeqa::index {

IndexReader::~IndexReader() = default;

Result<std::shared_ptr<IndexReader>> IndexReader::Open(const std::string& dir, ReaderOptions options) {
  LAKEQA_ASSIGN_OR_RETURN(Manifest m, ReadManifest(dir));
  std::shared_ptr<IndexReader> r(new IndexReader());
  r->dir_ = dir;
  r->schema_ = m.schema;
  r->ranking_ = RankingParams::FromSchema(m.schema);
  if (!m.ranking.is_null()) {
    LAKEQA_ASSIGN_OR_RETURN(r->ranking_, RankingParams::FromJson(m.ranking, m.schema, r->ranking_));
  }
  r->generation_ = m.generation;
  for (const SegmentInfo& info : m.segments) {
    LAKEQA_ASSIGN_OR_RETURN(
        auto seg, Segment::Open(dir, info.name, m.schema.fields().size(), options.verify_checksums));
    if (seg->num_docs() != info.docs)
      return Corrupt(dir + "/" + info.name + ".nrm: holds " + std::to_string(seg->num_docs()) +
                     " documents, the manifest says " + std::to_string(info.docs));
    auto del = std::make_unique<DeleteBitmap>(seg->num_docs());
    if (info.del_gen > 0) {
      LAKEQA_ASSIGN_OR_RETURN(
          *del, DeleteBitmap::Read(DeletesFile(dir, info), seg->num_docs(), options.verify_checksums));
    }
    r->segs_.push_back(std::move(seg));
    r->deletes_.push_back(std::move(del));
  }
  return r;
}

uint64_t IndexReader::num_docs() const {
  uint64_t n = 0;
  for (size_t s = 0; s < segs_.size(); ++s) n += segs_[s]->num_docs() - deletes_[s]->count();
  return n;
}

}  // namespace lakeqa::index
