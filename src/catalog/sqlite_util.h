// A thin RAII layer over SQLite prepared statements, so every query binds and steps the same way and
// every failure becomes a Status naming the statement.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "lakeqa/common/status.h"

namespace lakeqa::catalog {

Status SqliteError(sqlite3* db, std::string_view what);
Status Exec(sqlite3* db, const char* sql);

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  const Status& status() const { return status_; }
  Stmt& Bind(int i, std::string_view v);
  Stmt& Bind(int i, int64_t v);
  Stmt& BindNull(int i);
  // SQLITE_ROW → true; SQLITE_DONE → false; errors set status().
  bool Step();
  Status Run();  // step to completion, then reset
  void Reset();

  std::string Text(int col) const;
  int64_t Int(int col) const;
  bool IsNull(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  Status status_;
  std::string sql_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back if not committed.
class Transaction {
 public:
  explicit Transaction(sqlite3* db);
  ~Transaction();
  Status Commit();

 private:
  sqlite3* db_;
  bool open_ = false;
};

}  // namespace lakeqa::catalog
