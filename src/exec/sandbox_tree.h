// Walking a sandbox directory without following symlinks: the file list for views and FILES, its total
// size for the disk cap, and symlinks that point outside it (which a host-side reader such as DuckDB
// would follow, so they are refused or removed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::exec {

struct TreeEntry {
  std::string rel;  // path relative to the root, '/'-separated
  uint64_t size = 0;
  bool symlink = false;
};

struct TreeScan {
  std::vector<TreeEntry> files;  // regular files and symlinks, sorted by rel
  uint64_t bytes = 0;            // sum of regular file sizes (allocated blocks, so sparse files count as used)
  bool truncated = false;        // stopped at max_entries
};

// Hidden entries (names starting with '.') are skipped when skip_hidden; the sandbox's own .lakeqa
// folder is always skipped for listings but counted when count_internal (disk usage).
Result<TreeScan> ScanTree(const std::string& root, bool skip_hidden, size_t max_entries = 100000);
// Bytes used under root, .lakeqa included.
uint64_t TreeBytes(const std::string& root, size_t max_entries = 200000);
// Symlinks under root whose target (resolved on the host) is not inside root; relative paths.
std::vector<std::string> EscapingSymlinks(const std::string& root, size_t max_entries = 100000);
// realpath(3) or an error naming the path.
Result<std::string> RealDir(const std::string& path);

}  // namespace lakeqa::exec
