#include "lakeqa/exec/sql.h"

#include <duckdb.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <optional>
#include <set>

#include "columnar_cache.h"
#include "duck_open.h"
#include "duck_values.h"
#include "file_sniff.h"
#include "lakeqa/common/beneath.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "memory_budget.h"
#include "sandbox_tree.h"
#include "watchdog.h"

namespace lakeqa::exec {
namespace {

constexpr const char* kListingView = "sandbox_files";
constexpr uint64_t kMaxJsonObjectBytes = 256ULL << 20;
// How DuckDB sees the session's folder of columnar-cache links (the host path is never shown).
constexpr const char* kColumnarAlias = "/lakeqa-columnar";

std::string SqlString(std::string_view s) { return SqlQuote(s); }

std::string Virtual(const std::string& rel) { return std::string(kSandboxAlias) + "/" + rel; }

std::string VirtualLink(const std::string& host_link) {
  return std::string(kColumnarAlias) + "/" + host_link.substr(host_link.rfind('/') + 1);
}

// The sandbox-relative path a SQL path names: "/sandbox/x", "<host dir>/x" or "x" -> "x"; "" when outside.
std::string RelUnder(const std::string& host_dir, const std::string& path) {
  std::string p = path;
  if (StartsWith(p, "file://")) p = p.substr(7);
  if (p.empty()) return "";
  if (p[0] != '/') return p;
  for (const std::string& prefix : {std::string(kSandboxAlias), host_dir}) {
    if (p.size() > prefix.size() + 1 && p.compare(0, prefix.size(), prefix) == 0 && p[prefix.size()] == '/')
      return p.substr(prefix.size() + 1);
  }
  return "";
}

using InodeKey = std::pair<dev_t, ino_t>;

// The inode a sandbox-relative path opens (symlinks inside the sandbox followed, never out of it).
std::optional<InodeKey> InodeAt(int root_fd, const std::string& rel) {
  auto fd = OpenBeneath(root_fd, rel, O_PATH, 0, Links::kInside, rel);
  if (!fd.ok()) return std::nullopt;
  struct stat st {};
  bool ok = ::fstat(*fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(*fd);
  if (!ok) return std::nullopt;
  return InodeKey{st.st_dev, st.st_ino};
}

// SniffFile for a sandbox file, opened confined (a FIFO or a link out of the sandbox is never read).
Sniffed SniffAt(int root_fd, const std::string& rel) {
  auto fd = OpenBeneath(root_fd, rel, O_RDONLY | O_NONBLOCK, 0, Links::kInside, rel);
  if (!fd.ok()) return {DataFormat::kNone, "unreadable: " + fd.status().message()};
  Sniffed s = SniffFd(*fd, rel.substr(rel.rfind('/') + 1));
  ::close(*fd);
  return s;
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
    case DataFormat::kJson: return "read_json_auto(" + p + ", maximum_object_size = " + max_obj + ")";
    case DataFormat::kGeoJson:
      // One row per feature with its properties as columns and the geometry kept as a struct.
      return "(SELECT unnest(f.properties), f.geometry AS geometry FROM (SELECT unnest(features) AS f FROM "
             "read_json_auto(" +
             p + ", maximum_object_size = " + max_obj + ")))";
    case DataFormat::kParquet: return "read_parquet(" + p + ")";
    case DataFormat::kNone: break;
  }
  return "";
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
  static const char* const kAllowed[] = {"SELECT", "WITH", "VALUES",    "FROM",    "TABLE", "DESCRIBE",
                                         "DESC",   "SHOW", "SUMMARIZE", "EXPLAIN", "PIVOT", "UNPIVOT"};
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

// A relative path that stays inside the sandbox: no '..' component, no scheme, and (unless it is a
// glob) a file the confined open finds. Returns its /sandbox path, or "" when it must stay refused.
std::string ResolveInside(int root_fd, const std::string& rel) {
  if (rel.empty() || rel[0] == '/' || rel.find("://") != std::string::npos ||
      rel.find('\'') != std::string::npos)
    return "";
  for (std::string_view part : Split(rel, '/'))
    if (part == "..") return "";
  // Neither a file nor a glob: let DuckDB's error stand.
  if (rel.find_first_of("*?[") == std::string::npos && !InodeAt(root_fd, rel)) return "";
  return Virtual(rel);
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
// Inodes of cached CSV files -> their Parquet entries (as DuckDB names them, under kColumnarAlias).
struct Redirects {
  std::mutex mu;
  std::map<InodeKey, std::string> csv;
  std::string Find(std::optional<InodeKey> key) {
    if (!key) return "";
    std::lock_guard lock(mu);
    auto it = csv.find(*key);
    return it == csv.end() ? "" : it->second;
  }
};

struct ScanContext {
  std::string root;
  int root_fd;
  std::shared_ptr<Redirects> redirects;
};

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Whether `name` occurs in `text` as a whole identifier (not inside a longer word or a path).
bool HasIdentifier(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); !name.empty() && at != std::string::npos; at = text.find(name, at + 1)) {
    bool left = at == 0 || (!IdentChar(text[at - 1]) && text[at - 1] != '/' && text[at - 1] != '.');
    size_t end = at + name.size();
    bool right = end >= text.size() || (!IdentChar(text[end]) && text[end] != '/' && text[end] != '.');
    if (left && right) return true;
  }
  return false;
}

// Whether the sandbox file `abs` is still the very inode of `source` (not replaced by the agent's code).
bool SameInode(const std::string& abs, const std::string& source) {
  struct stat a {
  }, b{};
  if (::lstat(abs.c_str(), &a) != 0 || !S_ISREG(a.st_mode) || ::stat(source.c_str(), &b) != 0) return false;
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void ReplacementScan(duckdb_replacement_scan_info info, const char* table_name, void* data) {
  const auto* ctx = static_cast<const ScanContext*>(data);
  std::string name = table_name;
  if (name.empty() || name.find('\0') != std::string::npos) return;
  std::string rel = RelUnder(ctx->root, name);
  if (rel.empty()) return;  // outside: DuckDB reports it
  std::optional<InodeKey> inode = InodeAt(ctx->root_fd, rel);
  if (!inode) return;
  if (std::string parquet = ctx->redirects->Find(inode); !parquet.empty()) {
    duckdb_replacement_scan_set_function_name(info, "read_parquet");
    duckdb_value v = duckdb_create_varchar(parquet.c_str());
    duckdb_replacement_scan_add_parameter(info, v);
    duckdb_destroy_value(&v);
    return;
  }
  Sniffed s = SniffAt(ctx->root_fd, rel);
  const char* fn = nullptr;
  switch (s.format) {
    case DataFormat::kCsv: fn = "read_csv_auto"; break;
    case DataFormat::kJson:
    case DataFormat::kGeoJson: fn = "read_json_auto"; break;
    case DataFormat::kParquet: fn = "read_parquet"; break;
    case DataFormat::kNone: return;
  }
  duckdb_replacement_scan_set_function_name(info, fn);
  duckdb_value v = duckdb_create_varchar(Virtual(rel).c_str());
  duckdb_replacement_scan_add_parameter(info, v);
  duckdb_destroy_value(&v);
}

void DeleteScanContext(void* data) { delete static_cast<ScanContext*>(data); }

std::string TimeoutMessage(int timeout_ms) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "query exceeded the time limit of %g s and was interrupted",
                timeout_ms / 1000.0);
  return buf;
}

}  // namespace

struct SqlSandbox::Impl {
  DuckHandles duck;
  duckdb_connection conn = nullptr;
  int root_fd = -1;  // the sandbox folder, for lakeqa's own confined reads (sniffing, inodes)
  std::shared_ptr<OpenLog> log = std::make_shared<OpenLog>();
  // A downloaded file and its columnar-cache state in this session.
  struct Known {
    KnownFile file;
    std::string abs;            // <sandbox>/<rel>
    std::string link;           // the active Parquet link (host path), "" when none
    uint64_t bytes = 0;         // the entry's size
    std::string format;         // csv | json, when linked
    std::string direct_reason;  // set: this session keeps the file on the direct path
  };
  std::vector<Known> known;
  std::shared_ptr<Redirects> redirects = std::make_shared<Redirects>();

  // Whether k's entry is linked and still intact and k's sandbox file is still the downloaded one.
  bool Active(Known& k) {
    if (k.link.empty()) return false;
    if (SameInode(k.abs, k.file.source) && ColumnarEntryIntact(k.link, k.bytes)) return true;
    ::unlink(k.link.c_str());
    k.link.clear();
    return false;
  }
  void UpdateRedirects() {
    std::lock_guard lock(redirects->mu);
    redirects->csv.clear();
    for (auto& k : known) {
      struct stat st {};
      if (Active(k) && k.format == "csv" && ::lstat(k.abs.c_str(), &st) == 0)
        redirects->csv[{st.st_dev, st.st_ino}] = VirtualLink(k.link);
    }
  }
  ~Impl() {
    if (root_fd >= 0) ::close(root_fd);
  }
  Status Exec(const std::string& sql) { return DuckExec(conn, sql); }
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
  if (!cache.empty()) {
    Json c = Json::array();
    for (const auto& u : cache) {
      Json e = {{"path", u.path}, {"state", u.state}};
      if (!u.reason.empty()) e["reason"] = u.reason;
      if (u.state == "imported") e["import_ms"] = u.import_ms;
      c.push_back(std::move(e));
    }
    j["columnar_cache"] = std::move(c);
  }
  return j;
}

Result<std::unique_ptr<SqlSandbox>> SqlSandbox::Open(const std::string& sandbox_dir, const SqlLimits& limits,
                                                     const SqlCacheOptions& cache) {
  LAKEQA_ASSIGN_OR_RETURN(std::string dir, RealDir(sandbox_dir));
  if (dir == "/") return InvalidArgument("the sandbox directory cannot be /");
  std::unique_ptr<SqlSandbox> sb(new SqlSandbox());
  sb->dir_ = dir;
  sb->limits_ = limits;
  sb->impl_ = std::make_unique<Impl>();
  if (!cache.dir.empty()) {
    if (cache.link_dir.empty()) return InvalidArgument("the columnar cache needs a link folder");
    LAKEQA_RETURN_IF_ERROR(MakeDirs(cache.link_dir));
    LAKEQA_ASSIGN_OR_RETURN(std::string link_dir, RealDir(cache.link_dir));
    if (link_dir == dir || StartsWith(link_dir, dir + "/"))
      return InvalidArgument("the columnar cache's link folder must be outside the sandbox");
    sb->cache_ = cache;
    sb->cache_.link_dir = link_dir;
  }

  Impl& im = *sb->impl_;
  im.root_fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (im.root_fd < 0) return ErrnoStatus(errno, "opening sandbox " + dir);
  std::vector<FsRoot> roots = {{kSandboxAlias, dir, false}};
  if (!sb->cache_.link_dir.empty()) roots.push_back({kColumnarAlias, sb->cache_.link_dir, false});
  auto* ctx = new ScanContext{dir, im.root_fd, im.redirects};
  LAKEQA_RETURN_IF_ERROR(OpenLockedDuck(
      limits, roots, im.log,
      [ctx](duckdb_database db) { duckdb_add_replacement_scan(db, ReplacementScan, ctx, DeleteScanContext); },
      &im.duck));
  im.conn = im.duck.conn;
  LAKEQA_RETURN_IF_ERROR(sb->RegisterFileViews());
  return sb;
}

std::string SqlSandbox::RelOf(const std::string& path) const { return RelUnder(dir_, path); }

std::vector<std::string> SqlSandbox::ReadFiles() {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const OpenedFile& f : impl_->log->Take()) {
    std::string rel;
    if (f.root == 0) {
      for (std::string_view part : Split(f.rel, '/'))
        if (!part.empty() && part != ".") rel += (rel.empty() ? "" : "/") + std::string(part);
    } else {
      // A columnar-cache entry stands for the downloaded file it was imported from.
      for (const auto& k : impl_->known)
        if (!k.link.empty() && k.link.substr(k.link.rfind('/') + 1) == f.rel) rel = k.file.rel;
    }
    if (!rel.empty() && seen.insert(rel).second) out.push_back(rel);
  }
  return out;
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
    Sniffed s = SniffAt(impl_->root_fd, e.rel);
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
    std::string abs = Virtual(rels[i]);
    DataFormat f = formats[i];
    std::string cached;
    for (auto& k : impl_->known)
      if (k.file.rel == rels[i] && impl_->Active(k) && k.format == FormatName(f))
        cached = VirtualLink(k.link);
    Status st = impl_->Exec("CREATE VIEW " + Ident(names[i]) + " AS SELECT * FROM " +
                            (cached.empty() ? ReaderSql(f, abs) : "read_parquet(" + SqlString(cached) + ")"));
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
    listing += std::string(listing.empty() ? "" : ", ") + "(" + SqlString(names[i]) + ", " +
               SqlString(rels[i]) + ", " + SqlString(FormatName(f)) + ")";
  }
  if (scan.truncated) skipped_.push_back({"", "sandbox has too many files; listing stopped"});
  impl_->UpdateRedirects();
  std::string body =
      listing.empty()
          ? "SELECT NULL::VARCHAR AS name, NULL::VARCHAR AS path, NULL::VARCHAR AS format WHERE false"
          : "SELECT * FROM (VALUES " + listing + ") AS t(name, path, format)";
  return impl_->Exec(std::string("CREATE VIEW ") + kListingView + " AS " + body);
}

namespace {

// Refuses a text of zero or several statements (DuckDB's parser decides, not a split on ';').
Status CheckOneStatement(duckdb_connection conn, const std::string& sql) {
  duckdb_extracted_statements ext = nullptr;
  idx_t n = duckdb_extract_statements(conn, sql.c_str(), &ext);
  if (n == 0) {
    const char* e = duckdb_extract_statements_error(ext);
    std::string msg = e != nullptr ? e : "no statement found";
    duckdb_destroy_extracted(&ext);
    return InvalidArgument(msg);
  }
  duckdb_destroy_extracted(&ext);
  if (n != 1)
    return InvalidArgument("exactly one SQL statement is allowed per query; got " + std::to_string(n));
  return Status::Ok();
}

// DuckDB checks allowed_directories on the literal path, so 'rows.txt' inside read_csv() or a
// relative '*.csv' is refused although file_search_path would find it: retry with absolute paths
// (sql is rewritten in place).
duckdb_state PrepareInside(duckdb_connection conn, int root_fd, std::string& sql,
                           duckdb_prepared_statement* prep) {
  duckdb_state pst = duckdb_prepare(conn, sql.c_str(), prep);
  for (int retry = 0; pst == DuckDBError && retry < 8; ++retry) {
    const char* e = duckdb_prepare_error(*prep);
    std::string rel = RefusedPath(e != nullptr ? e : "");
    std::string abs = ResolveInside(root_fd, rel);
    if (abs.empty() || !ReplaceLiteral(sql, rel, abs)) break;
    duckdb_destroy_prepare(prep);
    pst = duckdb_prepare(conn, sql.c_str(), prep);
  }
  return pst;
}

// Fills out's column names and types; true when a column has a type we do not convert natively.
bool DescribeColumns(duckdb_prepared_statement prep, SqlResult& out) {
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
  return cast_needed;
}

// The statement wrapped so the types we do not convert natively come out as VARCHAR, with positional
// aliases so duplicate or odd column names cannot break it.
std::string WithVarcharCasts(const std::string& sql, duckdb_prepared_statement prep, idx_t ncol) {
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
  return "SELECT " + exprs + " FROM (\n" + body + "\n) AS _q(" + aliases + ")";
}

// Streams the result's rows into out up to the row and byte caps; true when a cap stopped it (the
// result is truncated, and an error DuckDB reports after that point is not the caller's).
bool FetchRows(duckdb_result& res, idx_t ncol, const SqlLimits& limits, SqlResult& out) {
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
      if (out.rows.size() >= limits.max_rows) {
        out.truncated = true;
        stop = true;
        break;
      }
      std::vector<Json> row;
      row.reserve(ncol);
      for (auto& rd : readers) row.push_back(rd.ValueAt(r));
      uint64_t row_bytes = DumpJson(Json(row)).size() + 1;
      if (bytes + row_bytes > limits.max_result_bytes) {
        out.truncated = true;
        stop = true;
        break;
      }
      bytes += row_bytes;
      out.rows.push_back(std::move(row));
    }
    duckdb_destroy_data_chunk(&chunk);
  }
  return stop;
}

}  // namespace

Result<SqlResult> SqlSandbox::Query(std::string_view sql_in, CancelToken* cancel) {
  auto start = std::chrono::steady_clock::now();
  std::string sql(sql_in);
  if (Trim(sql).empty()) return InvalidArgument("empty SQL");
  if (sql.find('\0') != std::string::npos) return InvalidArgument("SQL contains a NUL byte");
  // The statement (and a columnar import it triggers) may use its database's whole memory_limit: hold
  // that much of the process-wide budget while it runs.
  LAKEQA_ASSIGN_OR_RETURN(MemoryReservation reservation,
                          ReserveSqlMemory(limits_.memory_limit_bytes,
                                           start + std::chrono::milliseconds(limits_.timeout_ms), cancel));
  std::optional<CancelToken::Hook> on_cancel;
  if (cancel != nullptr) {
    duckdb_connection conn = impl_->conn;
    on_cancel.emplace(cancel->OnCancel([conn] { duckdb_interrupt(conn); }));
  }
  auto cancelled = [&] { return cancel != nullptr && cancel->cancelled(); };
  impl_->log->Take();  // opens made while views were registered are not the statement's

  // The columnar import (first query of a big file) may take up to half of the call's time; the statement
  // then runs with what is left.
  // (Not for statements that will be refused anyway.)
  std::vector<CacheUse> cache_uses;
  if (ReadOnlyKeyword(LeadingKeyword(sql))) {
    cache_uses = PrepareCache(sql, std::max(1, limits_.timeout_ms / 2));
    sql = RewriteCsvCalls(sql);
  }
  int used_ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
          .count());
  Watchdog dog(impl_->conn, std::max(1, limits_.timeout_ms - used_ms));
  auto timed_out = [&](Status st) {
    if (dog.Stop()) return Status(ErrorCode::kTimeout, TimeoutMessage(limits_.timeout_ms));
    if (cancelled()) return Status(ErrorCode::kCancelled, "the query was cancelled");
    return st;
  };

  if (Status one = CheckOneStatement(impl_->conn, sql); !one.ok()) return timed_out(one);
  auto refuse = [&](std::string_view what) {
    return InvalidArgument(
        "only read-only queries (SELECT, WITH, VALUES, DESCRIBE, SUMMARIZE, EXPLAIN) are allowed; "
        "this is a " +
        std::string(what) + " statement");
  };
  // Checked before binding, because binding COPY/EXPORT/ATTACH already touches files; the prepared
  // statement's type is checked again below.
  std::string kw = LeadingKeyword(sql);
  if (!ReadOnlyKeyword(kw)) return timed_out(refuse(kw.empty() ? "non-query" : kw));
  duckdb_prepared_statement prep = nullptr;
  duckdb_state pst = PrepareInside(impl_->conn, impl_->root_fd, sql, &prep);
  auto prepare_failed = [&](duckdb_prepared_statement p) {
    const char* e = duckdb_prepare_error(p);
    std::string msg = e != nullptr ? e : "prepare failed";
    duckdb_destroy_prepare(&p);
    if (CodeForDuckError(msg) == ErrorCode::kPermissionDenied)
      msg += std::string(" (only files under ") + kSandboxAlias +
             " can be read, and never through a symbolic link leading out of it: use the views listed in "
             "sandbox_files, FROM 'relative/path', or " +
             kSandboxAlias + "/... paths)";
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
  bool cast_needed = DescribeColumns(prep, out);
  if (cast_needed && type == DUCKDB_STATEMENT_TYPE_SELECT) {
    std::string wrapped = WithVarcharCasts(sql, prep, ncol);
    duckdb_destroy_prepare(&prep);
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

  bool stop = FetchRows(res, ncol, limits_, out);
  const char* rerr = duckdb_result_error(&res);
  std::string stream_error = rerr != nullptr ? rerr : "";
  duckdb_destroy_result(&res);
  bool fired = dog.Stop();
  if (fired && !stop) return Status(ErrorCode::kTimeout, TimeoutMessage(limits_.timeout_ms));
  if (cancelled() && !stop) return Status(ErrorCode::kCancelled, "the query was cancelled");
  if (!stream_error.empty() && !stop) return Status(CodeForDuckError(stream_error), stream_error);
  out.elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.cache = std::move(cache_uses);
  out.read_files = ReadFiles();
  return out;
}

void SqlSandbox::AddKnownFile(const KnownFile& file) {
  Impl::Known fresh;
  fresh.file = file;
  fresh.abs = dir_ + "/" + file.rel;
  for (auto& k : impl_->known) {
    if (k.file.rel == file.rel) {
      if (!k.link.empty()) ::unlink(k.link.c_str());
      k = fresh;
      return;
    }
  }
  impl_->known.push_back(fresh);
}

std::vector<CacheUse> SqlSandbox::PrepareCache(const std::string& sql, int budget_ms) {
  std::vector<CacheUse> uses;
  if (cache_.dir.empty() || impl_->known.empty()) return uses;
  auto start = std::chrono::steady_clock::now();
  std::string lower = ToLowerAscii(sql);
  bool changed = false;
  for (auto& k : impl_->known) {
    const FileView* view = nullptr;
    for (const auto& v : views_)
      if (v.path == k.file.rel) view = &v;
    bool named = lower.find(ToLowerAscii(k.file.rel)) != std::string::npos ||
                 (view != nullptr && HasIdentifier(lower, ToLowerAscii(view->name)));
    if (!named) continue;
    CacheUse use{k.file.rel, "direct", "", 0};
    if (impl_->Active(k)) {
      use.state = "cached";
      ++cache_stats_.hits;
      uses.push_back(use);
      continue;
    }
    auto direct = [&](std::string reason, bool for_good) {
      use.reason = std::move(reason);
      if (for_good) k.direct_reason = use.reason;
      ++cache_stats_.direct;
      uses.push_back(use);
    };
    if (!k.direct_reason.empty()) {
      direct(k.direct_reason, true);
      continue;
    }
    if (!SameInode(k.abs, k.file.source)) {
      direct("the sandbox file is no longer the downloaded one", false);
      continue;
    }
    struct stat st {};
    if (::stat(k.abs.c_str(), &st) != 0) continue;
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size < cache_.min_bytes) {
      direct("smaller than " + std::to_string(cache_.min_bytes) + " bytes: read directly", true);
      continue;
    }
    Sniffed sn = SniffAt(impl_->root_fd, k.file.rel);
    if (sn.format != DataFormat::kCsv && sn.format != DataFormat::kJson) {
      direct(std::string(FormatName(sn.format)) + " files are read directly", true);
      continue;
    }
    int left = budget_ms - static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::steady_clock::now() - start)
                                                .count());
    ColumnarRequest req{cache_.dir,
                        dir_,
                        ReaderSql(sn.format, Virtual(k.file.rel)),
                        k.file.sha256,
                        std::string(FormatName(sn.format)),
                        size};
    auto entry = AcquireColumnar(req, limits_, std::max(1, left));
    if (!entry.ok()) {
      // A failed or interrupted import is not retried in this session: the file is read directly.
      direct(std::string(TruncateUtf8(entry.status().message(), 300)), true);
      continue;
    }
    std::string base = entry->path.substr(entry->path.rfind('/') + 1);
    std::string link = cache_.link_dir + "/" + base;
    ::unlink(link.c_str());
    if (::link(entry->path.c_str(), link.c_str()) != 0) {
      direct("linking the cache entry into the session failed: " + std::string(std::strerror(errno)), true);
      continue;
    }
    k.link = link;
    k.bytes = entry->bytes;
    k.format = req.format;
    use.state = entry->imported ? "imported" : "cached";
    use.import_ms = entry->import_ms;
    ++(entry->imported ? cache_stats_.imports : cache_stats_.hits);
    uses.push_back(use);
    if (view != nullptr) {
      Status vs = impl_->Exec("CREATE OR REPLACE VIEW " + Ident(view->name) +
                              " AS SELECT * FROM read_parquet(" + SqlString(VirtualLink(link)) + ")");
      if (!vs.ok()) {
        uses.back() = {k.file.rel, "direct", std::string(TruncateUtf8(vs.message(), 300)), 0};
        k.direct_reason = uses.back().reason;
        ::unlink(link.c_str());
        k.link.clear();
      }
    }
    changed = true;
  }
  if (changed) impl_->UpdateRedirects();
  return uses;
}

std::string SqlSandbox::RewriteCsvCalls(const std::string& sql) const {
  if (impl_->redirects->csv.empty()) return sql;
  std::string lower = ToLowerAscii(sql), out;
  size_t i = 0;
  auto skip_space = [&](size_t p) {
    while (p < sql.size() && std::isspace(static_cast<unsigned char>(sql[p])) != 0) ++p;
    return p;
  };
  for (size_t p = lower.find("read_csv", i); p != std::string::npos; p = lower.find("read_csv", i)) {
    size_t q = p + 8;
    if (lower.compare(q, 5, "_auto") == 0) q += 5;
    size_t lit = skip_space(q);
    bool ok = (p == 0 || !IdentChar(sql[p - 1])) && lit < sql.size() && sql[lit] == '(';
    size_t open = ok ? skip_space(lit + 1) : 0;
    ok = ok && open < sql.size() && sql[open] == '\'';
    size_t close = ok ? sql.find('\'', open + 1) : std::string::npos;
    ok = ok && close != std::string::npos && (close + 1 >= sql.size() || sql[close + 1] != '\'');
    size_t end = ok ? skip_space(close + 1) : 0;
    ok = ok && end < sql.size() && sql[end] == ')';
    std::string parquet;
    if (ok) {
      std::string rel = RelOf(sql.substr(open + 1, close - open - 1));
      if (!rel.empty()) parquet = impl_->redirects->Find(InodeAt(impl_->root_fd, rel));
    }
    if (parquet.empty()) {
      out += sql.substr(i, q - i);
      i = q;
      continue;
    }
    out += sql.substr(i, p - i) + "read_parquet(" + SqlString(parquet) + ")";
    i = end + 1;
  }
  return out + sql.substr(i);
}

}  // namespace lakeqa::exec
