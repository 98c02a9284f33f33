// A lake in a local folder. Listing walks directories lazily in byte order, so a page costs what it
// returns, not the size of the tree. A read never leaves the root: every open goes through
// openat2(RESOLVE_BENEATH) from the root, so a file or folder that is a symlink leading outside the lake
// (to /etc, to /etc/shadow) is refused (permission_denied) at the moment of the open; symlinks to files
// inside the lake are followed, symlinked directories are not walked into (a symlink loop can never trap
// a crawl). FIFOs, sockets and devices are never opened.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "lakeqa/lake/store.h"

namespace lakeqa::lake {

class DirCache;

// When a Write becomes durable.
enum class Durability {
  // Each Write fsyncs its temp file before renaming it into place: durable when Write returns.
  kPerObject,
  // For bulk writers (lake build): Write puts the bytes in a temp file beside the key without fsync and
  // queues the rename; Commit() (run automatically every batch_objects writes, and by the destructor)
  // syncs the file system once, renames every queued temp file into place in write order, and syncs
  // again. Until its batch commits, an object is invisible to readers (they see the previous object
  // or none), and a crash leaves only temp files ("<key>.tmp.<pid>.<n>"), never a partial object under
  // its key. One syncfs per batch instead of an fsync (and journal commit) per file, as git's
  // core.fsync=batch.
  kBatch,
};

class LocalStore : public Store {
 public:
  explicit LocalStore(std::string root);  // absolute path of the lake root
  ~LocalStore() override;                 // commits a pending batch (errors are logged)

  // Switching away from kBatch commits what is pending first.
  Status SetDurability(Durability durability, size_t batch_objects = 4096);
  Durability durability() const;
  // kBatch: makes every pending object durable and visible (see Durability). No-op when none pending.
  Status Commit();
  size_t PendingObjects() const;

  Result<ListPage> List(const ListOptions& options) override;
  Result<ObjectInfo> Stat(std::string_view key) override;
  Result<std::string> ReadRange(std::string_view key, uint64_t offset, uint64_t length) override;
  Status ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset = 0) override;
  Status Write(std::string_view key, std::string_view data) override;
  std::string Uri() const override { return "file://" + root_; }
  bool IsRemote() const override { return false; }

  const std::string& root() const { return root_; }

 private:
  std::string Path(std::string_view key) const { return root_ + "/" + std::string(key); }
  std::string root_;
  std::shared_ptr<DirCache> dir_cache_;  // sorted listings of recently walked folders

  mutable std::mutex batch_mu_;  // guards the fields below
  Durability durability_ = Durability::kPerObject;
  size_t batch_objects_ = 4096;
  std::vector<std::pair<std::string, std::string>> pending_;  // (temp file, final path), in write order
  std::mutex commit_mu_;  // one commit at a time, so batches are renamed in the order they were written
};

}  // namespace lakeqa::lake
