// A local, shared, read-only cache of downloaded lake objects. Many sessions download the same files
// (a popular 2 GB table); each object is streamed from the store once, checked, and then hard-linked
// into every sandbox that asks for it. Entries are keyed by store URI, key, etag and size, so a changed
// object is a new entry. The cache is private: folders 0700, files 0600 owned by the server's user — or
// 0640 with the sandbox user's group (reader_gid) when lakeqa runs as root and code runs as that user, who
// must read its hard links. Code in a sandbox can unlink its own name for a file but never change the
// shared bytes, and no other local user can read them.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
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
  // reader_gid >= 0: entries are 0640 with that group (the sandbox user's, when lakeqa runs as root).
  explicit DownloadCache(std::string dir, int reader_gid = -1)
      : dir_(std::move(dir)), reader_gid_(reader_gid) {}

  // Returns the cached copy of `object`, streaming it from `store` first when missing. The bytes read
  // must equal object.size, and when the etag is a plain MD5 (S3 single-part uploads) the MD5 must
  // match (corrupt otherwise). Past `deadline` the read stops with a timeout. Concurrent fetches of one
  // object are safe (each writes a temporary file and renames it into place).
  // `stop` (may be null) is polled between chunks: returning true abandons the fetch (cancelled).
  Result<CacheEntry> Fetch(lake::Store& store, const lake::ObjectInfo& object,
                           std::chrono::steady_clock::time_point deadline,
                           const std::function<bool()>& stop = nullptr);

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  int reader_gid_ = -1;
};

}  // namespace lakeqa::tools
