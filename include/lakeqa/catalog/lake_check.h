// Which lake an index belongs to. An index is built from one lake (its manifest.json names it); the tools,
// the runner and the index builder open a lake and an index together, and must not silently pair an index
// with a lake that is missing or is another one (every listing would come back empty, every dataset
// "found" in the catalog and absent from the store).
#pragma once

#include <memory>
#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::catalog {

// What identifies a lake's content: SHA-256 over its sorted "key<TAB>size" lines. Etags and mtimes are left
// out, as they change when a folder is copied or moved (a local etag holds the inode); the bytes are
// not read, so two lakes holding the same keys with the same sizes count as one lake.
class ContentFingerprint {
 public:
  ContentFingerprint();
  ~ContentFingerprint();
  // Keys must come in byte order (a store listing's order, SQLite's ORDER BY key).
  void Add(const std::string& key, uint64_t size);
  std::string Finish();  // lowercase hex

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

// The fingerprint of every object in the store (a full listing: one LIST request per 1,000 keys on S3).
Result<std::string> LakeContentFingerprint(lake::Store& store);

struct LakeCheck {
  std::string lake;        // the store's URI
  std::string index_lake;  // the lake <index>/manifest.json names; empty when there is no manifest
  bool differs = false;    // both known and not the same lake
  // Another path, but the content the index was built from (the fingerprints agree): the lake was copied
  // or moved. Such a lake is not `differs`.
  bool moved = false;
  // The warning to print and keep (run.json) when a different lake is used with --force.
  std::string Warning() const;
};

// Opens the lake for real (one bounded listing of its root): a folder or bucket that does not exist is
// not_found; with `require_objects`, so is one that holds nothing. Then compares the lake with the one
// <index_dir>/manifest.json names: by location first (local folders by their real path, so a symlink or
// a relative spelling of the same folder is the same lake); when the locations differ, by content — the
// lake's fingerprint against the catalog's (manifest.json's lake_content_sha256, or computed from
// catalog.sqlite for an index written before it was recorded).
Result<LakeCheck> CheckLake(lake::Store& store, const std::string& index_dir, bool require_objects);

}  // namespace lakeqa::catalog
