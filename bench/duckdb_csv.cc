// Competitor for the CSV profiling benchmark: DuckDB reads the same files. Two modes, matching what
// lakeqa's profiler does: `sniff` runs sniff_csv() (dialect, header, types from a sample) on each file;
// `scan` counts every row of each file with read_csv (DuckDB's full parallel CSV reader).
// Usage: duckdb_csv sniff|scan <file>... ; prints JSON {"files":N,"bytes":B,"seconds":S,"rows":R}.
#include <duckdb.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

std::string Quote(const char* s) {
  std::string out = "'";
  for (const char* p = s; *p; ++p) {
    if (*p == '\'') out += '\'';
    out += *p;
  }
  return out + "'";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || (std::strcmp(argv[1], "sniff") != 0 && std::strcmp(argv[1], "scan") != 0)) {
    std::fprintf(stderr, "usage: %s sniff|scan <file>...\n", argv[0]);
    return 2;
  }
  bool scan = std::strcmp(argv[1], "scan") == 0;
  duckdb_database db;
  duckdb_connection con;
  if (duckdb_open(nullptr, &db) != DuckDBSuccess || duckdb_connect(db, &con) != DuckDBSuccess) {
    std::fprintf(stderr, "cannot open duckdb\n");
    return 1;
  }
  uint64_t bytes = 0, rows = 0, files = 0, failed = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 2; i < argc; ++i) {
    struct stat st {};
    if (stat(argv[i], &st) == 0) bytes += static_cast<uint64_t>(st.st_size);
    std::string sql = scan ? "SELECT count(*) FROM read_csv(" + Quote(argv[i]) + ", ignore_errors=true)"
                           : "SELECT Columns FROM sniff_csv(" + Quote(argv[i]) + ")";
    duckdb_result res;
    if (duckdb_query(con, sql.c_str(), &res) != DuckDBSuccess) {
      ++failed;
    } else if (scan) {
      rows += static_cast<uint64_t>(duckdb_value_int64(&res, 0, 0));
    }
    duckdb_destroy_result(&res);
    ++files;
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"files\":%llu,\"failed\":%llu,\"bytes\":%llu,\"rows\":%llu,\"seconds\":%.6f}\n",
              static_cast<unsigned long long>(files), static_cast<unsigned long long>(failed),
              static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(rows), s);
  duckdb_disconnect(&con);
  duckdb_close(&db);
  return 0;
}
