#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/catalog/lake_check.h"

#include <openssl/evp.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>

#include "catalog/sqlite_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/metadata.h"
#include "lakeqa/ingest/profile.h"
#include "lakeqa/lake/s3_store.h"

namespace lakeqa::catalog {
namespace {

constexpr size_t kBatch = 512;
constexpr uint64_t kMetadataCap = 16u << 20;
constexpr uint64_t kWikiHeadBytes = 8192;
constexpr size_t kMaxDatasetColumns = 512;

struct Todo {
  int64_t id = 0;  // files.id
  std::string key;
  uint64_t size = 0;
};

struct Done {
  int64_t id = 0;
  std::string key;
  std::string format;
  std::string profile;   // JSON text or ""
  std::string columns;   // JSON array of column names or ""
  std::string metadata;  // JSON text or ""
  std::string error, error_code;
  uint64_t bytes_read = 0;
};

bool IsWikiContent(const std::string& ns, const std::string& path) {
  return ns == "wikipedia" && path == "content.txt";
}

// Reads and profiles one file according to the mode. Never fails: problems become the row's error.
Done ProfileOne(lake::Store& store, const Todo& t, const BuildOptions& o) {
  Done d;
  d.id = t.id;
  d.key = t.key;
  std::string ns, id, path;
  SplitKey(t.key, ns, id, path);
  if (id.empty()) {
    d.error = "not inside a <namespace>/<dataset>/ folder; not part of any dataset";
    d.error_code = std::string(CodeName(ErrorCode::kInvalidArgument));
    return d;
  }
  bool meta = ingest::IsMetadataFile(path);
  bool wiki = IsWikiContent(ns, path);
  uint64_t limit = UINT64_MAX;
  if (meta) limit = kMetadataCap;
  else if (o.mode == ProfileMode::kNone) limit = wiki ? kWikiHeadBytes : 0;
  else if (o.mode == ProfileMode::kHead) limit = o.head_bytes;
  if (limit == 0) return d;  // names and sizes only

  ingest::ProfileOptions popts;
  popts.max_bytes = limit;
  std::string whole;  // metadata files are parsed whole
  Result<ingest::FileProfile> prof = ingest::FileProfile{};
  if (t.size == 0 && store.IsRemote()) {
    // Nothing to read: the listing says the object is empty. Saves a request per empty file, and a ranged
    // GET of an empty object is where S3 servers disagree (416 from S3, a malformed 206 from s3rver).
    // Locally a size of 0 may be a FIFO or a symlink loop, which the read reports, so that still reads.
    ingest::Profiler profiler(path, popts);
    prof = profiler.Finish(false);
  } else if (limit != UINT64_MAX && !meta) {
    // One ranged request instead of a stream: what head mode costs on S3 (a zip larger than the head
    // costs a few more, read from its end: ingest::ProfileHead).
    ingest::HeadRead hr;
    prof = ingest::ProfileHead(store, t.key, t.size, path, popts, &hr);
    d.bytes_read = hr.bytes_read;
    if (!prof.ok()) {
      d.error = prof.status().message();
      d.error_code = std::string(CodeName(prof.status().code()));
      return d;
    }
  } else {
    ingest::Profiler profiler(path, popts);
    Status s = store.ReadStream(t.key, [&](std::string_view chunk) {
      d.bytes_read += chunk.size();
      if (meta) {
        if (whole.size() + chunk.size() > kMetadataCap) return false;
        whole.append(chunk);
      }
      return profiler.Feed(chunk);
    });
    if (!s.ok()) {
      d.error = s.message();
      d.error_code = std::string(CodeName(s.code()));
      return d;
    }
    prof = profiler.Finish(t.size > d.bytes_read);
  }
  if (prof.ok()) {
    d.format = std::string(ingest::FormatName(prof->format));
    d.profile = DumpJson(prof->ToJson());
    if (!prof->columns.empty()) {
      Json names = Json::array();
      for (const auto& c : prof->columns) names.push_back(c.name);
      d.columns = DumpJson(names);
    }
    if (!prof->corrupt.empty()) {
      d.error = prof->corrupt;
      d.error_code = std::string(CodeName(ErrorCode::kParseError));
    }
  } else {
    d.error = prof.status().message();
    d.error_code = std::string(CodeName(prof.status().code()));
  }
  if (meta) {
    auto m =
        t.size > kMetadataCap
            ? Result<ingest::DatasetMetadata>(ResourceExhausted(path + ": metadata file larger than 16 MiB"))
            : ingest::ParseMetadataFile(path, whole);
    if (m.ok()) {
      d.metadata = DumpJson(m->ToJson());
    } else {
      // The metadata parser's error wins over the profiler's: it names the file and the line:column
      // ("signed-metadata.txt:3:2: ..."), where the streaming profiler only knows a byte offset.
      d.error = m.status().message();
      d.error_code = std::string(CodeName(m.status().code()));
    }
  }
  return d;
}

std::string Hex(const unsigned char* h, size_t n) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += kHex[h[i] >> 4];
    out += kHex[h[i] & 15];
  }
  return out;
}

// The statements phase 3 runs per dataset, prepared once.
struct DatasetStatements {
  explicit DatasetStatements(sqlite3* db)
      : files(db,
              "SELECT f.path, f.size, CASE WHEN f.namespace = 'wikipedia' AND f.path = 'content.txt' THEN "
              "p.profile END, "
              "p.metadata, f.error, f.is_metadata, p.columns FROM files f LEFT JOIN profiles p ON p.file_id "
              "= f.id "
              "WHERE f.namespace=? AND f.dataset_id=? ORDER BY f.key"),
        del(db, "DELETE FROM datasets WHERE namespace=? AND dataset_id=?"),
        up(db,
           R"sql(INSERT INTO datasets(namespace, dataset_id, title, description, publisher, tags, themes, category,
      temporal, spatial, license, source_url, modified, columns, metadata_files, file_count, bytes, error_count, dirty)
      VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)
      ON CONFLICT(namespace, dataset_id) DO UPDATE SET title=excluded.title, description=excluded.description,
      publisher=excluded.publisher, tags=excluded.tags, themes=excluded.themes, category=excluded.category,
      temporal=excluded.temporal, spatial=excluded.spatial, license=excluded.license, source_url=excluded.source_url,
      modified=excluded.modified, columns=excluded.columns, metadata_files=excluded.metadata_files,
      file_count=excluded.file_count, bytes=excluded.bytes, error_count=excluded.error_count, dirty=0)sql") {}
  Stmt files, del, up;
};

// Recomputes one dataset row from its files.
Status RecomputeDataset(DatasetStatements& st, const std::string& ns, const std::string& id) {
  Stmt& files = st.files;
  files.Bind(1, ns).Bind(2, id);
  ingest::DatasetMetadata meta;
  std::vector<std::string> columns;
  std::set<std::string> column_set;
  uint64_t count = 0, bytes = 0, errors = 0;
  // Metadata files in a fixed precedence: the catalog record first, then publisher views and layers.
  std::vector<std::pair<int, ingest::DatasetMetadata>> parts;
  auto add_column = [&](const std::string& c) {
    if (!c.empty() && columns.size() < kMaxDatasetColumns && column_set.insert(c).second)
      columns.push_back(c);
  };
  while (files.Step()) {
    ++count;
    bytes += static_cast<uint64_t>(files.Int(1));
    if (!files.Text(4).empty()) ++errors;
    std::string path = files.Text(0);
    if (!files.IsNull(3)) {
      auto j = ParseJson(files.Text(3), "metadata");
      if (j.ok()) {
        int rank = path == "signed-metadata.txt"            ? 0
                   : path == "metadata.json"                ? 1
                   : EndsWith(path, ".publisher-view.json") ? 2
                                                            : 3;
        parts.emplace_back(rank, ingest::DatasetMetadata::FromJson(*j));
      }
    }
    // Only a Wikipedia page's own profile is read here (for its lead paragraph); other files contribute
    // their column names, kept apart so that this phase never parses whole profiles.
    if (!files.IsNull(2)) {
      auto p = ParseJson(files.Text(2), "profile");
      if (p.ok()) parts.emplace_back(4, ingest::WikipediaMetadata(id, p->value("text_sample", "")));
    }
    if (!files.IsNull(6) && !files.Int(5)) {
      auto names = ParseJson(files.Text(6), "columns");
      if (names.ok() && names->is_array()) {
        for (const auto& c : *names) {
          if (c.is_string()) add_column(c.get<std::string>());
        }
      }
    }
  }
  LAKEQA_RETURN_IF_ERROR(files.status());
  files.Reset();
  if (ns == "wikipedia" && parts.empty()) parts.emplace_back(4, ingest::WikipediaMetadata(id, ""));
  std::stable_sort(parts.begin(), parts.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [rank, m] : parts) meta.MergeFrom(m);
  std::vector<std::string> all = meta.columns;
  for (auto& c : columns) {
    if (std::find(all.begin(), all.end(), c) == all.end() && all.size() < kMaxDatasetColumns)
      all.push_back(c);
  }
  if (count == 0) return st.del.Bind(1, ns).Bind(2, id).Run();
  std::string category = ingest::CategorizeThemes(meta);
  Stmt& up = st.up;
  up.Bind(1, ns).Bind(2, id).Bind(3, meta.title).Bind(4, meta.description).Bind(5, meta.publisher);
  up.Bind(6, DumpJson(Json(meta.tags))).Bind(7, DumpJson(Json(meta.themes))).Bind(8, category);
  up.Bind(9, meta.temporal)
      .Bind(10, meta.spatial)
      .Bind(11, meta.license)
      .Bind(12, meta.source_url)
      .Bind(13, meta.modified);
  up.Bind(14, DumpJson(Json(all))).Bind(15, DumpJson(Json(meta.metadata_files)));
  up.Bind(16, static_cast<int64_t>(count))
      .Bind(17, static_cast<int64_t>(bytes))
      .Bind(18, static_cast<int64_t>(errors));
  return up.Run();
}

Status MarkDirty(Stmt& dirty, const std::string& key) {
  std::string ns, id, path;
  SplitKey(key, ns, id, path);
  if (id.empty()) return Status::Ok();
  return dirty.Bind(1, ns).Bind(2, id).Run();
}

const char* kMarkDirty =
    "INSERT INTO datasets(namespace, dataset_id, dirty) VALUES(?, ?, 1) "
    "ON CONFLICT(namespace, dataset_id) DO UPDATE SET dirty=1";

}  // namespace

std::string_view ProfileModeName(ProfileMode m) {
  switch (m) {
    case ProfileMode::kNone: return "none";
    case ProfileMode::kHead: return "head";
    case ProfileMode::kFull: return "full";
  }
  return "head";
}

Result<ProfileMode> ParseProfileMode(std::string_view name) {
  if (name == "none") return ProfileMode::kNone;
  if (name == "head") return ProfileMode::kHead;
  if (name == "full") return ProfileMode::kFull;
  return InvalidArgument("--profile must be auto, none, head or full, not '" + std::string(name) + "'");
}

Json BuildReport::ToJson() const {
  return {{"listed", listed},     {"unchanged", unchanged},   {"profiled", profiled},
          {"removed", removed},   {"errors", errors},         {"datasets_updated", datasets_updated},
          {"datasets", datasets}, {"bytes_read", bytes_read}, {"requests", requests},
          {"seconds", seconds},   {"estimate", estimate},     {"warnings", warnings}};
}

FirstBuildCleanup::FirstBuildCleanup(std::string index_dir) : dir_(std::move(index_dir)) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const IndexDir index(dir_);
  first_ = !PathExists(index.Catalog()) && !PathExists(index.Manifest());
  created_dir_ = !fs::exists(dir_, ec);
  if (!first_ || created_dir_) return;
  std::string partial = index.PartialBuild();
  if (PathExists(IndexDir(partial).Catalog())) {
    for (std::string_view name : IndexDir::kCatalogFiles) {
      std::string f(name);
      if (PathExists(partial + "/" + f)) fs::rename(partial + "/" + f, dir_ + "/" + f, ec);
    }
    fs::remove_all(partial, ec);
    resumed_ = true;
  }
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    std::string name = e.path().filename().string();
    if (!name.starts_with(IndexDir::kCatalogName)) kept_.push_back(name);
  }
}

FirstBuildCleanup::~FirstBuildCleanup() {
  if (done_ || !first_) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir_, ec)) return;
  bool stash = PathExists(IndexDir(dir_).Catalog());
  if (stash) {
    std::string partial = IndexDir(dir_).PartialBuild();
    fs::create_directories(partial, ec);
    for (std::string_view name : IndexDir::kCatalogFiles) {
      std::string f(name);
      if (PathExists(dir_ + "/" + f)) fs::rename(dir_ + "/" + f, partial + "/" + f, ec);
    }
  }
  if (created_dir_ && !stash) {
    fs::remove_all(dir_, ec);
    return;
  }
  std::vector<fs::path> made;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    std::string name = e.path().filename().string();
    if (name != IndexDir::kPartialBuildName && std::find(kept_.begin(), kept_.end(), name) == kept_.end())
      made.push_back(e.path());
  }
  for (const auto& p : made) fs::remove_all(p, ec);
}

namespace {

// Phase 1: every object of the lake into files, marked seen by this generation; a changed object (size,
// etag or profile mode) is marked for profiling again.
Status ListPhase(lake::Store& store, sqlite3* db, int64_t generation, const std::string& mode,
                 const BuildOptions& o, BuildReport& report) {
  ProgressBar bar("listing", 0, "objects", o.progress);
  Stmt upsert(
      db, R"sql(INSERT INTO files(key, namespace, dataset_id, path, size, etag, mtime_ms, is_metadata, seen)
      VALUES(?,?,?,?,?,?,?,?,?)
      ON CONFLICT(key) DO UPDATE SET
        profiled = CASE WHEN files.size = excluded.size AND files.etag = excluded.etag AND files.profile_mode IS ?10
                        THEN files.profiled ELSE 0 END,
        size = excluded.size, etag = excluded.etag, mtime_ms = excluded.mtime_ms, seen = excluded.seen)sql");
  LAKEQA_RETURN_IF_ERROR(upsert.status());
  lake::ListOptions lo;
  // S3 caps a page at 1000 keys. A local listing has no per-request cost, and each page restarts the
  // directory walk from the root, so larger pages make fewer walks.
  lo.max_keys = store.IsRemote() ? 1000 : 10000;
  for (;;) {
    LAKEQA_ASSIGN_OR_RETURN(lake::ListPage page, store.List(lo));
    Transaction tx(db);
    for (const auto& obj : page.objects) {
      std::string ns, id, path;
      SplitKey(obj.key, ns, id, path);
      bool meta = !id.empty() && ingest::IsMetadataFile(path);
      upsert.Bind(1, obj.key).Bind(2, ns).Bind(3, id).Bind(4, path).Bind(5, static_cast<int64_t>(obj.size));
      upsert.Bind(6, obj.etag)
          .Bind(7, obj.mtime_ms)
          .Bind(8, int64_t{meta})
          .Bind(9, generation)
          .Bind(10, mode);
      LAKEQA_RETURN_IF_ERROR(upsert.Run());
    }
    LAKEQA_RETURN_IF_ERROR(tx.Commit());
    report.listed += page.objects.size();
    bar.Add(page.objects.size());
    if (page.next_continuation_token.empty()) break;
    lo.continuation_token = std::move(page.next_continuation_token);
  }
  bar.Finish();
  return Status::Ok();
}

// Files gone from the lake: only once the listing is complete. All in SQL, so that a lake emptied
// of 40 M files costs no memory here.
Status RemoveGone(sqlite3* db, int64_t generation, BuildReport& report) {
  Transaction tx(db);
  Stmt dirty(db,
             "INSERT INTO datasets(namespace, dataset_id, dirty) SELECT DISTINCT namespace, dataset_id, 1 "
             "FROM files "
             "WHERE seen < ?1 AND dataset_id != '' ON CONFLICT(namespace, dataset_id) DO UPDATE SET dirty=1");
  LAKEQA_RETURN_IF_ERROR(dirty.Bind(1, generation).Run());
  Stmt profiles(db, "DELETE FROM profiles WHERE file_id IN (SELECT id FROM files WHERE seen < ?)");
  LAKEQA_RETURN_IF_ERROR(profiles.Bind(1, generation).Run());
  Stmt del(db, "DELETE FROM files WHERE seen < ?");
  LAKEQA_RETURN_IF_ERROR(del.Bind(1, generation).Run());
  report.removed = static_cast<uint64_t>(sqlite3_changes64(db));
  LAKEQA_RETURN_IF_ERROR(tx.Commit());
  return Status::Ok();
}

// The cost of phase 2, known exactly before any file is read.
Status Estimate(sqlite3* db, const std::string& mode, const BuildOptions& o, BuildReport& report) {
  Stmt est(db, R"sql(SELECT count(*),
      coalesce(sum(CASE WHEN is_metadata = 1 THEN min(size, ?2)
                        WHEN ?1 = 'full' THEN size
                        WHEN ?1 = 'head' THEN min(size, ?3)
                        WHEN namespace = 'wikipedia' AND path = 'content.txt' THEN min(size, ?4)
                        ELSE 0 END), 0),
      coalesce(sum(CASE WHEN is_metadata = 1 OR ?1 != 'none' OR (namespace = 'wikipedia' AND path = 'content.txt')
                        THEN 1 ELSE 0 END), 0)
      FROM files WHERE profiled = 0)sql");
  est.Bind(1, mode).Bind(2, static_cast<int64_t>(kMetadataCap)).Bind(3, static_cast<int64_t>(o.head_bytes));
  est.Bind(4, static_cast<int64_t>(kWikiHeadBytes));
  if (!est.Step()) return est.status();
  report.estimate = {{"mode", mode},
                     {"files_to_profile", est.Int(0)},
                     {"get_requests", est.Int(2)},
                     {"bytes_to_read", est.Int(1)},
                     {"list_requests_done", (report.listed + 999) / 1000}};
  report.unchanged = report.listed - static_cast<uint64_t>(est.Int(0));
  if (o.on_estimate) o.on_estimate(report.estimate);
  return Status::Ok();
}

// Phase 2: profile what changed, in id (= listing) order, in batches.
Status ProfilePhase(lake::Store& store, sqlite3* db, const std::string& mode, const BuildOptions& o,
                    BuildReport& report) {
  size_t threads = o.jobs ? o.jobs : ThreadPool::DefaultThreads();
  if (store.IsRemote()) threads = std::max<size_t>(threads, 32);
  ThreadPool pool(threads);
  uint64_t total = report.estimate["files_to_profile"].get<uint64_t>();
  ProgressBar bar("profiling", total, "files", o.progress);
  // In id order: listing order, so profiles rows are appended and their pages fill up.
  Stmt next(db, "SELECT id, key, size FROM files WHERE profiled = 0 AND id > ?1 ORDER BY id LIMIT ?2");
  Stmt save(db, "UPDATE files SET format=?, error=?, error_code=?, profile_mode=?, profiled=1 WHERE id=?");
  Stmt save_profile(db,
                    "INSERT OR REPLACE INTO profiles(file_id, columns, metadata, profile) VALUES(?,?,?,?)");
  Stmt drop_profile(db, "DELETE FROM profiles WHERE file_id=?");
  Stmt dirty(db, kMarkDirty);
  int64_t after = 0;
  uint64_t batches = 0;
  auto commit = [&](const std::vector<Done>& done) -> Status {
    Transaction tx(db);
    for (const Done& d : done) {
      auto text = [](Stmt& st, int i, const std::string& v) {
        if (v.empty()) st.BindNull(i);
        else st.Bind(i, v);
      };
      text(save, 1, d.format);
      text(save, 2, d.error);
      text(save, 3, d.error_code);
      save.Bind(4, mode).Bind(5, d.id);
      LAKEQA_RETURN_IF_ERROR(save.Run());
      if (d.profile.empty() && d.metadata.empty() && d.columns.empty()) {
        LAKEQA_RETURN_IF_ERROR(drop_profile.Bind(1, d.id).Run());
      } else {
        save_profile.Bind(1, d.id);
        text(save_profile, 2, d.columns);
        text(save_profile, 3, d.metadata);
        text(save_profile, 4, d.profile);
        LAKEQA_RETURN_IF_ERROR(save_profile.Run());
      }
      LAKEQA_RETURN_IF_ERROR(MarkDirty(dirty, d.key));
      report.bytes_read += d.bytes_read;
      if (!d.error.empty()) LAKEQA_LOG_DEBUG("{}: {}", d.key, d.error);
    }
    LAKEQA_RETURN_IF_ERROR(tx.Commit());
    report.profiled += done.size();
    if (o.debug_kill_after_batches && ++batches >= o.debug_kill_after_batches) ::raise(SIGKILL);
    return Status::Ok();
  };
  // Pipelined: the workers profile batch n+1 while this thread commits batch n.
  std::vector<Todo> todo;
  std::vector<Done> done, pending;
  for (;;) {
    todo.clear();
    next.Bind(1, after).Bind(2, static_cast<int64_t>(kBatch));
    while (next.Step()) todo.push_back({next.Int(0), next.Text(1), static_cast<uint64_t>(next.Int(2))});
    LAKEQA_RETURN_IF_ERROR(next.status());
    next.Reset();
    if (!todo.empty()) after = todo.back().id;
    done.assign(todo.size(), Done{});
    // One task per thread drawing files from a shared cursor: Submit() never blocks on the pool's bounded
    // queue, so the commit below really runs while the batch is being profiled.
    std::atomic<size_t> cursor{0};
    for (size_t w = 0; w < std::min(threads, todo.size()); ++w) {
      pool.Submit([&] {
        for (size_t i; (i = cursor.fetch_add(1)) < todo.size();) {
          done[i] = ProfileOne(store, todo[i], o);
          bar.Add(1, done[i].bytes_read);
        }
      });
    }
    Status committed = pending.empty() ? Status::Ok() : commit(pending);
    pool.Wait();
    LAKEQA_RETURN_IF_ERROR(committed);
    if (todo.empty()) break;
    pending.swap(done);
  }
  bar.Finish();
  return Status::Ok();
}

// Phase 3: datasets whose files changed, recomputed from their files.
Status DatasetPhase(sqlite3* db, BuildReport& report) {
  Stmt dirty(
      db,
      "SELECT namespace, dataset_id FROM datasets WHERE dirty = 1 ORDER BY namespace, dataset_id LIMIT ?");
  DatasetStatements statements(db);
  for (;;) {
    std::vector<std::pair<std::string, std::string>> ids;
    dirty.Bind(1, static_cast<int64_t>(kBatch));
    while (dirty.Step()) ids.push_back({dirty.Text(0), dirty.Text(1)});
    LAKEQA_RETURN_IF_ERROR(dirty.status());
    dirty.Reset();
    if (ids.empty()) break;
    Transaction tx(db);
    for (const auto& [ns, id] : ids) LAKEQA_RETURN_IF_ERROR(RecomputeDataset(statements, ns, id));
    LAKEQA_RETURN_IF_ERROR(tx.Commit());
    report.datasets_updated += ids.size();
  }
  return Status::Ok();
}

// manifest.json: the lake snapshot hash is over the sorted (key, size, etag) list; the catalog's totals.
Status WriteManifest(lake::Store& store, Catalog& cat, const std::string& index_dir, const std::string& mode,
                     const BuildOptions& o, BuildReport& report) {
  sqlite3* db = cat.db();
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  ContentFingerprint content;
  Stmt all(db, "SELECT key, size, etag FROM files ORDER BY key");
  while (all.Step()) {
    std::string line = all.Text(0) + "\t" + std::to_string(all.Int(1)) + "\t" + all.Text(2) + "\n";
    EVP_DigestUpdate(ctx.get(), line.data(), line.size());
    content.Add(all.Text(0), static_cast<uint64_t>(all.Int(1)));
  }
  LAKEQA_RETURN_IF_ERROR(all.status());
  unsigned char h[EVP_MAX_MD_SIZE];
  unsigned int hlen = 0;
  EVP_DigestFinal_ex(ctx.get(), h, &hlen);
  std::string hex = Hex(h, hlen);
  LAKEQA_ASSIGN_OR_RETURN(CatalogStats stats, cat.Stats());
  report.errors = stats.file_errors;
  report.datasets = stats.datasets;
  Json manifest = {{"format_version", 1},
                   {"lakeqa_version", "0.1.0"},
                   {"lake", store.Uri()},
                   {"lake_snapshot_sha256", hex},
                   {"lake_content_sha256", content.Finish()},
                   {"catalog",
                    {{"file", IndexDir::kCatalogName},
                     {"schema_version", kSchemaVersion},
                     {"datasets", stats.datasets},
                     {"files", stats.files},
                     {"bytes", stats.bytes}}},
                   {"build", {{"profile", mode}, {"head_bytes", o.head_bytes}}}};
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(IndexDir(index_dir).Manifest(), DumpJson(manifest, 2) + "\n"));
  return Status::Ok();
}

}  // namespace

Result<BuildReport> BuildCatalog(lake::Store& store, const std::string& index_dir, const BuildOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  BuildReport report;
  // Before anything is written: a lake that cannot be opened, or an index of another lake.
  LAKEQA_ASSIGN_OR_RETURN(LakeCheck lake_check, CheckLake(store, index_dir, /*require_objects=*/false));
  if (lake_check.moved) {
    report.warnings.push_back("the index was built from " + lake_check.index_lake + "; " + lake_check.lake +
                              " holds the same files (a copy or a move): the index now names it");
  }
  if (lake_check.differs) {
    if (!o.force_other_lake) {
      return Status(ErrorCode::kAlreadyExists,
                    index_dir + " holds the index of " + lake_check.index_lake + ", not of " +
                        lake_check.lake +
                        ": choose another --index, or pass --force to replace its datasets with this lake's");
    }
    report.warnings.push_back("replacing the index of " + lake_check.index_lake + " with one of " +
                              lake_check.lake + " (--force)");
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(index_dir));
  LAKEQA_ASSIGN_OR_RETURN(auto cat, Catalog::Open(IndexDir(index_dir).Catalog()));
  sqlite3* db = cat->db();
  std::string mode(ProfileModeName(o.mode));
  auto* s3 = dynamic_cast<lake::S3Store*>(&store);
  uint64_t requests_before = s3 ? s3->requests() : 0;

  int64_t generation = std::stoll(cat->GetMeta("generation").value_or("0")) + 1;
  LAKEQA_RETURN_IF_ERROR(cat->SetMeta("generation", std::to_string(generation)));
  LAKEQA_RETURN_IF_ERROR(cat->SetMeta("build_state", "listing"));
  LAKEQA_RETURN_IF_ERROR(cat->SetMeta("lake", store.Uri()));

  LAKEQA_RETURN_IF_ERROR(ListPhase(store, db, generation, mode, o, report));
  LAKEQA_RETURN_IF_ERROR(RemoveGone(db, generation, report));
  LAKEQA_RETURN_IF_ERROR(Estimate(db, mode, o, report));
  auto phase_seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  LAKEQA_LOG_INFO("listing done after {:.2f} s", phase_seconds());
  LAKEQA_RETURN_IF_ERROR(cat->SetMeta("build_state", "profiling"));

  LAKEQA_RETURN_IF_ERROR(ProfilePhase(store, db, mode, o, report));
  LAKEQA_LOG_INFO("profiling done after {:.2f} s", phase_seconds());
  LAKEQA_RETURN_IF_ERROR(cat->SetMeta("build_state", "datasets"));

  LAKEQA_RETURN_IF_ERROR(DatasetPhase(db, report));

  LAKEQA_LOG_INFO("datasets done after {:.2f} s", phase_seconds());
  LAKEQA_RETURN_IF_ERROR(WriteManifest(store, *cat, index_dir, mode, o, report));
  LAKEQA_RETURN_IF_ERROR(cat->SetMeta("build_state", "complete"));
  report.requests = s3 ? s3->requests() - requests_before : 0;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace lakeqa::catalog
