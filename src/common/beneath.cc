#include "lakeqa/common/beneath.h"

#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <vector>

namespace lakeqa {
namespace {

// -1 unknown, 0 missing (ENOSYS), 1 present.
std::atomic<int> g_openat2{-1};

Status Escapes(std::string_view shown, std::string_view why) {
  return Status(ErrorCode::kPermissionDenied, std::string(shown) + ": " + std::string(why));
}

bool IsSymlinkAt(int dirfd, const std::string& name) {
  struct stat st {};
  return ::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

// The pre-5.6 path: one component at a time, never following a symlink.
Result<int> OpenByComponents(int dirfd, const std::string& path, int flags, mode_t mode,
                             std::string_view shown) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string part = path.substr(start, end - start);
    if (part == "..") return Escapes(shown, "'..' is not allowed here");
    if (!part.empty() && part != ".") parts.push_back(part);
    start = end + 1;
  }
  if (parts.empty()) parts.push_back(".");
  int cur = ::fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
  if (cur < 0) return ErrnoStatus(errno, shown);
  for (size_t i = 0; i < parts.size(); ++i) {
    bool last = i + 1 == parts.size();
    int f = last ? (flags | O_NOFOLLOW | O_CLOEXEC) : (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int next = ::openat(cur, parts[i].c_str(), f, mode);
    int e = errno;
    bool link = next < 0 && (e == ELOOP || e == ENOTDIR) && IsSymlinkAt(cur, parts[i]);
    ::close(cur);
    if (link) return Escapes(shown, "a symbolic link on the path is not followed");
    if (next < 0) return ErrnoStatus(e, std::string(shown));
    cur = next;
  }
  return cur;
}

}  // namespace

bool HaveOpenat2() {
  if (g_openat2.load() < 0) {
    struct open_how how {};
    how.flags = O_PATH | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH;
    long fd = ::syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
    if (fd >= 0) ::close(static_cast<int>(fd));
    g_openat2 = (fd >= 0 || errno != ENOSYS) ? 1 : 0;
  }
  return g_openat2.load() == 1;
}

Result<int> OpenBeneath(int dirfd, std::string_view rel, int flags, mode_t mode, Links links,
                        std::string_view shown) {
  std::string path(rel.empty() ? "." : rel);
  if (path.find('\0') != std::string::npos)
    return InvalidArgument(std::string(shown) + ": contains a NUL byte");
  if (path[0] == '/') return Escapes(shown, "an absolute path is not allowed here");
  if (!HaveOpenat2()) return OpenByComponents(dirfd, path, flags, mode, shown);
  struct open_how how {};
  how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) != 0 ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | (links == Links::kNone ? RESOLVE_NO_SYMLINKS : 0);
  for (int attempt = 0;; ++attempt) {
    long fd = ::syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    int e = errno;
    // EAGAIN: a rename or mount raced the lookup; the kernel asks to try again.
    if ((e == EAGAIN || e == EINTR) && attempt < 16) continue;
    if (e == EXDEV)
      return Escapes(shown, "the path leads outside its folder (through '..' or a symbolic link)");
    if (e == ELOOP && links == Links::kNone)
      return Escapes(shown, "a symbolic link on the path is not followed");
    return ErrnoStatus(e, std::string(shown));
  }
}

}  // namespace lakeqa
