// Columnar cache formats for `query` (docs/sandbox.md, "Columnar cache"): on one CSV, the direct read, the
// import into Parquet (ZSTD, ZSTD level 1, Snappy, uncompressed) and into a DuckDB native table, and the
// benchmark's Q1 group-by on each, with the tool's limits (2 threads, 1 GiB). A standalone C-API program,
// not part of the CMake build:
//   gcc -O2 -o /tmp/columnar_formats bench/columnar_formats.c -I.deps/duckdb-include -L.deps/duckdb-lib
//       -lduckdb -Wl,-rpath,$PWD/.deps/duckdb-lib   (one command line)
//   /tmp/columnar_formats .cache/bench/qvp-lake-1000/datagov/bench-incidents/files/incidents.csv /tmp/out
#include <duckdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static double run(duckdb_connection c, const char* sql) {
  duckdb_result r;
  double t = now();
  if (duckdb_query(c, sql, &r) == DuckDBError) {
    fprintf(stderr, "%s: %s\n", sql, duckdb_result_error(&r));
    exit(1);
  }
  duckdb_destroy_result(&r);
  return now() - t;
}

static const char* kQ1 =
    "SELECT Sector, \"Occurred Year\" AS year, count(*) AS n, round(avg(Latitude), 6) AS lat FROM %s "
    "GROUP BY ALL ORDER BY Sector, year";

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <csv> <out-dir>\n", argv[0]);
    return 2;
  }
  const char* csv = argv[1];
  const char* dir = argv[2];
  char sql[4096], rd[1024], src[1024];
  duckdb_config cfg;
  duckdb_create_config(&cfg);
  duckdb_set_config(cfg, "threads", "2");
  duckdb_set_config(cfg, "memory_limit", "1024MiB");
  duckdb_database db;
  duckdb_connection c;
  if (duckdb_open_ext(NULL, &db, cfg, NULL) == DuckDBError || duckdb_connect(db, &c) == DuckDBError) return 1;
  snprintf(rd, sizeof rd, "read_csv_auto('%s', sample_size = 20480, ignore_errors = false)", csv);
  snprintf(sql, sizeof sql, kQ1, rd);
  printf("direct CSV: Q1 %.2f s\n", run(c, sql));
  const char* opts[] = {"COMPRESSION zstd", "COMPRESSION zstd, COMPRESSION_LEVEL 1", "COMPRESSION snappy",
                        "COMPRESSION uncompressed"};
  for (int i = 0; i < 4; i++) {
    snprintf(sql, sizeof sql, "COPY (SELECT * FROM %s) TO '%s/p%d.parquet' (FORMAT parquet, %s)", rd, dir, i,
             opts[i]);
    double b = run(c, sql);
    snprintf(src, sizeof src, "read_parquet('%s/p%d.parquet')", dir, i);
    snprintf(sql, sizeof sql, kQ1, src);
    printf("parquet %s: build %.2f s, Q1 %.3f s\n", opts[i], b, run(c, sql));
    fflush(stdout);
  }
  snprintf(sql, sizeof sql, "ATTACH '%s/native.duckdb' AS n", dir);
  run(c, sql);
  snprintf(sql, sizeof sql, "CREATE TABLE n.t AS SELECT * FROM %s", rd);
  double b = run(c, sql);
  snprintf(sql, sizeof sql, kQ1, "n.t");
  printf("duckdb native: build %.2f s, Q1 %.3f s\n", b, run(c, sql));
  duckdb_disconnect(&c);
  duckdb_close(&db);
  return 0;
}
