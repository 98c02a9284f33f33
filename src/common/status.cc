#include "lakeqa/common/status.h"

#include <cerrno>
#include <cstring>

namespace lakeqa {

std::string_view CodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kAlreadyExists: return "already_exists";
    case ErrorCode::kPermissionDenied: return "permission_denied";
    case ErrorCode::kUnauthenticated: return "unauthenticated";
    case ErrorCode::kParseError: return "parse_error";
    case ErrorCode::kCorrupt: return "corrupt";
    case ErrorCode::kIoError: return "io_error";
    case ErrorCode::kNetworkError: return "network_error";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kRateLimited: return "rate_limited";
    case ErrorCode::kResourceExhausted: return "resource_exhausted";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

int ExitCodeFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return 0;
    case ErrorCode::kInternal: return 1;
    case ErrorCode::kInvalidArgument: return 2;
    case ErrorCode::kNotFound: return 3;
    case ErrorCode::kAlreadyExists: return 4;
    case ErrorCode::kPermissionDenied:
    case ErrorCode::kUnauthenticated: return 5;
    case ErrorCode::kParseError:
    case ErrorCode::kCorrupt: return 6;
    case ErrorCode::kIoError: return 7;
    case ErrorCode::kNetworkError:
    case ErrorCode::kUnavailable:
    case ErrorCode::kRateLimited: return 8;
    case ErrorCode::kTimeout: return 9;
    case ErrorCode::kResourceExhausted: return 10;
    case ErrorCode::kUnsupported: return 11;
    case ErrorCode::kCancelled: return 130;
  }
  return 1;
}

int HttpStatusFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return 200;
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kParseError: return 400;
    case ErrorCode::kUnauthenticated: return 401;
    case ErrorCode::kPermissionDenied: return 403;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kAlreadyExists: return 409;
    case ErrorCode::kResourceExhausted: return 413;
    case ErrorCode::kRateLimited: return 429;
    case ErrorCode::kUnsupported: return 501;
    case ErrorCode::kNetworkError:
    case ErrorCode::kUnavailable: return 503;
    case ErrorCode::kTimeout: return 504;
    case ErrorCode::kCancelled: return 499;
    case ErrorCode::kCorrupt:
    case ErrorCode::kIoError:
    case ErrorCode::kInternal: return 500;
  }
  return 500;
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string s(CodeName(code_));
  s += ": ";
  s += message_;
  return s;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string m(context);
  m += ": ";
  m += message_;
  return Status(code_, std::move(m));
}

Status Error(ErrorCode code, std::string message) { return Status(code, std::move(message)); }

Status ErrnoStatus(int err, std::string_view what) {
  ErrorCode code = ErrorCode::kIoError;
  switch (err) {
    case ENOENT:
    case ENOTDIR: code = ErrorCode::kNotFound; break;
    case EACCES:
    case EPERM: code = ErrorCode::kPermissionDenied; break;
    case EEXIST: code = ErrorCode::kAlreadyExists; break;
    case ELOOP:
    case ENAMETOOLONG:
    case EINVAL: code = ErrorCode::kInvalidArgument; break;
    case ENOSPC:
    case EDQUOT:
    case EMFILE:
    case ENFILE:
    case ENOMEM: code = ErrorCode::kResourceExhausted; break;
    case ETIMEDOUT: code = ErrorCode::kTimeout; break;
    default: break;
  }
  std::string m(what);
  m += ": ";
  m += std::strerror(err);
  return Status(code, std::move(m));
}

}  // namespace lakeqa
