#include "lakeqa/common/fs.h"

#include "lakeqa/common/cleanup.h"
#include "lakeqa/common/posix_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace lakeqa {

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return CloseAfterError(fd, path);
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return InvalidArgument(path + ": is a directory");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return ResourceExhausted(path + ": " + std::to_string(st.st_size) + " bytes exceeds the limit of " +
                             std::to_string(max_bytes));
  }
  std::string out;
  out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ReadRetrying(fd, buf, sizeof buf);
    if (n < 0) return CloseAfterError(fd, path);
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      return ResourceExhausted(path + ": grew past the limit of " + std::to_string(max_bytes) + " bytes");
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

Status MakeDirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return ErrnoStatus(ec.value(), "creating directory " + path);
  return Status::Ok();
}

bool PathExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

namespace {

// Writes data to a fresh temp file beside path; fsyncs it before closing when `sync`.
Result<std::string> WriteTemp(const std::string& path, std::string_view data, bool sync) {
  std::filesystem::path p(path);
  if (p.has_parent_path()) LAKEQA_RETURN_IF_ERROR(MakeDirs(p.parent_path().string()));
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rng() % 1000000);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus(errno, tmp);
  if (!WriteFully(fd, data)) {
    Status st = CloseAfterError(fd, tmp);
    ::unlink(tmp.c_str());
    return st;
  }
  int e = sync && ::fsync(fd) != 0 ? errno : 0;
  if (::close(fd) != 0 && e == 0) e = errno;
  if (e != 0) {
    ::unlink(tmp.c_str());
    return ErrnoStatus(e, tmp);
  }
  return tmp;
}

}  // namespace

Status WriteFileAtomic(const std::string& path, std::string_view data) {
  LAKEQA_ASSIGN_OR_RETURN(std::string tmp, WriteTemp(path, data, /*sync=*/true));
  return RenameInto(tmp, path);
}

Result<std::string> WriteTempFileBeside(const std::string& path, std::string_view data) {
  return WriteTemp(path, data, /*sync=*/false);
}

Status RenameInto(const std::string& tmp, const std::string& path) {
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return ErrnoStatus(e, "renaming " + tmp + " to " + path);
  }
  return Status::Ok();
}

Status SyncFileSystem(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, "syncfs " + path);
  int rc = ::syncfs(fd);
  int e = errno;
  ::close(fd);
  if (rc != 0) return ErrnoStatus(e, "syncfs " + path);
  return Status::Ok();
}

Result<std::string> MakeTempDir(std::string_view prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/" + std::string(prefix) + "XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) return ErrnoStatus(errno, "mkdtemp " + tmpl);
  RegisterTempPath(tmpl);
  return tmpl;
}

Status RemoveAll(const std::string& path) {
  ForgetTempPath(path);
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec) return ErrnoStatus(ec.value(), "removing " + path);
  return Status::Ok();
}

}  // namespace lakeqa
