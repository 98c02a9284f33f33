#include "lakeqa/common/json.h"
#include "lakeqa/exec/sql.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>

#include "lakeqa/common/fs.h"

namespace lakeqa::exec {
namespace {

class SqlSandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = *MakeTempDir("lakeqa-sql-");
    dir_ = root_ + "/sandbox";
    ASSERT_TRUE(MakeDirs(dir_).ok());
    // A secret next to the sandbox, for escape attempts.
    ASSERT_TRUE(WriteFileAtomic(root_ + "/secret.csv", "secret\nhunter2\n").ok());
  }
  void TearDown() override { (void)RemoveAll(root_); }
  void Put(const std::string& rel, const std::string& data) {
    ASSERT_TRUE(WriteFileAtomic(dir_ + "/" + rel, data).ok()) << rel;
  }
  std::unique_ptr<SqlSandbox> Open(SqlLimits limits = {}) {
    auto sb = SqlSandbox::Open(dir_, limits);
    EXPECT_TRUE(sb.ok()) << sb.status().ToString();
    return sb.ok() ? std::move(*sb) : nullptr;
  }
  static std::string Names(const SqlSandbox& sb) {
    std::string s;
    for (const auto& v : sb.views()) s += v.name + ":" + v.format + " ";
    return s;
  }
  std::string root_, dir_;
};

TEST_F(SqlSandboxTest, ViewsPerFileByContentNotExtension) {
  Put("apd-searches/files/rows.txt", "Sector,Year,Count\nAdam,2022,5\nBaker,2022,7\nAdam,2021,1\n");
  Put("parks/files/data.txt",
      R"({"type":"FeatureCollection","features":[)"
      R"({"type":"Feature","properties":{"name":"Zilker","acres":351},"geometry":{"type":"Point","coordinates":[1,2]}},)"
      R"({"type":"Feature","properties":{"name":"Pease","acres":84},"geometry":{"type":"Point","coordinates":[3,4]}}]})");
  Put("sectors/meta.json", R"([{"Sector":"Adam","district":"North"},{"Sector":"Baker","district":"South"}])");
  Put("wiki/content.txt",
      "Austin is the capital of Texas. It has parks, lakes and, notably, music.\nMore prose here.\n");
  Put("wiki/page.html", "<!DOCTYPE html><html><body>x</body></html>");
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  EXPECT_EQ(Names(*sb), "rows:csv data:geojson meta:json ");
  ASSERT_EQ(sb->skipped().size(), 2u);
  EXPECT_EQ(sb->skipped()[0].path, "wiki/content.txt");
  EXPECT_EQ(sb->skipped()[1].reason, "HTML");

  auto r = sb->Query("SELECT name, acres FROM data ORDER BY acres DESC");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0][0], "Zilker");
  EXPECT_EQ(r->rows[0][1], 351);

  // A join of a CSV view and a JSON view.
  r = sb->Query(
      "SELECT m.district, sum(r.Count) AS n FROM rows r JOIN meta m USING (Sector) GROUP BY 1 ORDER BY 1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->columns, (std::vector<std::string>{"district", "n"}));
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0][0], "North");
  EXPECT_EQ(r->rows[0][1], 6);
  EXPECT_EQ(r->ToJson()["rows"][1][1], 7);

  r = sb->Query("SELECT name, format FROM sandbox_files ORDER BY name");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows.size(), 3u);
}

TEST_F(SqlSandboxTest, RelativeAndAbsolutePathsInsideTheSandboxWork) {
  Put("d/files/rows.txt", "a,b\n1,x\n2,y\n");
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  auto r = sb->Query("SELECT sum(a) FROM 'd/files/rows.txt'");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 3);
  r = sb->Query("SELECT count(*) FROM read_csv('" + sb->sandbox_dir() + "/d/files/rows.txt')");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 2);
  r = sb->Query("SELECT count(*) FROM read_csv('d/files/rows.txt', header = true)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 2);
  r = sb->Query("SELECT count(*) FROM read_csv('d/*/*.txt')");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 2);
  // The files a statement really opened, globs included (what D_acc counts).
  EXPECT_EQ(r->read_files, (std::vector<std::string>{"d/files/rows.txt"}));
  // The agent's spelling of the sandbox, /sandbox, works too.
  r = sb->Query("SELECT count(*) FROM read_csv('/sandbox/d/files/rows.txt')");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 2);
  r = sb->Query("SELECT 1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->read_files.empty());
  // Files downloaded after Open are readable by path and become views on re-registration.
  Put("e/new.csv", "k\n5\n");
  r = sb->Query("SELECT k FROM 'e/new.csv'");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(sb->RegisterFileViews().ok());
  r = sb->Query("SELECT k FROM new");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 5);
}

TEST_F(SqlSandboxTest, DuplicateFileNamesGetDistinctViewNames) {
  Put("alpha/files/rows.txt", "a\n1\n");
  Put("beta/files/rows.txt", "a\n2\n");
  Put("beta/2019 Data.csv", "a\n3\n");
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  EXPECT_EQ(Names(*sb), "alpha_files_rows:csv t_2019_data:csv beta_files_rows:csv ");
  auto r = sb->Query("SELECT (SELECT a FROM alpha_files_rows) + (SELECT a FROM beta_files_rows)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 3);
}

TEST_F(SqlSandboxTest, ValueTypesToJson) {
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  auto r = sb->Query(
      "SELECT 1::TINYINT, 2::BIGINT, 2.5::DOUBLE, 12.34::DECIMAL(10,2), 'x', NULL, true, DATE '2024-02-29', "
      "TIMESTAMP '2024-01-02 03:04:05', [1,2], {'a': 1}, 'nan'::DOUBLE, "
      "170141183460469231731687303715884105727::HUGEINT;");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& row = r->rows.at(0);
  EXPECT_EQ(row[0], 1);
  EXPECT_EQ(row[1], 2);
  EXPECT_DOUBLE_EQ(row[2].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(row[3].get<double>(), 12.34);
  EXPECT_EQ(row[4], "x");
  EXPECT_TRUE(row[5].is_null());
  EXPECT_EQ(row[6], true);
  EXPECT_EQ(row[7], "2024-02-29");
  EXPECT_EQ(row[8], "2024-01-02 03:04:05");
  EXPECT_EQ(row[9], "[1, 2]");
  EXPECT_EQ(row[10], "{'a': 1}");
  EXPECT_EQ(row[11], "NaN");
  EXPECT_EQ(row[12], "170141183460469231731687303715884105727");
  EXPECT_EQ(r->types[3], "DECIMAL(10,2)");
  EXPECT_EQ(r->types[9], "LIST");
}

TEST_F(SqlSandboxTest, ExactlyOneStatement) {
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  auto r = sb->Query("SELECT 1; SELECT 2");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("exactly one"), std::string::npos);
  EXPECT_FALSE(sb->Query("   ").ok());
  r = sb->Query("SELEC 1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("syntax"), std::string::npos) << r.status().message();
  EXPECT_TRUE(sb->Query("SELECT 1;").ok());
}

TEST_F(SqlSandboxTest, OnlyReadOnlyStatements) {
  Put("t.csv", "a\n1\n");
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  const char* refused[] = {
      "CREATE TABLE x AS SELECT 1",
      "CREATE VIEW v2 AS SELECT 1",
      "INSERT INTO t VALUES (1)",
      "DROP VIEW t",
      "COPY (SELECT 1) TO 'out.csv'",
      "ATTACH ':memory:' AS m",
      "INSTALL httpfs",
      "LOAD httpfs",
      "SET threads = 8",
      "PRAGMA threads = 8",
      "EXPORT DATABASE 'exp'",
      "CALL pragma_version()",
      "DETACH memory",
      "BEGIN TRANSACTION",
  };
  for (const char* sql : refused) {
    auto r = sb->Query(sql);
    EXPECT_FALSE(r.ok()) << sql;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("read-only"), std::string::npos)
          << sql << ": " << r.status().message();
    }
  }
  EXPECT_FALSE(PathExists(dir_ + "/out.csv"));
  EXPECT_FALSE(PathExists(dir_ + "/exp"));
  // Query-shaped statements are fine.
  for (const char* sql : {"DESCRIBE t", "SUMMARIZE t", "EXPLAIN SELECT * FROM t", "VALUES (1), (2)",
                          "WITH x AS (SELECT 1 AS a) SELECT * FROM x", "FROM t"}) {
    auto r = sb->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  // Statements smuggled through table functions are refused by DuckDB itself.
  auto r = sb->Query("SELECT * FROM query('CREATE TABLE y AS SELECT 1')");
  EXPECT_FALSE(r.ok());
}

TEST_F(SqlSandboxTest, NoAccessOutsideTheSandbox) {
  Put("ok.csv", "a\n1\n");
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  const std::string escapes[] = {
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_csv('../secret.csv')",
      "SELECT * FROM read_csv('../../etc/passwd')",
      "SELECT * FROM read_csv('" + dir_ + "/../secret.csv')",
      "SELECT * FROM '" + root_ + "/secret.csv'",
      "SELECT * FROM '../secret.csv'",
      "SELECT * FROM read_text('/proc/self/environ')",
      "SELECT * FROM glob('/etc/*')",
      "SELECT * FROM read_csv('https://example.com/x.csv')",
      "SELECT * FROM read_csv('ok.csv/../../secret.csv')",
      "SELECT * FROM read_csv('*/../../secret.csv')",
  };
  for (const auto& sql : escapes) {
    auto r = sb->Query(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_TRUE(r.status().code() == ErrorCode::kPermissionDenied ||
                r.status().code() == ErrorCode::kInvalidArgument)
        << sql << ": " << r.status().ToString();
    EXPECT_EQ(r.status().message().find("hunter2"), std::string::npos);
  }
  auto r = sb->Query("SELECT * FROM read_csv('/etc/passwd')");
  EXPECT_EQ(r.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(r.status().message().find("Permission"), std::string::npos) << r.status().message();
}

TEST_F(SqlSandboxTest, ConfigurationIsLocked) {
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  // Even if SET got past the read-only check, the lock holds; check both layers.
  for (const char* sql :
       {"SET enable_external_access = true", "RESET lock_configuration", "SET allowed_directories = ['/']",
        "SELECT set_config('enable_external_access', true)"}) {
    EXPECT_FALSE(sb->Query(sql).ok()) << sql;
  }
  auto r = sb->Query(
      "SELECT current_setting('enable_external_access')::VARCHAR, "
      "current_setting('lock_configuration')::VARCHAR");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], "false");
  EXPECT_EQ(r->rows[0][1], "true");
}

TEST_F(SqlSandboxTest, SymlinkOutOfTheSandboxIsRefused) {
  Put("ok.csv", "a\n1\n");
  Put("sub/inner.csv", "a\n2\n");
  ASSERT_EQ(::symlink((root_ + "/secret.csv").c_str(), (dir_ + "/link.csv").c_str()), 0);
  ASSERT_EQ(::symlink("../secret.csv", (dir_ + "/rel.csv").c_str()), 0);
  ASSERT_EQ(::symlink(root_.c_str(), (dir_ + "/up").c_str()), 0);
  ASSERT_EQ(::symlink("sub/inner.csv", (dir_ + "/alias.csv").c_str()), 0);
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  for (const std::string& sql :
       {"SELECT * FROM read_csv('" + dir_ + "/link.csv')",
        std::string("SELECT * FROM read_csv('/sandbox/link.csv')"), std::string("SELECT * FROM 'rel.csv'"),
        std::string("SELECT * FROM read_csv('up/secret.csv')"),
        std::string("SELECT * FROM read_text('link.csv')"),
        std::string("SELECT * FROM read_csv('up/*.csv')")}) {
    auto r = sb->Query(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_TRUE(r.status().code() == ErrorCode::kPermissionDenied ||
                r.status().code() == ErrorCode::kInvalidArgument)
        << sql << ": " << r.status().ToString();
    EXPECT_EQ(r.status().message().find("hunter2"), std::string::npos) << sql;
  }
  auto r = sb->Query("SELECT * FROM read_csv('/sandbox/link.csv')");
  EXPECT_EQ(r.status().code(), ErrorCode::kPermissionDenied) << r.status().ToString();
  // A glob over the sandbox never lists or reads through a link out of it.
  r = sb->Query("SELECT count(*) FROM read_csv('**/*.csv')");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // A link that stays inside the sandbox is followed.
  r = sb->Query("SELECT a FROM 'alias.csv'");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows[0][0], 2);
}

TEST_F(SqlSandboxTest, TimeoutInterruptsANeverEndingQuery) {
  SqlLimits limits;
  limits.timeout_ms = 300;
  auto sb = Open(limits);
  ASSERT_NE(sb, nullptr);
  auto t0 = std::chrono::steady_clock::now();
  auto r = sb->Query("SELECT count(*) FROM range(10000000000000) a, range(1000) b");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kTimeout) << r.status().ToString();
  EXPECT_NE(r.status().message().find("0.3 s"), std::string::npos) << r.status().message();
  EXPECT_LT(secs, 20.0);  // a hang guard, not a timing assertion
  // The connection stays usable.
  auto ok = sb->Query("SELECT 42");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->rows[0][0], 42);
  // A recursive CTE that never ends, too.
  r = sb->Query("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().code() == ErrorCode::kTimeout || r.status().code() == ErrorCode::kResourceExhausted)
      << r.status().ToString();
}

TEST_F(SqlSandboxTest, RowAndByteCapsTruncate) {
  SqlLimits limits;
  limits.max_rows = 10;
  auto sb = Open(limits);
  ASSERT_NE(sb, nullptr);
  auto r = sb->Query("SELECT range AS i FROM range(1000000000000)");  // would never finish unstreamed
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows.size(), 10u);
  EXPECT_TRUE(r->truncated);
  EXPECT_GE(r->total_rows_seen, 10u);
  EXPECT_EQ(r->rows[9][0], 9);
  r = sb->Query("SELECT * FROM range(10)");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->truncated);

  limits.max_rows = 1000;
  limits.max_result_bytes = 1000;
  sb = Open(limits);
  ASSERT_NE(sb, nullptr);
  r = sb->Query("SELECT repeat('x', 100) FROM range(100)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->truncated);
  EXPECT_GT(r->rows.size(), 0u);
  EXPECT_LT(r->rows.size(), 10u);
}

TEST_F(SqlSandboxTest, MemoryLimitIsAnError) {
  SqlLimits limits;
  limits.memory_limit_bytes = 64ULL << 20;
  auto sb = Open(limits);
  ASSERT_NE(sb, nullptr);
  auto r = sb->Query("SELECT list(repeat('x', 1000)) FROM range(1000000)");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kResourceExhausted) << r.status().ToString();
}

TEST_F(SqlSandboxTest, CorruptAndHostileFiles) {
  Put("bad.parquet", "PAR1 this is not parquet at all");
  Put("bad.json", "{\"a\": 1, \"b\": ");
  Put("ok.csv", "a\n1\n");
  auto sb = Open();
  ASSERT_NE(sb, nullptr);
  EXPECT_EQ(Names(*sb), "ok:csv ");
  EXPECT_EQ(sb->skipped().size(), 2u);
  for (const auto& s : sb->skipped()) EXPECT_FALSE(s.reason.empty()) << s.path;
  auto r = sb->Query("SELECT * FROM 'bad.json'");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bad.json"), std::string::npos) << r.status().message();
  EXPECT_FALSE(SqlSandbox::Open(root_ + "/missing").ok());
}

}  // namespace
}  // namespace lakeqa::exec
