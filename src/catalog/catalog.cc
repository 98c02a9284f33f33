#include "lakeqa/catalog/catalog.h"

#include <sqlite3.h>

#include <cstdlib>
#include <map>

#include "catalog/sqlite_util.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::catalog {
namespace {

// Version 2. A file's small, fixed-size facts live in `files`; its profile, column names and parsed
// metadata (kilobytes) in `profiles`, keyed by files.id. The builder lists every file first and profiles
// it later: were the kilobytes stored in the `files` row, every profile commit would grow a listed row in
// place and split its page (v1 did: a 1 M-file catalog was 4.5 GB with pages half empty). Appended in id
// order instead, `profiles` pages fill completely. Within a profiles row, columns and metadata come
// before the profile so that dataset aggregation reads them without walking the profile's overflow pages.
// Bookkeeping columns (seen, profiled, dirty) drive the resumable builder; Dump() leaves them out.
const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL,
  dataset_id TEXT NOT NULL,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  etag TEXT NOT NULL,
  mtime_ms INTEGER NOT NULL,
  is_metadata INTEGER NOT NULL DEFAULT 0,
  profiled INTEGER NOT NULL DEFAULT 0,
  seen INTEGER NOT NULL DEFAULT 0,
  profile_mode TEXT,
  format TEXT,
  error TEXT,
  error_code TEXT
);
CREATE INDEX IF NOT EXISTS files_by_dataset ON files(namespace, dataset_id);
CREATE TABLE IF NOT EXISTS profiles(
  file_id INTEGER PRIMARY KEY,
  columns TEXT,
  metadata TEXT,
  profile TEXT
);
CREATE TABLE IF NOT EXISTS datasets(
  namespace TEXT NOT NULL,
  dataset_id TEXT NOT NULL,
  title TEXT, description TEXT, publisher TEXT,
  tags TEXT, themes TEXT, category TEXT,
  temporal TEXT, spatial TEXT, license TEXT, source_url TEXT, modified TEXT,
  columns TEXT, metadata_files TEXT,
  file_count INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  error_count INTEGER NOT NULL DEFAULT 0,
  dirty INTEGER NOT NULL DEFAULT 1,
  UNIQUE(namespace, dataset_id)
);
CREATE INDEX IF NOT EXISTS datasets_dirty ON datasets(dirty) WHERE dirty = 1;
)sql";

// The catalog is derived data: an older schema is dropped and the next build re-reads the lake.
const char* kDropOldSchema = R"sql(
DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS profiles; DROP TABLE IF EXISTS datasets;
DELETE FROM meta;
)sql";

Json ParseStored(const std::string& text) {
  if (text.empty()) return Json();
  auto j = ParseJson(text, "catalog");
  return j.ok() ? *j : Json();
}

std::vector<std::string> StringList(const std::string& text) {
  Json j = ParseStored(text);
  std::vector<std::string> out;
  if (j.is_array()) {
    for (const auto& e : j) {
      if (e.is_string()) out.push_back(e.get<std::string>());
    }
  }
  return out;
}

const char* kDatasetCols =
    "namespace, dataset_id, title, description, publisher, tags, themes, category, temporal, spatial, "
    "license, "
    "source_url, modified, columns, metadata_files, file_count, bytes, error_count";

DatasetRecord ReadDataset(const Stmt& s) {
  DatasetRecord d;
  d.ns = s.Text(0);
  d.dataset_id = s.Text(1);
  d.metadata.title = s.Text(2);
  d.metadata.description = s.Text(3);
  d.metadata.publisher = s.Text(4);
  d.metadata.tags = StringList(s.Text(5));
  d.metadata.themes = StringList(s.Text(6));
  d.category = s.Text(7);
  d.metadata.temporal = s.Text(8);
  d.metadata.spatial = s.Text(9);
  d.metadata.license = s.Text(10);
  d.metadata.source_url = s.Text(11);
  d.metadata.modified = s.Text(12);
  d.columns = StringList(s.Text(13));
  d.metadata.metadata_files = StringList(s.Text(14));
  d.file_count = static_cast<uint64_t>(s.Int(15));
  d.bytes = static_cast<uint64_t>(s.Int(16));
  d.error_count = static_cast<uint64_t>(s.Int(17));
  return d;
}

// Columns of `kFileFrom` that ReadFile() reads.
const char* kFileCols =
    "f.key, f.namespace, f.dataset_id, f.path, f.size, f.etag, f.mtime_ms, f.format, p.profile, p.metadata, "
    "f.error, "
    "f.error_code, f.is_metadata, f.profile_mode";
const char* kFileFrom = " FROM files f LEFT JOIN profiles p ON p.file_id = f.id ";

FileRecord ReadFile(const Stmt& s) {
  FileRecord f;
  f.key = s.Text(0);
  f.ns = s.Text(1);
  f.dataset_id = s.Text(2);
  f.path = s.Text(3);
  f.size = static_cast<uint64_t>(s.Int(4));
  f.etag = s.Text(5);
  f.mtime_ms = s.Int(6);
  f.format = s.Text(7);
  if (!s.IsNull(8)) f.profile = ParseStored(s.Text(8));
  if (!s.IsNull(9)) f.metadata = ParseStored(s.Text(9));
  f.error = s.Text(10);
  f.error_code = s.Text(11);
  f.is_metadata = s.Int(12) != 0;
  f.profile_mode = s.Text(13);
  return f;
}

// The smallest string above every string that starts with p; "" when there is none (p is all 0xFF bytes).
std::string PrefixUpperBound(std::string p) {
  while (!p.empty() && static_cast<unsigned char>(p.back()) == 0xFF) p.pop_back();
  if (!p.empty()) p.back() = static_cast<char>(static_cast<unsigned char>(p.back()) + 1);
  return p;
}

// Splits "datagov/x" into ("datagov", "x").
bool SplitFullId(const std::string& full, std::string& ns, std::string& id) {
  size_t slash = full.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  ns = full.substr(0, slash);
  id = full.substr(slash + 1);
  while (!id.empty() && id.back() == '/') id.pop_back();
  return !id.empty();
}

}  // namespace

void SplitKey(const std::string& key, std::string& ns, std::string& dataset_id, std::string& path) {
  size_t a = key.find('/');
  if (a == std::string::npos) {
    ns.clear();
    dataset_id.clear();
    path = key;
    return;
  }
  ns = key.substr(0, a);
  size_t b = key.find('/', a + 1);
  if (b == std::string::npos) {
    dataset_id.clear();
    path = key.substr(a + 1);
    return;
  }
  dataset_id = key.substr(a + 1, b - a - 1);
  path = key.substr(b + 1);
}

Json FileRecord::ToJson() const {
  Json j = {{"key", key},
            {"path", path},
            {"size", size},
            {"etag", etag},
            {"mtime_ms", mtime_ms},
            {"format", format},
            {"is_metadata", is_metadata},
            {"profile_mode", profile_mode}};
  if (profile) j["profile"] = *profile;
  if (metadata) j["metadata"] = *metadata;
  if (!error.empty()) j["error"] = {{"code", error_code}, {"message", error}};
  return j;
}

Json DatasetRecord::ToJson() const {
  Json j = {
      {"id", FullId()},           {"namespace", ns}, {"dataset_id", dataset_id},  {"category", category},
      {"file_count", file_count}, {"bytes", bytes},  {"error_count", error_count}};
  Json m = metadata.ToJson();
  for (auto& [k, v] : m.items()) j[k] = v;
  j["columns"] = columns;
  return j;
}

Json CatalogStats::ToJson() const {
  auto table = [](const std::vector<std::pair<std::string, CountBytes>>& rows) {
    Json a = Json::array();
    for (const auto& [k, v] : rows) a.push_back({{"name", k}, {"count", v.count}, {"bytes", v.bytes}});
    return a;
  };
  Json errs = Json::array();
  for (const auto& [k, v] : errors_by_code) errs.push_back({{"code", k}, {"count", v}});
  return {{"datasets", datasets},
          {"files", files},
          {"bytes", bytes},
          {"file_errors", file_errors},
          {"unprofiled_files", unprofiled},
          {"by_namespace", table(by_namespace)},
          {"by_format", table(by_format)},
          {"by_category", table(by_category)},
          {"errors_by_code", errs}};
}

Result<std::unique_ptr<Catalog>> Catalog::Open(const std::string& path, bool read_only) {
  sqlite3* db = nullptr;
  int flags = read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  flags |= SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    Status s = db ? SqliteError(db, "opening catalog " + path) : IoError("opening catalog " + path);
    if (read_only && s.code() == ErrorCode::kIoError)
      s = NotFound("no catalog at " + path + " (run `lakeqa index build`)");
    sqlite3_close(db);
    return s;
  }
  std::unique_ptr<Catalog> cat(new Catalog(db));
  sqlite3_busy_timeout(db, 10000);
  // WAL: readers never block the builder, and a kill -9 loses at most the transaction in flight.
  if (!read_only) {
    LAKEQA_RETURN_IF_ERROR(Exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;").WithContext(path));
    LAKEQA_RETURN_IF_ERROR(Exec(db, kSchema).WithContext(path));
    // A builder connection: a page cache big enough for the key index's upper levels at 40 M files,
    // and fewer, larger checkpoints. Both are bounded, whatever the lake's size.
    LAKEQA_RETURN_IF_ERROR(
        Exec(db, "PRAGMA cache_size=-65536; PRAGMA wal_autocheckpoint=8192;").WithContext(path));
    LAKEQA_RETURN_IF_ERROR(
        Exec(db, "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            .WithContext(path));
    auto v = cat->GetMeta("schema_version");
    int64_t version = v ? std::atoll(v->c_str()) : kSchemaVersion;
    if (version > kSchemaVersion) {
      return Corrupt(path + ": catalog schema version " + *v + " is newer than this lakeqa's (" +
                     std::to_string(kSchemaVersion) + "); rebuild the index or upgrade lakeqa");
    }
    if (version < kSchemaVersion) {
      LAKEQA_LOG_WARN("{}: catalog schema version {} is older than {}; it is rebuilt from the lake", path, *v,
                      kSchemaVersion);
      LAKEQA_RETURN_IF_ERROR(Exec(db, kDropOldSchema).WithContext(path));
    }
    LAKEQA_RETURN_IF_ERROR(Exec(db, kSchema).WithContext(path));
    if (version != kSchemaVersion || !v) {
      LAKEQA_RETURN_IF_ERROR(cat->SetMeta("schema_version", std::to_string(kSchemaVersion)));
    }
  } else {
    Stmt check(db, "SELECT value FROM meta WHERE key='schema_version'");
    if (!check.status().ok()) return check.status().WithContext(path);
    if (!check.Step()) return Corrupt(path + ": catalog has no schema version (rebuild the index)");
    if (check.Text(0) != std::to_string(kSchemaVersion)) {
      return Corrupt(path + ": catalog schema version " + check.Text(0) + ", this lakeqa reads version " +
                     std::to_string(kSchemaVersion) + " (run `lakeqa index build` again to rebuild it)");
    }
  }
  return cat;
}

Catalog::~Catalog() { sqlite3_close(db_); }

std::optional<std::string> Catalog::GetMeta(const std::string& key) {
  Stmt s(db_, "SELECT value FROM meta WHERE key=?");
  s.Bind(1, key);
  if (s.Step()) return s.Text(0);
  return std::nullopt;
}

Status Catalog::SetMeta(const std::string& key, const std::string& value) {
  Stmt s(db_,
         "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value");
  return s.Bind(1, key).Bind(2, value).Run();
}

namespace {

// A byte-prefix over "namespace/dataset_id" as a key range on UNIQUE(namespace, dataset_id), so that a
// prefix lookup costs the matches, not a scan of every dataset (S3 list-with-prefix semantics). The
// clause binds ?1 (low), ?4 (namespace) and ?5 (high); BindPrefixRange binds them.
struct PrefixRange {
  std::string where, low, ns, high;
  bool has_ns = false;
};

PrefixRange DatasetPrefixRange(const std::string& prefix) {
  PrefixRange r;
  size_t slash = prefix.find('/');
  r.has_ns = slash != std::string::npos;
  std::string col = r.has_ns ? "dataset_id" : "namespace";
  r.low = r.has_ns ? prefix.substr(slash + 1) : prefix;
  if (r.has_ns) r.ns = prefix.substr(0, slash);
  r.high = PrefixUpperBound(r.low);
  r.where = std::string(" WHERE ") + (r.has_ns ? "namespace = ?4 AND " : "") + col + " >= ?1" +
            (r.high.empty() ? "" : " AND " + col + " < ?5");
  return r;
}

void BindPrefixRange(Stmt& s, const PrefixRange& r) {
  s.Bind(1, r.low);
  if (r.has_ns) s.Bind(4, r.ns);
  if (!r.high.empty()) s.Bind(5, r.high);
}

}  // namespace

Result<std::vector<DatasetRecord>> Catalog::ListDatasets(const std::string& prefix, uint64_t limit,
                                                         uint64_t offset) {
  PrefixRange r = DatasetPrefixRange(prefix);
  std::string sql = std::string("SELECT ") + kDatasetCols + " FROM datasets" + r.where +
                    " ORDER BY namespace, dataset_id LIMIT ?2 OFFSET ?3";
  Stmt s(db_, sql.c_str());
  BindPrefixRange(s, r);
  s.Bind(2, static_cast<int64_t>(limit)).Bind(3, static_cast<int64_t>(offset));
  std::vector<DatasetRecord> out;
  while (s.Step()) out.push_back(ReadDataset(s));
  if (!s.status().ok()) return s.status();
  return out;
}

Result<uint64_t> Catalog::CountDatasets(const std::string& prefix) {
  PrefixRange r = DatasetPrefixRange(prefix);
  Stmt s(db_, ("SELECT count(*) FROM datasets" + r.where).c_str());
  BindPrefixRange(s, r);
  if (s.Step()) return static_cast<uint64_t>(s.Int(0));
  if (!s.status().ok()) return s.status();
  return Internal("count(*) over datasets returned no row");
}

Result<DatasetRecord> Catalog::ResolveDataset(const std::string& id) {
  if (id.find('/') != std::string::npos) return GetDataset(id);
  Stmt s(db_, (std::string("SELECT ") + kDatasetCols +
               " FROM datasets WHERE dataset_id=? ORDER BY namespace LIMIT 10")
                  .c_str());
  s.Bind(1, id);
  std::vector<DatasetRecord> found;
  while (s.Step()) found.push_back(ReadDataset(s));
  if (!s.status().ok()) return s.status();
  if (found.empty()) return NotFound("no dataset '" + id + "' in any namespace of the catalog");
  if (found.size() > 1) {
    std::string ids;
    for (const auto& d : found) ids += (ids.empty() ? "" : ", ") + d.FullId();
    return InvalidArgument("dataset id '" + id + "' is ambiguous: pass one of " + ids);
  }
  return found[0];
}

Result<DatasetRecord> Catalog::GetDataset(const std::string& full_id) {
  std::string ns, id;
  if (!SplitFullId(full_id, ns, id))
    return InvalidArgument("dataset id must be <namespace>/<id>: " + full_id);
  Stmt s(
      db_,
      (std::string("SELECT ") + kDatasetCols + " FROM datasets WHERE namespace=? AND dataset_id=?").c_str());
  s.Bind(1, ns).Bind(2, id);
  if (s.Step()) return ReadDataset(s);
  if (!s.status().ok()) return s.status();
  return NotFound("no dataset " + full_id + " in the catalog");
}

Result<std::vector<FileRecord>> Catalog::ListFiles(const std::string& full_id) {
  std::string ns, id;
  if (!SplitFullId(full_id, ns, id))
    return InvalidArgument("dataset id must be <namespace>/<id>: " + full_id);
  Stmt s(db_, (std::string("SELECT ") + kFileCols + kFileFrom +
               "WHERE f.namespace=? AND f.dataset_id=? ORDER BY f.key")
                  .c_str());
  s.Bind(1, ns).Bind(2, id);
  std::vector<FileRecord> out;
  while (s.Step()) out.push_back(ReadFile(s));
  if (!s.status().ok()) return s.status();
  return out;
}

Result<FileRecord> Catalog::GetFile(const std::string& key) {
  Stmt s(db_, (std::string("SELECT ") + kFileCols + kFileFrom + "WHERE f.key=?").c_str());
  s.Bind(1, key);
  if (s.Step()) return ReadFile(s);
  if (!s.status().ok()) return s.status();
  return NotFound("no file " + key + " in the catalog");
}

Result<CatalogStats> Catalog::Stats() {
  CatalogStats st;
  {
    Stmt s(db_,
           "SELECT count(*), coalesce(sum(size), 0), coalesce(sum(error IS NOT NULL AND error != ''), 0), "
           "coalesce(sum(profiled = 0), 0) FROM files");
    if (!s.Step()) return s.status();
    st.files = static_cast<uint64_t>(s.Int(0));
    st.bytes = static_cast<uint64_t>(s.Int(1));
    st.file_errors = static_cast<uint64_t>(s.Int(2));
    st.unprofiled = static_cast<uint64_t>(s.Int(3));
  }
  auto rows = [&](const char* sql, std::vector<std::pair<std::string, CountBytes>>& out) -> Status {
    Stmt s(db_, sql);
    while (s.Step())
      out.push_back({s.Text(0), {static_cast<uint64_t>(s.Int(1)), static_cast<uint64_t>(s.Int(2))}});
    return s.status();
  };
  LAKEQA_RETURN_IF_ERROR(
      rows("SELECT namespace, count(*), sum(bytes) FROM datasets GROUP BY namespace ORDER BY namespace",
           st.by_namespace));
  LAKEQA_RETURN_IF_ERROR(
      rows("SELECT coalesce(format, ''), count(*), sum(size) FROM files GROUP BY 1 ORDER BY 2 DESC, 1",
           st.by_format));
  LAKEQA_RETURN_IF_ERROR(
      rows("SELECT coalesce(category, ''), count(*), sum(bytes) FROM datasets GROUP BY 1 ORDER BY 2 DESC, 1",
           st.by_category));
  for (const auto& [k, v] : st.by_namespace) st.datasets += v.count;
  Stmt e(db_,
         "SELECT error_code, count(*) FROM files WHERE error IS NOT NULL AND error != '' GROUP BY 1 ORDER BY "
         "2 DESC");
  while (e.Step()) st.errors_by_code.push_back({e.Text(0), static_cast<uint64_t>(e.Int(1))});
  LAKEQA_RETURN_IF_ERROR(e.status());
  return st;
}

Status Catalog::ForEachDataset(
    const std::function<Status(const DatasetRecord&, const std::vector<FileRecord>&)>& visit) {
  Stmt ds(db_,
          (std::string("SELECT ") + kDatasetCols + " FROM datasets ORDER BY namespace, dataset_id").c_str());
  Stmt fs(db_, (std::string("SELECT ") + kFileCols + kFileFrom +
                "WHERE f.namespace=? AND f.dataset_id=? ORDER BY f.key")
                   .c_str());
  while (ds.Step()) {
    DatasetRecord d = ReadDataset(ds);
    fs.Bind(1, d.ns).Bind(2, d.dataset_id);
    std::vector<FileRecord> files;
    while (fs.Step()) files.push_back(ReadFile(fs));
    LAKEQA_RETURN_IF_ERROR(fs.status());
    fs.Reset();
    LAKEQA_RETURN_IF_ERROR(visit(d, files));
  }
  return ds.status();
}

Status Catalog::ForEachTitleGroup(
    const std::function<Status(const std::string& title, const std::vector<std::string>& ids)>& visit) {
  Stmt st(db_,
          "SELECT lower(trim(title)), title, namespace, dataset_id FROM datasets WHERE lower(trim(title)) IN "
          "(SELECT lower(trim(title)) FROM datasets WHERE trim(title) != '' GROUP BY 1 HAVING count(*) > 1) "
          "ORDER BY 1, namespace, dataset_id");
  std::string key, title;
  std::vector<std::string> ids;
  while (st.Step()) {
    if (st.Text(0) != key) {
      if (ids.size() > 1) LAKEQA_RETURN_IF_ERROR(visit(title, ids));
      ids.clear();
      key = st.Text(0);
      title = st.Text(1);
    }
    ids.push_back(st.Text(2) + "/" + st.Text(3));
  }
  LAKEQA_RETURN_IF_ERROR(st.status());
  if (ids.size() > 1) LAKEQA_RETURN_IF_ERROR(visit(title, ids));
  return Status::Ok();
}

Status Catalog::Dump(const std::function<void(const std::string& line)>& out, bool ignore_etag_mtime) {
  Stmt ds(db_,
          (std::string("SELECT ") + kDatasetCols + " FROM datasets ORDER BY namespace, dataset_id").c_str());
  while (ds.Step()) out("dataset " + DumpJson(ReadDataset(ds).ToJson()));
  LAKEQA_RETURN_IF_ERROR(ds.status());
  Stmt fs(db_, (std::string("SELECT ") + kFileCols + kFileFrom + "ORDER BY f.key").c_str());
  while (fs.Step()) {
    Json j = ReadFile(fs).ToJson();
    if (ignore_etag_mtime) {
      j.erase("etag");
      j.erase("mtime_ms");
    }
    out("file " + DumpJson(j));
  }
  return fs.status();
}

}  // namespace lakeqa::catalog
