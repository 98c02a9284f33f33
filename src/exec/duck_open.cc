#include "duck_open.h"

#include <algorithm>
#include <utility>

#include "lakeqa/common/strings.h"

namespace lakeqa::exec {

DuckHandles::~DuckHandles() {
  if (conn != nullptr) duckdb_disconnect(&conn);
  if (db != nullptr) duckdb_close(&db);
}

std::string SqlQuote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

ErrorCode CodeForDuckError(std::string_view msg) {
  if (StartsWith(msg, "Permission Error")) return ErrorCode::kPermissionDenied;
  if (StartsWith(msg, "Out of Memory Error")) return ErrorCode::kResourceExhausted;
  if (StartsWith(msg, "INTERRUPT Error") || StartsWith(msg, "Interrupt")) return ErrorCode::kCancelled;
  return ErrorCode::kInvalidArgument;
}

Status DuckExec(duckdb_connection conn, const std::string& sql) {
  duckdb_result r;
  if (duckdb_query(conn, sql.c_str(), &r) == DuckDBError) {
    std::string msg = duckdb_result_error(&r);
    duckdb_destroy_result(&r);
    return Status(CodeForDuckError(msg), msg);
  }
  duckdb_destroy_result(&r);
  return Status::Ok();
}

Status OpenLockedDuck(const SqlLimits& limits, const std::vector<FsRoot>& roots, std::shared_ptr<OpenLog> log,
                      const std::function<void(duckdb_database)>& before_connect, DuckHandles* out) {
  duckdb_config cfg;
  if (duckdb_create_config(&cfg) == DuckDBError) return Internal("duckdb_create_config failed");
  struct ConfigGuard {
    duckdb_config* c;
    ~ConfigGuard() { duckdb_destroy_config(c); }
  } guard{&cfg};
  uint64_t mib = std::max<uint64_t>(16, (limits.memory_limit_bytes + (1 << 20) - 1) >> 20);
  std::pair<const char*, std::string> opts[] = {
      {"autoinstall_known_extensions", "false"},
      {"autoload_known_extensions", "false"},
      {"threads", std::to_string(std::max(1, limits.threads))},
      {"memory_limit", std::to_string(mib) + "MiB"},
      {"temp_directory", ""},  // no spilling: the memory limit is the limit
  };
  for (auto& [k, v] : opts) {
    if (duckdb_set_config(cfg, k, v.c_str()) == DuckDBError)
      return Internal(std::string("duckdb config ") + k + "=" + v + " rejected");
  }
  LAKEQA_RETURN_IF_ERROR(InstallConfinedFileSystem(cfg, roots, std::move(log)));
  char* err = nullptr;
  if (duckdb_open_ext(nullptr, &out->db, cfg, &err) == DuckDBError) {
    std::string msg = err != nullptr ? err : "unknown error";
    duckdb_free(err);
    return Internal("opening DuckDB: " + msg);
  }
  if (before_connect) before_connect(out->db);
  if (duckdb_connect(out->db, &out->conn) == DuckDBError) return Internal("connecting to DuckDB failed");
  std::string allowed;
  for (const auto& r : roots)
    for (const std::string* p : {&r.alias, &r.host})
      if (!p->empty()) allowed += (allowed.empty() ? "" : ", ") + SqlQuote(*p + "/");
  // Order matters: allowed_directories before external access goes off, and the lock last.
  const std::string setup[] = {
      "SET file_search_path = " + SqlQuote(roots[0].alias.empty() ? roots[0].host : roots[0].alias),
      "SET allowed_directories = [" + allowed + "]",
      "SET enable_external_access = false",
      "SET lock_configuration = true",
  };
  for (const auto& s : setup) {
    Status st = DuckExec(out->conn, s);
    if (!st.ok()) return Internal("locking down DuckDB (" + s + "): " + st.message());
  }
  return Status::Ok();
}

}  // namespace lakeqa::exec
