#include "lakeqa/exec/sql.h"

#include <duckdb.h>

#include <cctype>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "duck_values.h"
#include "file_sniff.h"
#include "lakeqa/common/strings.h"
#include "sandbox_tree.h"

namespace lakeqa::exec {
namespace {

constexpr const char* kListingView = "sandbox_files";
constexpr uint64_t kMaxJsonObjectBytes = 256ULL << 20;

std::string SqlString(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  out += '\'';
  return out;
}

std::string Ident(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    out += c;
    if (c == '"') out += '"';
  }
  out += '"';
  return out;
}

// The table expression that reads one file of a sniffed format.
std::string ReaderSql(DataFormat f, const std::string& abs) {
  std::string p = SqlString(abs);
  std::string max_obj = std::to_string(kMaxJsonObjectBytes);
  switch (f) {
    case DataFormat::kCsv: return "read_csv_auto(" + p + ", sample_size = 20480, ignore_errors = false)";
    case DataFormat::kJson:
      return "read_json_auto(" + p + ", maximum_object_size = " + max_obj + ")";
    case DataFormat::kGeoJson:
      // One row per feature with its properties as columns and the geometry kept as a struct.
      return "(SELECT unnest(f.properties), f.geometry AS geometry FROM (SELECT unnest(features) AS f FROM read_json_auto(" +
             p + ", maximum_object_size = " + max_obj + ")))";
    case DataFormat::kParquet: return "read_parquet(" + p + ")";
    case DataFormat::kNone: break;
  }
  return "";
}

ErrorCode CodeForDuckError(std::string_view msg) {
  if (StartsWith(msg, "Permission Error")) return ErrorCode::kPermissionDenied;
  if (StartsWith(msg, "Out of Memory Error")) return ErrorCode::kResourceExhausted;
  if (StartsWith(msg, "INTERRUPT Error") || StartsWith(msg, "Interrupt")) return ErrorCode::kCancelled;
  return ErrorCode::kInvalidArgument;
}

bool ReadOnlyType(duckdb_statement_type t) {
  return t == DUCKDB_STATEMENT_TYPE_SELECT || t == DUCKDB_STATEMENT_TYPE_EXPLAIN;
}

std::string_view StatementTypeName(duckdb_statement_type t) {
  switch (t) {
    case DUCKDB_STATEMENT_TYPE_SELECT: return "SELECT";
    case DUCKDB_STATEMENT_TYPE_INSERT: return "INSERT";
    case DUCKDB_STATEMENT_TYPE_UPDATE: return "UPDATE";
    case DUCKDB_STATEMENT_TYPE_EXPLAIN: return "EXPLAIN";
    case DUCKDB_STATEMENT_TYPE_DELETE: return "DELETE";
    case DUCKDB_STATEMENT_TYPE_PREPARE: return "PREPARE";
    case DUCKDB_STATEMENT_TYPE_CREATE: return "CREATE";
    case DUCKDB_STATEMENT_TYPE_EXECUTE: return "EXECUTE";
    case DUCKDB_STATEMENT_TYPE_ALTER: return "ALTER";
    case DUCKDB_STATEMENT_TYPE_TRANSACTION: return "TRANSACTION";
    case DUCKDB_STATEMENT_TYPE_COPY: return "COPY";
    case DUCKDB_STATEMENT_TYPE_ANALYZE: return "ANALYZE";
    case DUCKDB_STATEMENT_TYPE_VARIABLE_SET: return "SET";
    case DUCKDB_STATEMENT_TYPE_CREATE_FUNC: return "CREATE FUNCTION";
    case DUCKDB_STATEMENT_TYPE_DROP: return "DROP";
    case DUCKDB_STATEMENT_TYPE_EXPORT: return "EXPORT";
    case DUCKDB_STATEMENT_TYPE_PRAGMA: return "PRAGMA";
    case DUCKDB_STATEMENT_TYPE_VACUUM: return "VACUUM";
    case DUCKDB_STATEMENT_TYPE_CALL: return "CALL";
    case DUCKDB_STATEMENT_TYPE_SET: return "SET";
    case DUCKDB_STATEMENT_TYPE_LOAD: return "LOAD/INSTALL";
    case DUCKDB_STATEMENT_TYPE_RELATION: return "RELATION";
    case DUCKDB_STATEMENT_TYPE_EXTENSION: return "EXTENSION";
    case DUCKDB_STATEMENT_TYPE_LOGICAL_PLAN: return "LOGICAL PLAN";
    case DUCKDB_STATEMENT_TYPE_ATTACH: return "ATTACH";
    case DUCKDB_STATEMENT_TYPE_DETACH: return "DETACH";
    case DUCKDB_STATEMENT_TYPE_MULTI: return "MULTI";
    default: return "UNKNOWN";
  }
}

// The first keyword of the statement, upper-cased, after comments and opening parentheses.
std::string LeadingKeyword(std::string_view sql) {
  size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c)) != 0 || c == '(') {
      ++i;
    } else if (sql.substr(i, 2) == "--") {
      size_t nl = sql.find('\n', i);
      i = nl == std::string_view::npos ? sql.size() : nl + 1;
    } else if (sql.substr(i, 2) == "/*") {
      size_t end = sql.find("*/", i + 2);
      i = end == std::string_view::npos ? sql.size() : end + 2;
    } else {
      break;
    }
  }
  std::string kw;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i])) != 0)
    kw.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i++]))));
  return kw;
}

bool ReadOnlyKeyword(const std::string& kw) {
  static const char* const kAllowed[] = {"SELECT", "WITH", "VALUES", "FROM", "TABLE", "DESCRIBE", "DESC", "SHOW",
                                         "SUMMARIZE", "EXPLAIN", "PIVOT", "UNPIVOT"};
  for (const char* a : kAllowed)
    if (kw == a) return true;
  return false;
}

// From 'Permission Error: Cannot access file "x" - ...' the quoted path.
std::string RefusedPath(std::string_view msg) {
  static constexpr std::string_view kFile = "Cannot access file \"";
  size_t p = msg.find(kFile);
  if (p == std::string_view::npos) return "";
  p += kFile.size();
  size_t q = msg.find('"', p);
  return q == std::string_view::npos ? "" : std::string(msg.substr(p, q - p));
}

// A relative path that stays inside root: no '..' component, no scheme, and (when it names an existing
// file) a real path under root. Returns the absolute path, or "" when it must stay refused.
std::string ResolveInside(const std::string& root, const std::string& rel) {
  if (rel.empty() || rel[0] == '/' || rel.find("://") != std::string::npos || rel.find('\'') != std::string::npos)
    return "";
  for (std::string_view part : Split(rel, '/'))
    if (part == "..") return "";
  std::string abs = root + "/" + rel;
  char buf[PATH_MAX];
  if (::realpath(abs.c_str(), buf) != nullptr) {
    if (std::string_view(buf).substr(0, root.size() + 1) != root + "/") return "";
  } else if (rel.find_first_of("*?[") == std::string::npos) {
    return "";  // neither a file nor a glob: let DuckDB's error stand
  }
  return abs;
}

// Replaces every 'rel' and "rel" literal in sql with the absolute path; false if none was found.
bool ReplaceLiteral(std::string& sql, const std::string& rel, const std::string& abs) {
  bool any = false;
  for (char q : {'\'', '"'}) {
    std::string from = std::string(1, q) + rel + q;
    std::string to = std::string(1, q) + abs + q;
    for (size_t p = sql.find(from); p != std::string::npos; p = sql.find(from, p + to.size())) {
      sql.replace(p, from.size(), to);
      any = true;
    }
  }
  return any;
}

// Resolves FROM 'relative/path' (and FROM 'any.txt') to the reader for the file's sniffed format.
// DuckDB checks allowed_directories on the literal path, so relative names would otherwise be refused.
struct ScanContext {
  std::string root;
};

void ReplacementScan(duckdb_replacement_scan_info info, const char* table_name, void* data) {
  const auto* ctx = static_cast<const ScanContext*>(data);
  std::string name = table_name;
  if (name.empty() || name.find('\0') != std::string::npos) return;
  std::string abs = name[0] == '/' ? name : ctx->root + "/" + name;
  char buf[PATH_MAX];
  if (::realpath(abs.c_str(), buf) == nullptr) return;
  std::string resolved = buf;
  if (resolved.compare(0, ctx->root.size() + 1, ctx->root + "/") != 0) return;  // DuckDB reports it
  Sniffed s = SniffFile(resolved);
  const char* fn = nullptr;
  switch (s.format) {
    case DataFormat::kCsv: fn = "read_csv_auto"; break;
    case DataFormat::kJson:
    case DataFormat::kGeoJson: fn = "read_json_auto"; break;
    case DataFormat::kParquet: fn = "read_parquet"; break;
    case DataFormat::kNone: return;
  }
  duckdb_replacement_scan_set_function_name(info, fn);
  duckdb_value v = duckdb_create_varchar(resolved.c_str());
  duckdb_replacement_scan_add_parameter(info, v);
  duckdb_destroy_value(&v);
}

void DeleteScanContext(void* data) { delete static_cast<ScanContext*>(data); }

// Interrupts the connection if the query outlives the deadline.
class Watchdog {
 public:
  Watchdog(duckdb_connection conn, int timeout_ms) : conn_(conn) {
    thread_ = std::thread([this, timeout_ms] {
      std::unique_lock lock(mu_);
      if (!cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return done_; })) {
        fired_ = true;
        duckdb_interrupt(conn_);
      }
    });
  }
  ~Watchdog() { Stop(); }
  // Returns whether the deadline passed.
  bool Stop() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    return fired_;
  }

 private:
  duckdb_connection conn_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  std::thread thread_;
};

std::string TimeoutMessage(int timeout_ms) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "query exceeded the time limit of %g s and was interrupted", timeout_ms / 1000.0);
  return buf;
}

}  // namespace

struct SqlSandbox::Impl {
  duckdb_database db = nullptr;
  duckdb_connection conn = nullptr;
  ~Impl() {
    if (conn != nullptr) duckdb_disconnect(&conn);
    if (db != nullptr) duckdb_close(&db);
  }
  // Runs trusted setup SQL (ours, not the agent's).
  Status Exec(const std::string& sql) {
    duckdb_result r;
    if (duckdb_query(conn, sql.c_str(), &r) == DuckDBError) {
      std::string msg = duckdb_result_error(&r);
      duckdb_destroy_result(&r);
      return Status(CodeForDuckError(msg), msg);
    }
    duckdb_destroy_result(&r);
    return Status::Ok();
  }
};

SqlSandbox::~SqlSandbox() = default;

Json SqlResult::ToJson() const {
  Json j;
  j["columns"] = columns;
  j["types"] = types;
  Json rs = Json::array();
  for (const auto& r : rows) rs.push_back(Json(r));
  j["rows"] = std::move(rs);
  j["row_count"] = rows.size();
  j["truncated"] = truncated;
  j["total_rows_seen"] = total_rows_seen;
  j["elapsed_ms"] = elapsed_ms;
  return j;
}

Result<std::unique_ptr<SqlSandbox>> SqlSandbox::Open(const std::string& sandbox_dir, const SqlLimits& limits) {
  LAKEQA_ASSIGN_OR_RETURN(std::string dir, RealDir(sandbox_dir));
  if (dir == "/") return InvalidArgument("the sandbox directory cannot be /");
  std::unique_ptr<SqlSandbox> sb(new SqlSandbox());
  sb->dir_ = dir;
  sb->limits_ = limits;
  sb->impl_ = std::make_unique<Impl>();

  duckdb_config cfg;
  if (duckdb_create_config(&cfg) == DuckDBError) return Internal("duckdb_create_config failed");
  uint64_t mib = std::max<uint64_t>(16, (limits.memory_limit_bytes + (1 << 20) - 1) >> 20);
  std::pair<const char*, std::string> opts[] = {
      {"autoinstall_known_extensions", "false"},
      {"autoload_known_extensions", "false"},
      {"threads", std::to_string(std::max(1, limits.threads))},
      {"memory_limit", std::to_string(mib) + "MiB"},
      {"temp_directory", ""},  // no spilling: the memory limit is the limit
  };
  for (auto& [k, v] : opts) {
    if (duckdb_set_config(cfg, k, v.c_str()) == DuckDBError) {
      duckdb_destroy_config(&cfg);
      return Internal(std::string("duckdb config ") + k + "=" + v + " rejected");
    }
  }
  char* err = nullptr;
  duckdb_state st = duckdb_open_ext(nullptr, &sb->impl_->db, cfg, &err);
  duckdb_destroy_config(&cfg);
  if (st == DuckDBError) {
    std::string msg = err != nullptr ? err : "unknown error";
    duckdb_free(err);
    return Internal("opening DuckDB: " + msg);
  }
  duckdb_add_replacement_scan(sb->impl_->db, ReplacementScan, new ScanContext{dir}, DeleteScanContext);
  if (duckdb_connect(sb->impl_->db, &sb->impl_->conn) == DuckDBError) return Internal("connecting to DuckDB failed");
  LAKEQA_RETURN_IF_ERROR(sb->LockDown());
  LAKEQA_RETURN_IF_ERROR(sb->RegisterFileViews());
  return sb;
}

Status SqlSandbox::LockDown() {
  // Order matters: allowed_directories must be set before external access goes off, and the lock last.
  const std::string setup[] = {
      "SET file_search_path = " + SqlString(dir_),
      "SET allowed_directories = [" + SqlString(dir_ + "/") + "]",
      "SET enable_external_access = false",
      "SET lock_configuration = true",
  };
  for (const auto& s : setup) {
    Status st = impl_->Exec(s);
    if (!st.ok()) return Internal("locking down DuckDB (" + s + "): " + st.message());
  }
  return Status::Ok();
}

Status SqlSandbox::RegisterFileViews() {
  for (const auto& v : views_) LAKEQA_RETURN_IF_ERROR(impl_->Exec("DROP VIEW IF EXISTS " + Ident(v.name)));
  LAKEQA_RETURN_IF_ERROR(impl_->Exec(std::string("DROP VIEW IF EXISTS ") + kListingView));
  views_.clear();
  skipped_.clear();

  LAKEQA_ASSIGN_OR_RETURN(TreeScan scan, ScanTree(dir_, /*skip_hidden=*/true));
  std::vector<std::string> rels;
  std::vector<DataFormat> formats;
  for (const auto& e : scan.files) {
    if (e.symlink) {
      skipped_.push_back({e.rel, "symbolic link"});
      continue;
    }
    Sniffed s = SniffFile(dir_ + "/" + e.rel);
    if (s.format == DataFormat::kNone) {
      skipped_.push_back({e.rel, s.reason});
      continue;
    }
    rels.push_back(e.rel);
    formats.push_back(s.format);
  }
  std::vector<std::string> names = AssignViewNames(rels, {kListingView});
  std::string listing;
  for (size_t i = 0; i < rels.size(); ++i) {
    std::string abs = dir_ + "/" + rels[i];
    DataFormat f = formats[i];
    Status st = impl_->Exec("CREATE VIEW " + Ident(names[i]) + " AS SELECT * FROM " + ReaderSql(f, abs));
    if (!st.ok() && f == DataFormat::kGeoJson) {
      // Features whose properties do not unify into one struct: fall back to the raw document.
      f = DataFormat::kJson;
      st = impl_->Exec("CREATE VIEW " + Ident(names[i]) + " AS SELECT * FROM " + ReaderSql(f, abs));
    }
    if (!st.ok()) {
      skipped_.push_back({rels[i], std::string(TruncateUtf8(st.message(), 300))});
      continue;
    }
    views_.push_back({names[i], rels[i], std::string(FormatName(f))});
    listing += std::string(listing.empty() ? "" : ", ") + "(" + SqlString(names[i]) + ", " + SqlString(rels[i]) +
               ", " + SqlString(FormatName(f)) + ")";
  }
  if (scan.truncated) skipped_.push_back({"", "sandbox has too many files; listing stopped"});
  std::string body = listing.empty()
                         ? "SELECT NULL::VARCHAR AS name, NULL::VARCHAR AS path, NULL::VARCHAR AS format WHERE false"
                         : "SELECT * FROM (VALUES " + listing + ") AS t(name, path, format)";
  return impl_->Exec(std::string("CREATE VIEW ") + kListingView + " AS " + body);
}

Result<SqlResult> SqlSandbox::Query(std::string_view sql_in) {
  auto start = std::chrono::steady_clock::now();
  std::string sql(sql_in);
  if (Trim(sql).empty()) return InvalidArgument("empty SQL");
  if (sql.find('\0') != std::string::npos) return InvalidArgument("SQL contains a NUL byte");

  // A symlink planted by code in the sandbox would be followed by DuckDB on the host.
  std::vector<std::string> links = EscapingSymlinks(dir_);
  if (!links.empty())
    return Status(ErrorCode::kPermissionDenied,
                  "the sandbox contains a symbolic link leading outside it (" + links[0] + "); remove it first");

  Watchdog dog(impl_->conn, limits_.timeout_ms);
  auto timed_out = [&](Status st) {
    if (dog.Stop()) return Status(ErrorCode::kTimeout, TimeoutMessage(limits_.timeout_ms));
    return st;
  };

  duckdb_extracted_statements ext = nullptr;
  idx_t n = duckdb_extract_statements(impl_->conn, sql.c_str(), &ext);
  auto refuse = [&](std::string_view what) {
    return InvalidArgument("only read-only queries (SELECT, WITH, VALUES, DESCRIBE, SUMMARIZE, EXPLAIN) are allowed; "
                           "this is a " + std::string(what) + " statement");
  };
  if (n == 0) {
    const char* e = duckdb_extract_statements_error(ext);
    std::string msg = e != nullptr ? e : "no statement found";
    duckdb_destroy_extracted(&ext);
    return timed_out(InvalidArgument(msg));
  }
  if (n != 1) {
    duckdb_destroy_extracted(&ext);
    return timed_out(InvalidArgument("exactly one SQL statement is allowed per query; got " + std::to_string(n)));
  }
  duckdb_destroy_extracted(&ext);
  // Checked before binding, because binding COPY/EXPORT/ATTACH already touches files; the prepared
  // statement's type is checked again below.
  std::string kw = LeadingKeyword(sql);
  if (!ReadOnlyKeyword(kw)) return timed_out(refuse(kw.empty() ? "non-query" : kw));
  duckdb_prepared_statement prep = nullptr;
  duckdb_state pst = duckdb_prepare(impl_->conn, sql.c_str(), &prep);
  // DuckDB checks allowed_directories on the literal path, so 'rows.txt' inside read_csv() or a
  // relative '*.csv' is refused although file_search_path would find it: retry with absolute paths.
  for (int retry = 0; pst == DuckDBError && retry < 8; ++retry) {
    const char* e = duckdb_prepare_error(prep);
    std::string rel = RefusedPath(e != nullptr ? e : "");
    std::string abs = ResolveInside(dir_, rel);
    if (abs.empty() || !ReplaceLiteral(sql, rel, abs)) break;
    duckdb_destroy_prepare(&prep);
    pst = duckdb_prepare(impl_->conn, sql.c_str(), &prep);
  }
  auto prepare_failed = [&](duckdb_prepared_statement p) {
    const char* e = duckdb_prepare_error(p);
    std::string msg = e != nullptr ? e : "prepare failed";
    duckdb_destroy_prepare(&p);
    if (CodeForDuckError(msg) == ErrorCode::kPermissionDenied)
      msg += " (only files under " + dir_ +
             " can be read: use the views listed in sandbox_files, FROM 'relative/path', or absolute paths)";
    return timed_out(Status(CodeForDuckError(msg), msg));
  };
  if (pst == DuckDBError) return prepare_failed(prep);

  duckdb_statement_type type = duckdb_prepared_statement_type(prep);
  if (!ReadOnlyType(type)) {
    duckdb_destroy_prepare(&prep);
    return timed_out(refuse(StatementTypeName(type)));
  }

  SqlResult out;
  idx_t ncol = duckdb_prepared_statement_column_count(prep);
  bool cast_needed = false;
  for (idx_t c = 0; c < ncol; ++c) {
    const char* name = duckdb_prepared_statement_column_name(prep, c);
    out.columns.emplace_back(name != nullptr ? name : "");
    duckdb_free(const_cast<char*>(name));
    duckdb_logical_type t = duckdb_prepared_statement_column_logical_type(prep, c);
    out.types.push_back(TypeName(t));
    cast_needed = cast_needed || NeedsVarcharCast(t);
    duckdb_destroy_logical_type(&t);
  }
  if (cast_needed && type == DUCKDB_STATEMENT_TYPE_SELECT) {
    // Re-prepare as a wrapper that casts the types we do not convert natively to VARCHAR, with
    // positional aliases so duplicate or odd column names cannot break it.
    std::string body = sql;
    while (!body.empty() && (body.back() == ';' || std::isspace(static_cast<unsigned char>(body.back())) != 0))
      body.pop_back();
    std::string aliases, exprs;
    for (idx_t c = 0; c < ncol; ++c) {
      duckdb_logical_type t = duckdb_prepared_statement_column_logical_type(prep, c);
      std::string a = "_c" + std::to_string(c);
      aliases += (c ? ", " : "") + a;
      exprs += (c ? ", " : "") + (NeedsVarcharCast(t) ? "CAST(" + a + " AS VARCHAR)" : a);
      duckdb_destroy_logical_type(&t);
    }
    duckdb_destroy_prepare(&prep);
    std::string wrapped = "SELECT " + exprs + " FROM (\n" + body + "\n) AS _q(" + aliases + ")";
    if (duckdb_prepare(impl_->conn, wrapped.c_str(), &prep) == DuckDBError) return prepare_failed(prep);
  }

  duckdb_result res;
  if (duckdb_execute_prepared_streaming(prep, &res) == DuckDBError) {
    std::string msg = duckdb_result_error(&res);
    duckdb_destroy_result(&res);
    duckdb_destroy_prepare(&prep);
    return timed_out(Status(CodeForDuckError(msg), msg));
  }
  duckdb_destroy_prepare(&prep);

  uint64_t bytes = 0;
  bool stop = false;
  while (!stop) {
    duckdb_data_chunk chunk = duckdb_fetch_chunk(res);
    if (chunk == nullptr) break;
    idx_t rows = duckdb_data_chunk_get_size(chunk);
    if (rows == 0) {
      duckdb_destroy_data_chunk(&chunk);
      break;
    }
    out.total_rows_seen += rows;
    std::vector<ColumnReader> readers;
    for (idx_t c = 0; c < ncol; ++c) {
      duckdb_logical_type t = duckdb_column_logical_type(&res, c);
      readers.emplace_back(duckdb_data_chunk_get_vector(chunk, c), t);
      duckdb_destroy_logical_type(&t);
    }
    for (idx_t r = 0; r < rows; ++r) {
      if (out.rows.size() >= limits_.max_rows) {
        out.truncated = true;
        stop = true;
        break;
      }
      std::vector<Json> row;
      row.reserve(ncol);
      for (auto& rd : readers) row.push_back(rd.ValueAt(r));
      uint64_t row_bytes = DumpJson(Json(row)).size() + 1;
      if (bytes + row_bytes > limits_.max_result_bytes) {
        out.truncated = true;
        stop = true;
        break;
      }
      bytes += row_bytes;
      out.rows.push_back(std::move(row));
    }
    duckdb_destroy_data_chunk(&chunk);
  }
  const char* rerr = duckdb_result_error(&res);
  std::string stream_error = rerr != nullptr ? rerr : "";
  duckdb_destroy_result(&res);
  bool fired = dog.Stop();
  if (fired && !stop) return Status(ErrorCode::kTimeout, TimeoutMessage(limits_.timeout_ms));
  if (!stream_error.empty() && !stop) return Status(CodeForDuckError(stream_error), stream_error);
  out.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace lakeqa::exec
