// The columnar cache behind `query`: results through the Parquet entry equal the direct read, entries are
// reused across sessions, interrupted imports leave nothing, corrupt entries are rebuilt, replaced sandbox
// files are never answered from a stale entry.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/exec/sql.h"

namespace lakeqa::exec {
namespace {

namespace fs = std::filesystem;

class ColumnarCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = *MakeTempDir("lakeqa-colcache-");
    cache_ = root_ + "/cache";
    ASSERT_TRUE(MakeDirs(cache_).ok());
    ASSERT_TRUE(MakeDirs(root_ + "/dl").ok());
  }
  void TearDown() override { (void)RemoveAll(root_); }

  // Stands in for a download: the bytes land in a read-only "download cache" file that is hard-linked
  // into the sandbox, as tools::DownloadCache + Session::LinkFile do. The key only has to be unique per
  // content (the real one is the file's SHA-256).
  KnownFile Download(const std::string& sandbox, const std::string& rel, const std::string& data) {
    std::string key = std::to_string(std::hash<std::string>{}(data));
    key = std::string(64 - key.size(), '0') + key;
    std::string src = root_ + "/dl/" + key;
    if (!PathExists(src)) {
      EXPECT_TRUE(WriteFileAtomic(src, data).ok());
      ::chmod(src.c_str(), 0444);
    }
    std::string dst = sandbox + "/" + rel;
    EXPECT_TRUE(MakeDirs(dst.substr(0, dst.rfind('/'))).ok());
    EXPECT_EQ(::link(src.c_str(), dst.c_str()), 0) << dst;
    return {rel, key, src};
  }

  std::unique_ptr<SqlSandbox> Open(const std::string& name, bool cached, SqlLimits limits = {},
                                   uint64_t min_bytes = 0) {
    std::string sandbox = root_ + "/" + name + "/sandbox";
    EXPECT_TRUE(MakeDirs(sandbox).ok());
    SqlCacheOptions opt;
    if (cached) {
      opt.dir = cache_;
      opt.link_dir = root_ + "/" + name + "/columnar";
      opt.min_bytes = min_bytes;
    }
    auto sb = SqlSandbox::Open(sandbox, limits, opt);
    EXPECT_TRUE(sb.ok()) << sb.status().ToString();
    return sb.ok() ? std::move(*sb) : nullptr;
  }

  // Files under the cache's columnar folder whose name contains `part`.
  std::vector<std::string> Entries(const std::string& part) const {
    std::vector<std::string> out;
    if (!fs::exists(cache_ + "/columnar")) return out;
    for (auto& e : fs::recursive_directory_iterator(cache_ + "/columnar"))
      if (e.is_regular_file() && e.path().filename().string().find(part) != std::string::npos)
        out.push_back(e.path().string());
    return out;
  }

  static SqlResult Run(SqlSandbox& sb, const std::string& sql) {
    EXPECT_TRUE(sb.RegisterFileViews().ok());
    auto r = sb.Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? std::move(*r) : SqlResult{};
  }
  static void ExpectSame(const SqlResult& a, const SqlResult& b) {
    EXPECT_EQ(a.columns, b.columns);
    EXPECT_EQ(a.types, b.types);
    EXPECT_EQ(Json(a.rows), Json(b.rows));
  }
  static std::string State(const SqlResult& r) { return r.cache.empty() ? "none" : r.cache[0].state; }

  std::string root_, cache_;
};

constexpr const char* kMixedCsv =
    "id,name,score,day,seen_at,active,code,note\n"
    "1,\"Smith, Ann\",3.5,2023-01-05,2023-01-05 10:00:00,true,0042,plain\n"
    "2,Bob,,2023-02-10,2023-02-10 11:30:00,false,A7,\"quoted \"\"x\"\"\"\n"
    "3,,7.25,2024-12-31,,true,15,\n"
    "4,Dora,-1e3,2022-06-01,2022-06-01 00:00:01,,99,last\n";

TEST_F(ColumnarCacheTest, MixedCsvSameResultsThroughCacheAndDirect) {
  auto direct = Open("direct", false);
  auto cached = Open("cached", true);
  ASSERT_TRUE(direct && cached);
  Download(direct->sandbox_dir(), "ds/files/rows.txt", kMixedCsv);
  cached->AddKnownFile(Download(cached->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));

  for (const std::string sql :
       {"SELECT * FROM rows ORDER BY id", "SELECT * FROM 'ds/files/rows.txt'",
        "SELECT code, count(*) AS n FROM read_csv('ds/files/rows.txt') GROUP BY ALL ORDER BY ALL",
        "DESCRIBE rows"}) {
    SqlResult d = Run(*direct, sql), c = Run(*cached, sql);
    ExpectSame(d, c);
    EXPECT_TRUE(d.cache.empty());
    ASSERT_EQ(c.cache.size(), 1u) << sql;
    EXPECT_EQ(c.cache[0].path, "ds/files/rows.txt");
  }
  EXPECT_EQ(cached->cache_stats().imports, 1u);
  EXPECT_EQ(cached->cache_stats().hits, 3u);
  EXPECT_EQ(Entries(".parquet").size(), 1u);
  EXPECT_EQ(Entries(".meta").size(), 1u);
  EXPECT_TRUE(Entries(".tmp.").empty());
  // The rewritten statement really reads the Parquet copy.
  SqlResult plan = Run(*cached, "EXPLAIN SELECT max(name) FROM read_csv('ds/files/rows.txt')");
  EXPECT_NE(DumpJson(Json(plan.rows)).find("PARQUET"), std::string::npos) << DumpJson(Json(plan.rows));
}

TEST_F(ColumnarCacheTest, JsonSameResultsThroughCacheAndDirect) {
  const std::string json =
      R"([{"Sector":"Adam","n":3,"tags":["a","b"],"loc":{"lat":30.1,"lon":-97.5},"when":"2023-04-01"},)"
      R"({"Sector":"Baker","n":null,"tags":[],"loc":{"lat":30.2,"lon":-97.6},"when":"2023-04-02"}])";
  auto direct = Open("direct", false);
  auto cached = Open("cached", true);
  ASSERT_TRUE(direct && cached);
  Download(direct->sandbox_dir(), "ds/meta.json", json);
  cached->AddKnownFile(Download(cached->sandbox_dir(), "ds/meta.json", json));
  for (const std::string sql :
       {"SELECT * FROM meta ORDER BY Sector", "SELECT loc.lat, tags[1] AS t FROM meta"}) {
    SqlResult d = Run(*direct, sql), c = Run(*cached, sql);
    ExpectSame(d, c);
  }
  EXPECT_EQ(cached->cache_stats().imports, 1u);
  EXPECT_EQ(Entries(".json.v1.parquet").size(), 1u);
  EXPECT_EQ(Entries(".json.v1.meta").size(), 1u);
}

TEST_F(ColumnarCacheTest, SecondSessionReusesTheEntry) {
  auto a = Open("a", true);
  ASSERT_TRUE(a);
  a->AddKnownFile(Download(a->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));
  SqlResult ra = Run(*a, "SELECT * FROM rows ORDER BY id");
  EXPECT_EQ(State(ra), "imported");
  EXPECT_EQ(State(Run(*a, "SELECT * FROM rows ORDER BY id")), "cached");

  auto b = Open("b", true);
  ASSERT_TRUE(b);
  b->AddKnownFile(Download(b->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));
  SqlResult rb = Run(*b, "SELECT * FROM rows ORDER BY id");
  EXPECT_EQ(State(rb), "cached");
  EXPECT_EQ(b->cache_stats().imports, 0u);
  EXPECT_EQ(b->cache_stats().hits, 1u);
  ExpectSame(ra, rb);
  EXPECT_EQ(Entries(".parquet").size(), 1u);
  EXPECT_TRUE(PathExists(root_ + "/b/columnar"));
}

TEST_F(ColumnarCacheTest, ConcurrentSessionsImportOneEntry) {
  std::string csv = "id,sector,value\n";
  for (int i = 0; csv.size() < (1u << 20); ++i)
    csv += std::to_string(i) + ",S" + std::to_string(i % 13) + "," + std::to_string(i * 0.25) + "\n";
  std::vector<std::unique_ptr<SqlSandbox>> sbs;
  for (int i = 0; i < 3; ++i) {
    sbs.push_back(Open("s" + std::to_string(i), true));
    ASSERT_TRUE(sbs.back());
    sbs.back()->AddKnownFile(Download(sbs.back()->sandbox_dir(), "ds/data.csv", csv));
    ASSERT_TRUE(sbs.back()->RegisterFileViews().ok());
  }
  std::vector<Result<SqlResult>> results(sbs.size(), Status(ErrorCode::kInternal, "not run"));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < sbs.size(); ++i)
    threads.emplace_back(
        [&, i] { results[i] = sbs[i]->Query("SELECT sector, sum(value) FROM data GROUP BY 1 ORDER BY 1"); });
  for (auto& t : threads) t.join();
  uint64_t imports = 0;
  for (size_t i = 0; i < sbs.size(); ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].status().ToString();
    EXPECT_NE(State(*results[i]), "direct") << results[i]->cache[0].reason;
    EXPECT_EQ(Json(results[i]->rows), Json(results[0]->rows));
    imports += sbs[i]->cache_stats().imports;
  }
  EXPECT_EQ(imports, 1u);  // the others waited on the lock and reused the entry
  EXPECT_EQ(Entries(".parquet").size(), 1u);
  EXPECT_TRUE(Entries(".tmp.").empty());
}

TEST_F(ColumnarCacheTest, InterruptedImportLeavesNoEntry) {
  std::string big = "id,sector,value\n";
  for (int i = 0; big.size() < (6u << 20); ++i)
    big += std::to_string(i) + ",S" + std::to_string(i % 97) + "," + std::to_string(i * 0.5) + "\n";
  SqlLimits tight;
  tight.timeout_ms = 2;  // the import gets 1 ms
  auto a = Open("a", true, tight);
  ASSERT_TRUE(a);
  a->AddKnownFile(Download(a->sandbox_dir(), "ds/big.csv", big));
  ASSERT_TRUE(a->RegisterFileViews().ok());
  auto r = a->Query("SELECT count(*) FROM big");
  // Whatever the statement did in the time left, the import did not complete and left nothing behind.
  if (r.ok()) {
    EXPECT_EQ(State(*r), "direct");
    EXPECT_NE(r->cache[0].reason.find("time"), std::string::npos) << r->cache[0].reason;
  } else {
    EXPECT_EQ(r.status().code(), ErrorCode::kTimeout) << r.status().ToString();
  }
  EXPECT_TRUE(Entries(".parquet").empty());
  EXPECT_TRUE(Entries(".meta").empty());
  EXPECT_EQ(a->cache_stats().imports, 0u);

  auto b = Open("b", true);
  ASSERT_TRUE(b);
  b->AddKnownFile(Download(b->sandbox_dir(), "ds/big.csv", big));
  SqlResult rb = Run(*b, "SELECT count(*) AS n FROM big");
  EXPECT_EQ(State(rb), "imported");
  ASSERT_EQ(rb.rows.size(), 1u);
  EXPECT_EQ(Json(rb.rows[0][0]).get<int64_t>() + 1,
            static_cast<int64_t>(std::count(big.begin(), big.end(), '\n')));
}

TEST_F(ColumnarCacheTest, CorruptEntryIsRebuiltNotServed) {
  auto a = Open("a", true);
  ASSERT_TRUE(a);
  a->AddKnownFile(Download(a->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));
  SqlResult good = Run(*a, "SELECT * FROM rows ORDER BY id");
  ASSERT_EQ(State(good), "imported");
  auto entries = Entries(".parquet");
  ASSERT_EQ(entries.size(), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(entries[0].c_str(), &st), 0);
  ASSERT_EQ(::truncate(entries[0].c_str(), st.st_size / 2), 0);

  // A new session detects the truncated entry and rebuilds it.
  auto b = Open("b", true);
  ASSERT_TRUE(b);
  b->AddKnownFile(Download(b->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));
  SqlResult rb = Run(*b, "SELECT * FROM rows ORDER BY id");
  EXPECT_EQ(State(rb), "imported");
  ExpectSame(good, rb);
  // The session that had linked the old entry notices too and uses the rebuilt one.
  SqlResult ra = Run(*a, "SELECT * FROM rows ORDER BY id");
  EXPECT_EQ(State(ra), "cached");
  ExpectSame(good, ra);
}

TEST_F(ColumnarCacheTest, SmallFilesAndReplacedFilesAreReadDirectly) {
  auto a = Open("a", true, {}, /*min_bytes=*/1 << 20);
  ASSERT_TRUE(a);
  a->AddKnownFile(Download(a->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));
  SqlResult r = Run(*a, "SELECT count(*) FROM rows");
  EXPECT_EQ(State(r), "direct");
  EXPECT_NE(r.cache[0].reason.find("smaller"), std::string::npos);
  EXPECT_TRUE(Entries(".parquet").empty());

  auto b = Open("b", true);
  ASSERT_TRUE(b);
  b->AddKnownFile(Download(b->sandbox_dir(), "ds/files/rows.txt", kMixedCsv));
  EXPECT_EQ(State(Run(*b, "SELECT count(*) FROM rows")), "imported");
  // Code in the sandbox replaces the file: the entry (of the old bytes) must not answer for it.
  std::string p = b->sandbox_dir() + "/ds/files/rows.txt";
  ASSERT_EQ(::unlink(p.c_str()), 0);
  ASSERT_TRUE(WriteFileAtomic(p, "id,name\n7,new\n").ok());
  SqlResult after = Run(*b, "SELECT * FROM rows");
  EXPECT_EQ(State(after), "direct");
  ASSERT_EQ(after.rows.size(), 1u);
  EXPECT_EQ(after.rows[0][1], "new");
}

}  // namespace
}  // namespace lakeqa::exec
