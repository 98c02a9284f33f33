// The columnar cache behind `query`: a downloaded CSV/JSON file is imported once into a ZSTD Parquet
// file in the shared download cache, keyed by the file's content hash + format + kColumnarVersion, so
// later queries (of this session and of every other session with the same bytes) scan columns instead
// of re-parsing text. Entries are written as temp + rename under a per-entry lock file, are 0444, and
// carry a sidecar (.meta) with their exact size and schema: a truncated or rewritten entry is rebuilt,
// never served. See docs/sandbox.md ("Columnar cache").
#pragma once

#include <cstdint>
#include <string>

#include "lakeqa/common/status.h"
#include "lakeqa/exec/sql.h"

namespace lakeqa::exec {

// Bump when the reader options (ReaderSql in sql_sandbox.cc) or the Parquet settings change: old entries
// then stop matching and are left to the cache's cleanup.
inline constexpr int kColumnarVersion = 1;

struct ColumnarRequest {
  std::string cache_dir;    // the shared cache; entries under <cache_dir>/columnar/<2 hex>/
  std::string sandbox_dir;  // real path; the importer may read only here and write only in the cache
  std::string reader_sql;   // the table expression the direct view uses for the file (/sandbox path)
  std::string sha256;       // content hash of the file's bytes
  std::string format;       // csv | json
  uint64_t source_bytes = 0;
};

struct ColumnarEntry {
  std::string path;  // the Parquet file in the shared cache
  uint64_t bytes = 0;
  bool imported = false;  // false: a valid existing entry was reused
  double import_ms = 0;
};

// Returns a valid entry, importing the file (with `limits`' memory cap and threads, interrupted after
// budget_ms) when none or a corrupt one exists. Errors: timeout (interrupted or the lock was held past the
// budget; nothing is left behind), resource_exhausted (memory, disk space), unsupported (the Parquet
// schema would differ from the direct reader's, so the file is not cacheable), others from DuckDB/IO.
Result<ColumnarEntry> AcquireColumnar(const ColumnarRequest& req, const SqlLimits& limits, int budget_ms);

// Whether the entry at `path` still has `bytes` bytes and Parquet's magic at both ends.
bool ColumnarEntryIntact(const std::string& path, uint64_t bytes);

}  // namespace lakeqa::exec
