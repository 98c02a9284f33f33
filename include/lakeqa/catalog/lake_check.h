// Which lake an index belongs to. An index is built from one lake (its manifest.json names it); the tools,
// the runner and the index builder open a lake and an index together, and must not silently pair an index
// with a lake that is missing or is another one (every listing would come back empty, every dataset
// "found" in the catalog and absent from the store).
#pragma once

#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::catalog {

struct LakeCheck {
  std::string lake;        // the store's URI
  std::string index_lake;  // the lake <index>/manifest.json names; empty when there is no manifest
  bool differs = false;    // both known and not the same lake
  // The warning to print and keep (run.json) when a different lake is used with --force.
  std::string Warning() const;
};

// Opens the lake for real (one bounded listing of its root): a folder or bucket that does not exist is
// not_found; with `require_objects`, so is one that holds nothing. Then compares the lake with the one
// <index_dir>/manifest.json names (local folders by their real path, so a symlink or a relative spelling
// of the same folder is the same lake).
Result<LakeCheck> CheckLake(lake::Store& store, const std::string& index_dir, bool require_objects);

}  // namespace lakeqa::catalog
