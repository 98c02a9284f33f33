// `lakeqa index build`: crawls a lake into the catalog. Three phases, each restartable:
//  1. list: every object's key, size and etag go into `files` (LIST requests only); unchanged files keep
//     their profile, changed ones are marked for profiling; files gone from the lake are removed.
//  2. profile: the marked files are read (none: metadata files only; head: the first 64 KiB; full: whole)
//     and profiled in parallel; results are committed in batches.
//  3. datasets: every dataset whose files changed gets its metadata, category and totals recomputed.
// A kill -9 at any point loses at most one uncommitted batch; the next run picks up where it stopped and
// ends with the same catalog as an uninterrupted build.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/json.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::catalog {

enum class ProfileMode { kNone, kHead, kFull };
std::string_view ProfileModeName(ProfileMode m);
Result<ProfileMode> ParseProfileMode(std::string_view name);

struct BuildOptions {
  ProfileMode mode = ProfileMode::kHead;
  size_t jobs = 0;  // profiling threads; 0 = cores (remote lakes: at least 32 in flight)
  uint64_t head_bytes = 64 * 1024;
  bool progress = true;
  // Test hook: raise SIGKILL after this many profile batches were committed (0 = never).
  uint64_t debug_kill_after_batches = 0;
  // Called once the listing is done, with the cost of the profiling phase, before any file is read.
  std::function<void(const Json& estimate)> on_estimate;
  // An index built from another lake is refused (already_exists) unless this is set; then it is updated
  // to the new lake (its datasets replaced) and the report carries a warning.
  bool force_other_lake = false;
};

struct BuildReport {
  uint64_t listed = 0;     // objects seen in the lake
  uint64_t unchanged = 0;  // kept from an earlier build
  uint64_t profiled = 0;   // read and profiled in this run
  uint64_t removed = 0;    // gone from the lake
  uint64_t errors = 0;     // files with an error after this run
  uint64_t datasets_updated = 0;
  uint64_t datasets = 0;
  uint64_t bytes_read = 0;
  uint64_t requests = 0;  // store requests made (remote lakes)
  double seconds = 0;
  Json estimate;
  std::vector<std::string> warnings;  // another lake's index replaced with force_other_lake
  Json ToJson() const;
};

// Builds or updates <index_dir>/catalog.sqlite and <index_dir>/manifest.json from the lake. The lake is
// opened first: a missing one fails before anything is written.
Result<BuildReport> BuildCatalog(lake::Store& store, const std::string& index_dir,
                                 const BuildOptions& options);

// Guards a whole `index build` (catalog, text index, vectors). When the folder held no index before and the
// build fails, what the build wrote is removed (the folder too, if the build made it and nothing is kept),
// so a failed first build leaves no half-made index for `search` or `serve` to open. The catalog's progress
// is not thrown away: catalog.sqlite is kept aside in <index>/.partial-build/, where no reader looks, and
// the next build of that folder resumes from it (a listing of millions of S3 keys is worth keeping). An
// existing index is never removed: its catalog is updated in SQLite transactions and manifest.json is
// replaced atomically at the end of a successful catalog build, so a failed rebuild leaves it usable.
class FirstBuildCleanup {
 public:
  explicit FirstBuildCleanup(std::string index_dir);
  ~FirstBuildCleanup();
  FirstBuildCleanup(const FirstBuildCleanup&) = delete;
  FirstBuildCleanup& operator=(const FirstBuildCleanup&) = delete;
  void Succeeded() { done_ = true; }
  bool resumed() const { return resumed_; }  // a failed first build's catalog was taken back

 private:
  std::string dir_;
  bool first_ = false;        // no index there before
  bool created_dir_ = false;  // the folder did not exist
  bool resumed_ = false;
  std::vector<std::string> kept_;  // entries that were in the folder before the build
  bool done_ = false;
};

}  // namespace lakeqa::catalog
