// A lake in a local folder. Listing walks directories lazily in byte order, so a page costs what it
// returns, not the size of the tree. Symlinks to files are followed; symlinked directories are not (a
// symlink loop can never trap a crawl). FIFOs, sockets and devices are never opened.
#pragma once

#include <memory>
#include <string>

#include "lakeqa/lake/store.h"

namespace lakeqa::lake {

class DirCache;

class LocalStore : public Store {
 public:
  explicit LocalStore(std::string root);  // absolute path of the lake root

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
};

}  // namespace lakeqa::lake
