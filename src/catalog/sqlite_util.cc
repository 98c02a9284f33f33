#include "catalog/sqlite_util.h"

namespace lakeqa::catalog {

Status SqliteError(sqlite3* db, std::string_view what) {
  int code = sqlite3_errcode(db);
  ErrorCode ec = ErrorCode::kIoError;
  if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) ec = ErrorCode::kCorrupt;
  else if (code == SQLITE_CANTOPEN) ec = ErrorCode::kNotFound;
  else if (code == SQLITE_READONLY || code == SQLITE_PERM) ec = ErrorCode::kPermissionDenied;
  else if (code == SQLITE_FULL) ec = ErrorCode::kResourceExhausted;
  else if (code == SQLITE_BUSY || code == SQLITE_LOCKED) ec = ErrorCode::kUnavailable;
  return Status(ec, std::string(what) + ": " + sqlite3_errmsg(db));
}

Status Exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    Status s = SqliteError(
        db, std::string("sqlite: ") + (err ? err : "") + " in: " + std::string(sql).substr(0, 80));
    sqlite3_free(err);
    return s;
  }
  return Status::Ok();
}

Stmt::Stmt(sqlite3* db, const char* sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
    status_ = SqliteError(db, "preparing " + sql_.substr(0, 60));
  }
}

Stmt::~Stmt() { sqlite3_finalize(stmt_); }

Stmt& Stmt::Bind(int i, std::string_view v) {
  if (stmt_) sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Stmt& Stmt::Bind(int i, int64_t v) {
  if (stmt_) sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Stmt& Stmt::BindNull(int i) {
  if (stmt_) sqlite3_bind_null(stmt_, i);
  return *this;
}

bool Stmt::Step() {
  if (!stmt_ || !status_.ok()) return false;
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) status_ = SqliteError(db_, "running " + sql_.substr(0, 60));
  return false;
}

Status Stmt::Run() {
  while (Step()) {
  }
  Status s = status_;
  Reset();
  return s;
}

void Stmt::Reset() {
  if (!stmt_) return;
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Stmt::Text(int col) const {
  const unsigned char* t = sqlite3_column_text(stmt_, col);
  return t ? std::string(reinterpret_cast<const char*>(t),
                         static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
           : "";
}
int64_t Stmt::Int(int col) const { return sqlite3_column_int64(stmt_, col); }
bool Stmt::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

Transaction::Transaction(sqlite3* db) : db_(db) { open_ = Exec(db, "BEGIN IMMEDIATE").ok(); }
Transaction::~Transaction() {
  if (open_) (void)Exec(db_, "ROLLBACK");
}
Status Transaction::Commit() {
  if (!open_) return Status(ErrorCode::kIoError, "transaction was not open");
  open_ = false;
  return Exec(db_, "COMMIT");
}

}  // namespace lakeqa::catalog
