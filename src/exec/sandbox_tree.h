// Walking a sandbox directory without following symlinks (every folder is opened confined to the root,
// so a folder swapped for a link while code runs is not entered): the file list for views, and the
// sandbox's usage for its disk quota.
#pragma once

#include <time.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
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
  bool truncated = false;        // stopped at max_entries
};

// Hidden entries (names starting with '.') are skipped when skip_hidden; the sandbox's own .lakeqa
// folder is always skipped.
Result<TreeScan> ScanTree(const std::string& root, bool skip_hidden, size_t max_entries = 100000);

// The sandbox's usage against its quota: every entry (folders, files, links; .lakeqa included) and the
// allocated bytes of its files, each inode once, `exempt` inodes (dev, ino) not counted.
struct TreeUsage {
  uint64_t bytes = 0;
  uint64_t entries = 0;
  bool over_entries = false;  // more than max_entries: the walk stopped there, the tree is over the limit
};
using InodeSet = std::set<std::pair<uint64_t, uint64_t>>;
// Stops as soon as entries exceed max_entries: a tree larger than the limit is over it, so the walk never
// has to finish (it cannot be outrun by creating files faster than it reads them).
TreeUsage MeasureTree(const std::string& root, uint64_t max_entries, const InodeSet& exempt);

// Removes what was created under root at or after `since` (birth time where the file system records it,
// else change time), .lakeqa excepted: files first, then the folders left empty. Called only once the
// run's processes are dead, so the walk has no limit. Returns how many entries were removed.
uint64_t RemoveCreatedSince(const std::string& root, const struct timespec& since);

// realpath(3) or an error naming the path.
Result<std::string> RealDir(const std::string& path);

}  // namespace lakeqa::exec
