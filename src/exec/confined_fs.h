// The file system every lakeqa DuckDB uses instead of DuckDB's own: each path must lie in one of a few
// folders ("roots"), and every open goes through openat2(RESOLVE_BENEATH) on the root's descriptor, so the
// kernel refuses a ".." or a symlink that leaves the root at the moment of the open. Nothing is walked
// beforehand, so nothing can be outrun: a sandbox holding a million files and one link to /etc/shadow is
// as safe as an empty one. FIFOs, sockets and devices are never opened (an open could block forever).
//
// Paths are accepted in two spellings per root: its alias (what DuckDB and the agent see, e.g.
// /sandbox/x.csv, so results never show where the sandbox lives on the host) and its real host path.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <duckdb.h>

#include "lakeqa/common/status.h"

namespace lakeqa::exec {

struct FsRoot {
  std::string alias;      // absolute, e.g. "/sandbox"
  std::string host;       // real path of the folder
  bool writable = false;  // DuckDB may create, write, move and remove files here (the columnar cache only)
};

// One file DuckDB opened for reading.
struct OpenedFile {
  size_t root = 0;  // index into the roots
  std::string rel;  // path below the root, as DuckDB named it
  dev_t dev = 0;
  ino_t ino = 0;
};

// The files DuckDB opened, collected for D_acc (what a query really read, globs included).
class OpenLog {
 public:
  void Add(OpenedFile f) {
    std::lock_guard lock(mu_);
    if (files_.size() < kMax) files_.push_back(std::move(f));
  }
  std::vector<OpenedFile> Take() {
    std::lock_guard lock(mu_);
    return std::exchange(files_, {});
  }

 private:
  static constexpr size_t kMax = 100000;
  std::mutex mu_;
  std::vector<OpenedFile> files_;
};

// Makes the database opened with `config` use the confined file system (call before duckdb_open_ext).
// The roots' folders are opened now; an error names the one that could not be.
Status InstallConfinedFileSystem(duckdb_config config, const std::vector<FsRoot>& roots,
                                 std::shared_ptr<OpenLog> log);

}  // namespace lakeqa::exec
