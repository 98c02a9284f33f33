// Status and Result<T>: how every module reports an expected failure (bad input, a missing object, a
// network error). Exceptions are reserved for bugs. The one list of error codes lives here and is mapped
// once to CLI exit codes (ExitCodeFor) and to tool/HTTP errors (HttpStatusFor, CodeName).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace lakeqa {

enum class ErrorCode : int {
  kOk = 0,
  kInvalidArgument,    // the caller asked for something malformed (a bad flag, a bad URI, bad JSON)
  kNotFound,           // object, file, dataset or task does not exist
  kAlreadyExists,      // refusing to overwrite
  kPermissionDenied,   // filesystem EACCES, S3 403, sandbox path escape
  kUnauthenticated,    // missing or wrong token / credentials
  kParseError,         // content is not what its format says (corrupt CSV/JSON/bz2...)
  kCorrupt,            // our own on-disk structure failed a check (catalog, index segment)
  kIoError,            // local read/write failure
  kNetworkError,       // connection refused, DNS, TLS, reset
  kTimeout,            // a deadline passed
  kRateLimited,        // HTTP 429 / S3 SlowDown after retries
  kResourceExhausted,  // a limit was hit: bytes, rows, memory, output size, disk
  kUnsupported,        // a format or feature lakeqa does not handle
  kCancelled,          // the user or a supervisor stopped the work
  kUnavailable,        // a server answered 5xx after retries
  kInternal,           // a bug; should not be seen
};

// Stable snake_case name, used in JSON errors ("code": "not_found").
std::string_view CodeName(ErrorCode code);
// Process exit code for the CLI: 0 ok, 1 internal, 2 usage, then one per family (docs/cli.md).
int ExitCodeFor(ErrorCode code);
// HTTP status for the server.
int HttpStatusFor(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "not_found: s3://bucket/key: no such object"
  std::string ToString() const;

  // Prefixes context, keeping the code: st.WithContext("reading rows.txt").
  Status WithContext(std::string_view context) const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

Status Error(ErrorCode code, std::string message);
inline Status InvalidArgument(std::string m) { return Status(ErrorCode::kInvalidArgument, std::move(m)); }
inline Status NotFound(std::string m) { return Status(ErrorCode::kNotFound, std::move(m)); }
inline Status IoError(std::string m) { return Status(ErrorCode::kIoError, std::move(m)); }
inline Status ParseError(std::string m) { return Status(ErrorCode::kParseError, std::move(m)); }
inline Status Corrupt(std::string m) { return Status(ErrorCode::kCorrupt, std::move(m)); }
inline Status Unsupported(std::string m) { return Status(ErrorCode::kUnsupported, std::move(m)); }
inline Status Internal(std::string m) { return Status(ErrorCode::kInternal, std::move(m)); }
inline Status ResourceExhausted(std::string m) { return Status(ErrorCode::kResourceExhausted, std::move(m)); }
// errno → code (ENOENT → not_found, EACCES → permission_denied, ...), message "<what>: strerror".
Status ErrnoStatus(int err, std::string_view what);

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design, like absl::StatusOr
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "Result constructed from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T value_or(T fallback) const { return ok() ? value() : std::move(fallback); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace lakeqa

// Early return on failure. LAKEQA_RETURN_IF_ERROR(expr) for Status; LAKEQA_ASSIGN_OR_RETURN(lhs, expr)
// for Result<T>.
#define LAKEQA_CONCAT_INNER(a, b) a##b
#define LAKEQA_CONCAT(a, b) LAKEQA_CONCAT_INNER(a, b)
#define LAKEQA_RETURN_IF_ERROR(expr) \
  do {                               \
    ::lakeqa::Status _st = (expr);   \
    if (!_st.ok()) return _st;       \
  } while (0)
#define LAKEQA_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()
#define LAKEQA_ASSIGN_OR_RETURN(lhs, expr) \
  LAKEQA_ASSIGN_OR_RETURN_IMPL(LAKEQA_CONCAT(_res_, __LINE__), lhs, expr)
