// A local, shared, read-only cache of downloaded lake objects. Many sessions download the same files
// (a popular 2 GB table); each object is streamed from the store once, checked, and then hard-linked
// into every sandbox that asks for it. Entries are keyed by store URI, key, etag and size, so a changed
// object is a new entry. Files are 0444 and owned by the server's user, so code in a sandbox can unlink
// its own name for a file but never change the shared bytes.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::tools {

struct CacheEntry {
  std::string path;    // absolute path of the cached file
  std::string sha256;  // hex digest of its bytes
  uint64_t size = 0;
  bool hit = false;  // it was already cached
};

class DownloadCache {
 public:
  explicit DownloadCache(std::string dir) : dir_(std::move(dir)) {}

  // Returns the cached copy of `object`, streaming it from `store` first when missing. The bytes read
  // must equal object.size, and when the etag is a plain MD5 (S3 single-part uploads) the MD5 must
  // match (corrupt otherwise). Past `deadline` the read stops with a timeout. Concurrent fetches of one
  // object are safe (each writes a temporary file and renames it into place).
  Result<CacheEntry> Fetch(lake::Store& store, const lake::ObjectInfo& object,
                           std::chrono::steady_clock::time_point deadline);

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace lakeqa::tools
