#include "lakeqa/common/posix_io.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace lakeqa {

bool WriteFully(int fd, std::string_view data) {
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    off += static_cast<size_t>(n);
  }
  return true;
}

ssize_t ReadRetrying(int fd, void* buf, size_t n) {
  for (;;) {
    ssize_t got = ::read(fd, buf, n);
    if (got >= 0 || errno != EINTR) return got;
  }
}

ssize_t PreadRetrying(int fd, void* buf, size_t n, uint64_t offset) {
  for (;;) {
    ssize_t got = ::pread(fd, buf, n, static_cast<off_t>(offset));
    if (got >= 0 || errno != EINTR) return got;
  }
}

Status CloseAfterError(int fd, const std::string& path) {
  int e = errno;
  ::close(fd);
  return ErrnoStatus(e, path);
}

Result<std::vector<std::string>> ListDirSorted(const std::string& path) {
  DIR* d = ::opendir(path.c_str());
  if (!d) return ErrnoStatus(errno, path);
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string_view n = e->d_name;
    if (n != "." && n != "..") names.emplace_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace lakeqa
