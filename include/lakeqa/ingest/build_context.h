// What a source reader gets from the lake builder: the shared state of one build (the store, the options,
// the thread-safe report) and the helpers every source uses to write objects and record skipped items and
// errors. Public so that a benchmark's own source kind (source_kind.h) reads its checkout the way the
// built-in kinds do.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/ingest/build.h"

namespace lakeqa::ingest {

// A set of 64-bit hashes in one open-addressing array (16 bytes per entry at worst, against ~40 for
// std::unordered_set): the builder remembers every folder it wrote to detect duplicates.
class HashSet64 {
 public:
  // Inserts h; false when it was already present.
  bool Insert(uint64_t h);
  size_t size() const { return size_; }

 private:
  void Grow();
  std::vector<uint64_t> slots_;  // 0 = empty; a real 0 hash is stored as 1
  size_t size_ = 0;
};

uint64_t HashBytes(std::string_view s);

class BuildContext {
 public:
  BuildContext(lake::Store& store, const BuildOptions& options, ProgressBar* progress, BuildReport& report);

  const BuildOptions& options() const { return options_; }
  lake::Store& store() { return store_; }
  size_t jobs() const;

  // Writes one object (atomically, via the store) and counts it. Repeated store failures make the
  // build fatal (the caller stops): a store that refuses every write is not an item-level problem.
  Status Put(const std::string& key, std::string_view data);

  // Makes every object written so far durable and readable through store() (a local lake in batch
  // durability holds back up to a batch); sources call it before reading back what they wrote.
  Status Commit();

  // Claims a dataset folder; false when an earlier item already claimed it (duplicate).
  bool Claim(std::string_view ns_and_folder);

  void Dataset(std::string_view kind);                        // one dataset written
  void Skip(std::string_view item, std::string_view reason);  // counted per reason, listed (capped)
  void Error(std::string_view item, const Status& status);    // counted, listed (capped)
  void DuplicateFile();
  void Detail(const std::string& key, Json value);

  // Set once the store has failed repeatedly; sources stop reading when it is.
  bool fatal() const { return fatal_.load(); }
  Status fatal_status();

 private:
  lake::Store& store_;
  const BuildOptions& options_;
  ProgressBar* progress_;
  BuildReport& report_;
  std::mutex mu_;
  HashSet64 claimed_;
  std::atomic<int> consecutive_write_failures_{0};
  std::atomic<bool> fatal_{false};
  Status fatal_status_;
};

// Files of a local folder tree, recursively, relative paths in byte order. Symlinks and special files
// are reported through `skipped` (they are never followed).
struct LocalFile {
  std::string relative;
  uint64_t size = 0;
};
Status ListLocalTree(const std::string& root, std::vector<LocalFile>& files,
                     std::vector<ReportItem>& skipped);

}  // namespace lakeqa::ingest
