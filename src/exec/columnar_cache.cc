#include "columnar_cache.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include <duckdb.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"

#include "duck_open.h"
#include "watchdog.h"

namespace lakeqa::exec {
namespace {

using Clock = std::chrono::steady_clock;
using Schema = std::vector<std::pair<std::string, std::string>>;  // column name, full DuckDB type

std::string Quote(std::string_view s) { return SqlQuote(s); }

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// How the importer's DuckDB sees the cache's columnar folder.
constexpr const char* kCacheAlias = "/lakeqa-cache";

// A private, locked-down DuckDB for one import: it may read the sandbox and write the cache, nothing else.
class Importer {
 public:
  Status Open(const SqlLimits& limits, const std::string& sandbox_dir, const std::string& cache_dir) {
    cache_dir_ = cache_dir;
    LAKEQA_RETURN_IF_ERROR(
        OpenLockedDuck(limits, {{kSandboxAlias, sandbox_dir, false}, {kCacheAlias, cache_dir, true}}, nullptr,
                       nullptr, &duck_));
    conn_ = duck_.conn;
    return Status::Ok();
  }
  // A cache path as this DuckDB names it.
  std::string Alias(const std::string& host_path) const {
    return std::string(kCacheAlias) + host_path.substr(cache_dir_.size());
  }
  duckdb_connection conn() const { return conn_; }
  Status Exec(const std::string& sql) { return DuckExec(conn_, sql); }
  // Column names and full type names (STRUCT(a BIGINT, ...) included) of a table expression.
  Result<Schema> Describe(const std::string& table_expr) {
    duckdb_result r;
    std::string sql = "DESCRIBE SELECT * FROM " + table_expr;
    if (duckdb_query(conn_, sql.c_str(), &r) == DuckDBError) {
      std::string msg = duckdb_result_error(&r);
      duckdb_destroy_result(&r);
      return InvalidArgument(msg);
    }
    Schema out;
    for (idx_t row = 0, n = duckdb_row_count(&r); row < n; ++row) {
      char* name = duckdb_value_varchar(&r, 0, row);
      char* type = duckdb_value_varchar(&r, 1, row);
      out.emplace_back(name != nullptr ? name : "", type != nullptr ? type : "");
      duckdb_free(name);
      duckdb_free(type);
    }
    duckdb_destroy_result(&r);
    return out;
  }

 private:
  DuckHandles duck_;
  duckdb_connection conn_ = nullptr;
  std::string cache_dir_;
};

Json SchemaJson(const Schema& s) {
  Json a = Json::array();
  for (const auto& [n, t] : s) a.push_back(Json::array({n, t}));
  return a;
}

// The entry is served only when its sidecar names its exact size and the schema the direct reader gives.
bool EntryValid(Importer& im, const std::string& path, const std::string& meta_path, const Schema& expected,
                uint64_t* bytes) {
  auto meta_text = ReadFile(meta_path, 1 << 20);
  if (!meta_text.ok()) return false;
  auto meta = ParseJson(*meta_text, meta_path);
  if (!meta.ok() || !meta->is_object() || !(*meta)["bytes"].is_number_unsigned()) return false;
  *bytes = (*meta)["bytes"].get<uint64_t>();
  if (!ColumnarEntryIntact(path, *bytes)) return false;
  if ((*meta)["schema"] != SchemaJson(expected)) return false;
  auto got = im.Describe("read_parquet(" + Quote(im.Alias(path)) + ")");
  return got.ok() && *got == expected;
}

}  // namespace

bool ColumnarEntryIntact(const std::string& path, uint64_t bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) != bytes ||
      bytes < 12)
    return false;
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return false;
  char head[4], tail[4];
  if (::pread(f.fd, head, 4, 0) != 4 || ::pread(f.fd, tail, 4, static_cast<off_t>(bytes - 4)) != 4)
    return false;
  return std::string_view(head, 4) == "PAR1" && std::string_view(tail, 4) == "PAR1";
}

Result<ColumnarEntry> AcquireColumnar(const ColumnarRequest& req, const SqlLimits& limits, int budget_ms) {
  auto start = Clock::now();
  auto deadline = start + std::chrono::milliseconds(std::max(1, budget_ms));
  if (req.sha256.size() < 8) return InvalidArgument("columnar cache: no content hash for the file");
  std::string root = req.cache_dir + "/columnar";
  std::string shard = root + "/" + req.sha256.substr(0, 2);
  std::string base = shard + "/" + req.sha256 + "." + req.format + ".v" + std::to_string(kColumnarVersion);
  ColumnarEntry entry;
  entry.path = base + ".parquet";
  std::string meta_path = base + ".meta";
  LAKEQA_RETURN_IF_ERROR(MakeDirs(shard));

  Importer im;
  LAKEQA_RETURN_IF_ERROR(im.Open(limits, req.sandbox_dir, root));
  LAKEQA_ASSIGN_OR_RETURN(Schema expected, im.Describe(req.reader_sql));
  if (EntryValid(im, entry.path, meta_path, expected, &entry.bytes)) return entry;

  // One importer per entry at a time; the others wait (within the budget) and then reuse its result.
  Fd lock{::open((base + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644)};
  if (lock.fd < 0) return ErrnoStatus(errno, "opening the columnar cache lock " + base + ".lock");
  while (::flock(lock.fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) return ErrnoStatus(errno, "locking " + base + ".lock");
    if (Clock::now() >= deadline)
      return Status(ErrorCode::kTimeout,
                    "another session is still importing this file into the columnar cache");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (EntryValid(im, entry.path, meta_path, expected, &entry.bytes)) return entry;
  // Missing, truncated or stale: remove it (a reader holding a hard link keeps its own copy of the inode).
  ::unlink(entry.path.c_str());
  ::unlink(meta_path.c_str());

  struct statvfs vfs {};
  if (::statvfs(shard.c_str(), &vfs) == 0) {
    uint64_t free_bytes = static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    // Parquet with ZSTD is smaller than the text it came from; keep the source's size free as a margin.
    if (free_bytes < req.source_bytes + (64ULL << 20))
      return ResourceExhausted("columnar cache: " + std::to_string(free_bytes >> 20) + " MiB free in " +
                               root + ", not enough to import a " + std::to_string(req.source_bytes >> 20) +
                               " MiB file");
  }
  static std::atomic<uint64_t> counter{0};
  std::string tmp =
      base + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".parquet";
  auto fail = [&](Status s) {
    ::unlink(tmp.c_str());
    return s;
  };
  int left_ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
  if (left_ms <= 0)
    return Status(ErrorCode::kTimeout, "no time left to import the file into the columnar cache");
  Status copied;
  bool fired = false;
  {
    Watchdog dog(im.conn(), left_ms);
    copied = im.Exec("COPY (SELECT * FROM " + req.reader_sql + ") TO " + Quote(im.Alias(tmp)) +
                     " (FORMAT parquet, COMPRESSION zstd)");
    fired = dog.Stop();
  }
  if (fired)
    return fail(Status(ErrorCode::kTimeout, "the columnar import was interrupted at its time limit of " +
                                                std::to_string(left_ms) + " ms"));
  if (!copied.ok()) return fail(copied.WithContext("columnar import"));
  auto got = im.Describe("read_parquet(" + Quote(im.Alias(tmp)) + ")");
  if (!got.ok()) return fail(got.status().WithContext("reading back the columnar import"));
  if (*got != expected)
    return fail(
        Unsupported("columnar import: the Parquet schema differs from the direct reader's; "
                    "the file is queried directly"));
  struct stat st {};
  if (::stat(tmp.c_str(), &st) != 0) return fail(ErrnoStatus(errno, "stat " + tmp));
  {
    Fd f{::open(tmp.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0 || ::fsync(f.fd) != 0) return fail(ErrnoStatus(errno, "syncing " + tmp));
  }
  ::chmod(tmp.c_str(), 0444);
  entry.bytes = static_cast<uint64_t>(st.st_size);
  Json meta = {{"bytes", entry.bytes}, {"schema", SchemaJson(expected)},   {"sha256", req.sha256},
               {"format", req.format}, {"source_bytes", req.source_bytes}, {"version", kColumnarVersion}};
  Status ws = WriteFileAtomic(meta_path, DumpJson(meta));
  if (!ws.ok()) return fail(ws);
  if (::rename(tmp.c_str(), entry.path.c_str()) != 0) {
    ::unlink(meta_path.c_str());
    return fail(ErrnoStatus(errno, "renaming " + tmp));
  }
  entry.imported = true;
  entry.import_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return entry;
}

}  // namespace lakeqa::exec
