// SQL over the files of one session sandbox, through an in-memory DuckDB that can read nothing outside
// the sandbox directory (every open is confined by the kernel, see src/exec/confined_fs.h), runs exactly
// one read-only statement at a time, and stops at a time limit, a row cap, a result-size cap and the
// process-wide memory budget. DuckDB sees the sandbox as /sandbox (kSandboxAlias), never its host path.
// The `query` tool is a thin layer over SqlSandbox::Query.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/exec/sandbox.h"

namespace lakeqa::exec {

struct SqlLimits {
  int timeout_ms = 30000;
  uint64_t max_rows = 1000;               // rows returned; the query is stopped after this many
  uint64_t max_result_bytes = 1 << 20;    // JSON-encoded size of the returned rows
  uint64_t memory_limit_bytes = 1 << 30;  // DuckDB memory_limit (no spilling to disk)
  int threads = 2;
};

// The columnar cache (docs/sandbox.md): downloaded CSV/JSON files at least min_bytes large are imported
// once into ZSTD Parquet in the shared cache (keyed by content hash) the first time a query names them, and
// their views (and, for CSV, FROM 'path' and read_csv('path')) then read the Parquet copy.
struct SqlCacheOptions {
  std::string dir;       // the shared download cache ("" = no columnar cache)
  std::string link_dir;  // per-session folder outside the sandbox: entries are hard-linked here for DuckDB
  uint64_t min_bytes = 8ULL << 20;  // smaller files stay on the direct path (the import does not pay off)
};

// A sandbox file whose bytes are known: a hard link of `source` (a download cache file) with this hash.
// The cache is used only while the sandbox file is still that inode (code may replace the sandbox file).
struct KnownFile {
  std::string rel;
  std::string sha256;
  std::string source;
};

// What one query did with the columnar cache for one file it named.
struct CacheUse {
  std::string path;   // relative to the sandbox
  std::string state;  // "cached" (existing entry), "imported" (built now), "direct" (not cached: see reason)
  std::string reason;
  double import_ms = 0;
};

struct SqlCacheStats {
  uint64_t imports = 0, hits = 0, direct = 0;
};

struct SqlResult {
  std::vector<std::string> columns;
  std::vector<std::string> types;  // DuckDB type names: BIGINT, VARCHAR, DATE, ...
  std::vector<std::vector<Json>> rows;
  bool truncated = false;        // a row or byte cap stopped the result early
  uint64_t total_rows_seen = 0;  // rows read before stopping (== rows.size() unless truncated)
  double elapsed_ms = 0;
  std::vector<CacheUse> cache;  // one per cacheable file the statement named
  // Sandbox-relative paths of the files the statement really opened (globs and views included), in
  // order, without repeats: what D_acc counts. A file served from the columnar cache appears as itself.
  std::vector<std::string> read_files;
  Json ToJson() const;
};

// One view created by RegisterFileViews.
struct FileView {
  std::string name;    // SQL identifier, unique case-insensitively
  std::string path;    // relative to the sandbox
  std::string format;  // csv | json | geojson | parquet
};

// A file RegisterFileViews did not turn into a view, and why.
struct SkippedFile {
  std::string path;
  std::string reason;
};

class SqlSandbox {
 public:
  ~SqlSandbox();
  SqlSandbox(const SqlSandbox&) = delete;
  SqlSandbox& operator=(const SqlSandbox&) = delete;

  // sandbox_dir must exist. Creates views for the files present now, then locks the database down
  // (external access limited to sandbox_dir, configuration locked, no extension loading).
  // With cache.dir set, the columnar cache is on: cache.link_dir (created) is readable besides the sandbox.
  static Result<std::unique_ptr<SqlSandbox>> Open(const std::string& sandbox_dir,
                                                  const SqlLimits& limits = {},
                                                  const SqlCacheOptions& cache = {});

  // Records a downloaded file (see KnownFile); only known files use the columnar cache.
  void AddKnownFile(const KnownFile& file);
  const SqlCacheStats& cache_stats() const { return cache_stats_; }

  // (Re)creates one view per data file under the sandbox (hidden folders such as .lakeqa skipped) and
  // the view `sandbox_files(name, path, format)` listing them. Call again after new downloads; files
  // not yet registered are still readable by relative path: SELECT * FROM 'dataset/rows.txt'.
  Status RegisterFileViews();
  const std::vector<FileView>& views() const { return views_; }
  const std::vector<SkippedFile>& skipped() const { return skipped_; }
  const std::string& sandbox_dir() const { return dir_; }

  // Runs one read-only statement (SELECT, or a query-shaped statement such as VALUES/SUMMARIZE/
  // DESCRIBE/EXPLAIN). Errors: invalid_argument (not exactly one statement, not read-only, SQL errors),
  // permission_denied (a path outside the sandbox), timeout, resource_exhausted (memory, or the
  // process-wide budget stayed taken for the whole time limit), cancelled (`cancel` fired).
  Result<SqlResult> Query(std::string_view sql, CancelToken* cancel = nullptr);

 private:
  SqlSandbox() = default;
  // Imports (or reuses) the cache entries of the known files `sql` names and points their views at them.
  std::vector<CacheUse> PrepareCache(const std::string& sql, int budget_ms);
  // Replaces read_csv('path') / read_csv_auto('path') of cached CSV files by read_parquet of the entry.
  std::string RewriteCsvCalls(const std::string& sql) const;
  // The sandbox-relative path a SQL path names (alias, host or relative spelling), "" when outside.
  std::string RelOf(const std::string& path) const;
  // The files DuckDB opened since the last call, as sandbox-relative paths.
  std::vector<std::string> ReadFiles();

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string dir_;
  SqlLimits limits_;
  std::vector<FileView> views_;
  std::vector<SkippedFile> skipped_;
  SqlCacheOptions cache_;
  SqlCacheStats cache_stats_;
};

}  // namespace lakeqa::exec
