#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <set>

#include "index/manifest.h"
#include "index/mem_segment.h"
#include "index/merge.h"
#include "index/postings.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/log.h"
#include "lakeqa/index/index.h"

namespace lakeqa::index {

Result<std::unique_ptr<IndexWriter>> IndexWriter::Open(const std::string& dir, const Schema& schema,
                                                       WriterOptions options) {
  LAKEQA_RETURN_IF_ERROR(schema.Validate());
  LAKEQA_RETURN_IF_ERROR(MakeDirs(dir));
  std::unique_ptr<IndexWriter> w(new IndexWriter());
  w->dir_ = dir;
  w->options_ = options;
  std::string lock = dir + "/write.lock";
  w->lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (w->lock_fd_ < 0) return ErrnoStatus(errno, lock);
  if (::flock(w->lock_fd_, LOCK_EX | LOCK_NB) != 0)
    return Status(ErrorCode::kUnavailable, dir + ": another writer holds write.lock");
  auto m = ReadManifest(dir);
  if (m.ok()) {
    if (!m->schema.SameLayout(schema))
      return InvalidArgument(dir + ": the index was built with a different schema");
    if (m->analysis != kAnalysisVersion)
      return InvalidArgument(dir + ": the index was built with analysis version " +
                             std::to_string(m->analysis) + " (this build writes " +
                             std::to_string(kAnalysisVersion) + "): rebuild it");
    w->schema_ = schema;
    w->ranking_ = m->ranking;
    w->generation_ = m->generation;
    w->next_segment_ = m->next_segment;
    w->infos_ = m->segments;
    for (const SegmentInfo& info : w->infos_) {
      LAKEQA_ASSIGN_OR_RETURN(auto seg, Segment::Open(dir, info.name, schema.fields().size(), false));
      auto del = std::make_unique<DeleteBitmap>(seg->num_docs());
      if (info.del_gen > 0) {
        LAKEQA_ASSIGN_OR_RETURN(*del, DeleteBitmap::Read(DeletesFile(dir, info), seg->num_docs(), true));
      }
      w->segs_.push_back(std::move(seg));
      w->deletes_.push_back(std::move(del));
      w->deletes_dirty_.push_back(false);
    }
  } else if (m.status().code() == ErrorCode::kNotFound) {
    w->schema_ = schema;
    LAKEQA_RETURN_IF_ERROR(w->WriteManifest());  // an empty, valid index from the start
  } else {
    return m.status();
  }
  w->RemoveUnreferenced();
  w->buffer_ = std::make_unique<MemSegment>(w->schema_, w->options_.analyzer);
  return w;
}

IndexWriter::~IndexWriter() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing releases the flock
}

std::string IndexWriter::NewSegmentName() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "seg_%06llu", static_cast<unsigned long long>(next_segment_++));
  return buf;
}

Status IndexWriter::Add(const Document& doc) {
  LAKEQA_RETURN_IF_ERROR(buffer_->Add(doc));
  if (buffer_->num_docs() >= options_.max_buffered_docs || buffer_->bytes() >= options_.max_buffered_bytes)
    return Flush();
  return Status::Ok();
}

Status IndexWriter::Flush() {
  if (buffer_->num_docs() == 0) return Status::Ok();
  std::string name = NewSegmentName();
  auto del = std::make_unique<DeleteBitmap>();
  LAKEQA_RETURN_IF_ERROR(buffer_->Write(dir_, name, del.get()));
  LAKEQA_ASSIGN_OR_RETURN(auto seg, Segment::Open(dir_, name, schema_.fields().size(), false));
  SegmentInfo info;
  info.name = name;
  info.docs = seg->num_docs();
  infos_.push_back(info);
  segs_.push_back(std::move(seg));
  deletes_dirty_.push_back(del->count() > 0);
  deletes_.push_back(std::move(del));
  buffer_ = std::make_unique<MemSegment>(schema_, options_.analyzer);
  return Status::Ok();
}

Result<uint32_t> IndexWriter::Delete(std::string_view id) {
  uint32_t n = buffer_->Delete(id);
  std::string key(1, kIdFieldByte);
  key.append(id);
  PostingCursor cur;
  for (size_t s = 0; s < segs_.size(); ++s) {
    int64_t t = segs_[s]->Find(key);
    if (t < 0) continue;
    for (cur.Init(*segs_[s], segs_[s]->Info(static_cast<uint32_t>(t))); cur.doc() != PostingCursor::kEnd;
         cur.Next()) {
      if (deletes_[s]->Set(cur.doc())) {
        ++n;
        deletes_dirty_[s] = true;
      }
    }
    if (cur.corrupt())
      return Corrupt(segs_[s]->name() + ".pst: postings of id '" + std::string(id) + "' do not decode");
  }
  return n;
}

Status IndexWriter::SetRanking(const RankingParams& ranking) {
  LAKEQA_RETURN_IF_ERROR(ranking.Validate(schema_));
  ranking_ = ranking.ToJson();
  return Status::Ok();
}

Status IndexWriter::WriteManifest() {
  Manifest m;
  m.generation = generation_;
  m.next_segment = next_segment_;
  m.schema = schema_;
  m.segments = infos_;
  m.analysis = kAnalysisVersion;
  m.ranking = ranking_;
  return index::WriteManifest(dir_, m);
}

Status IndexWriter::Commit() {
  LAKEQA_RETURN_IF_ERROR(Flush());
  uint64_t gen = generation_ + 1;
  for (size_t s = 0; s < segs_.size(); ++s) {
    if (!deletes_dirty_[s]) continue;
    SegmentInfo next = infos_[s];
    next.del_gen = gen;
    next.deleted = deletes_[s]->count();
    LAKEQA_RETURN_IF_ERROR(deletes_[s]->Write(DeletesFile(dir_, next)));
    infos_[s] = next;
    deletes_dirty_[s] = false;
  }
  // Segment files were fsynced when written; the directory entries must be durable before the
  // manifest that names them.
  LAKEQA_RETURN_IF_ERROR(SyncDir(dir_));
  generation_ = gen;
  LAKEQA_RETURN_IF_ERROR(WriteManifest());
  RemoveUnreferenced();
  return Status::Ok();
}

Status IndexWriter::Merge() {
  LAKEQA_RETURN_IF_ERROR(Commit());
  bool any_deletes = false;
  for (const auto& d : deletes_) any_deletes |= d->count() > 0;
  if (segs_.size() <= 1 && !any_deletes) return Status::Ok();
  std::vector<const Segment*> segs;
  std::vector<const DeleteBitmap*> dels;
  for (size_t s = 0; s < segs_.size(); ++s) {
    segs.push_back(segs_[s].get());
    dels.push_back(deletes_[s].get());
  }
  std::string name = NewSegmentName();
  uint32_t n = 0;
  LAKEQA_RETURN_IF_ERROR(MergeSegments(dir_, name, schema_.fields().size(), segs, dels, &n));
  std::vector<SegmentInfo> infos;
  std::vector<std::shared_ptr<Segment>> opened;
  std::vector<std::unique_ptr<DeleteBitmap>> deletes;
  if (n > 0) {
    LAKEQA_ASSIGN_OR_RETURN(auto seg, Segment::Open(dir_, name, schema_.fields().size(), false));
    infos.push_back(SegmentInfo{name, n, 0, 0});
    deletes.push_back(std::make_unique<DeleteBitmap>(n));
    opened.push_back(std::move(seg));
  }
  LAKEQA_RETURN_IF_ERROR(SyncDir(dir_));
  infos_ = std::move(infos);
  segs_ = std::move(opened);
  deletes_ = std::move(deletes);
  deletes_dirty_.assign(segs_.size(), false);
  ++generation_;
  LAKEQA_RETURN_IF_ERROR(WriteManifest());
  RemoveUnreferenced();  // readers that still map the old segments keep their pages
  return Status::Ok();
}

// Removes segment and deletes files the current state does not name (left by a crash, replaced by a
// merge or a newer deletes generation) and stale manifest temp files. Best effort.
void IndexWriter::RemoveUnreferenced() {
  std::set<std::string> keep;
  for (const SegmentInfo& info : infos_) {
    for (const char* ext : {"tdi", "pst", "nrm", "sto"}) keep.insert(info.name + "." + ext);
    if (info.del_gen > 0) keep.insert(info.name + "_" + std::to_string(info.del_gen) + ".del");
  }
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return;
  std::vector<std::string> doomed;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    bool ours = n.rfind("seg_", 0) == 0 || n.rfind(std::string(kManifestName) + ".tmp.", 0) == 0;
    if (ours && keep.count(n) == 0) doomed.push_back(n);
  }
  ::closedir(d);
  for (const std::string& n : doomed) {
    if (::unlink((dir_ + "/" + n).c_str()) != 0) LAKEQA_LOG_WARN("could not remove {}/{}", dir_, n);
  }
}

}  // namespace lakeqa::index
