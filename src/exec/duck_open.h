// Opening the locked-down in-memory DuckDB that both the session's SQL and the columnar importer use, so
// the lock-down exists once: the confined file system over a few folders, no extension loading or
// installing, no spilling to disk, the memory cap and threads of SqlLimits, then the settings locked.
#pragma once

#include <duckdb.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "confined_fs.h"
#include "lakeqa/common/status.h"
#include "lakeqa/exec/sql.h"

namespace lakeqa::exec {

struct DuckHandles {
  duckdb_database db = nullptr;
  duckdb_connection conn = nullptr;
  DuckHandles() = default;
  DuckHandles(const DuckHandles&) = delete;
  DuckHandles& operator=(const DuckHandles&) = delete;
  ~DuckHandles();
};

// roots[0] is the sandbox (the file_search_path). before_connect may register replacement scans.
// After it returns, file_search_path, allowed_directories (every root, alias and host spelling),
// enable_external_access=false and lock_configuration=true are set, in that order.
Status OpenLockedDuck(const SqlLimits& limits, const std::vector<FsRoot>& roots, std::shared_ptr<OpenLog> log,
                      const std::function<void(duckdb_database)>& before_connect, DuckHandles* out);

// Runs trusted SQL (lakeqa's own, never the agent's).
Status DuckExec(duckdb_connection conn, const std::string& sql);

// permission_denied / resource_exhausted / cancelled / invalid_argument from a DuckDB error message.
ErrorCode CodeForDuckError(std::string_view msg);

// 'text' as a SQL string literal.
std::string SqlQuote(std::string_view text);

}  // namespace lakeqa::exec
