#include "sandbox_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <functional>

#include "lakeqa/common/beneath.h"

namespace lakeqa::exec {
namespace {

constexpr const char* kInternalDir = ".lakeqa";

// Calls visit(rel, stat) for every entry below root (not following symlinks), depth first; visit returns
// whether to descend into a folder. Returns false if max_entries was exceeded.
bool Walk(const std::string& root, uint64_t max_entries,
          const std::function<bool(const std::string& rel, const struct stat& st)>& visit) {
  int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return true;
  uint64_t seen = 0;
  bool complete = true;
  std::vector<std::string> stack{""};
  while (!stack.empty() && complete) {
    std::string rel = std::move(stack.back());
    stack.pop_back();
    auto fd = OpenBeneath(root_fd, rel, O_RDONLY | O_DIRECTORY, 0, Links::kNone, rel);
    if (!fd.ok()) continue;
    DIR* d = ::fdopendir(*fd);
    if (d == nullptr) {
      ::close(*fd);
      continue;
    }
    while (struct dirent* e = ::readdir(d)) {
      std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++seen > max_entries) {
        complete = false;
        break;
      }
      std::string child = rel.empty() ? std::string(name) : rel + "/" + std::string(name);
      struct stat st {};
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      bool go = visit(child, st);
      if (go && S_ISDIR(st.st_mode)) stack.push_back(child);
    }
    ::closedir(d);
  }
  ::close(root_fd);
  return complete;
}

}  // namespace

uint64_t RemoveCreatedSince(const std::string& root, const struct timespec& since) {
  int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return 0;
  auto newer = [&](const struct statx_timestamp& t) {
    return t.tv_sec > since.tv_sec ||
           (t.tv_sec == since.tv_sec && static_cast<long>(t.tv_nsec) >= since.tv_nsec);
  };
  std::vector<std::string> files, dirs;
  Walk(root, UINT64_MAX, [&](const std::string& rel, const struct stat&) {
    if (rel == kInternalDir) return false;
    struct statx sx {};
    if (::statx(root_fd, rel.c_str(), AT_SYMLINK_NOFOLLOW, STATX_BTIME | STATX_CTIME | STATX_TYPE, &sx) != 0)
      return true;
    bool created = (sx.stx_mask & STATX_BTIME) != 0 ? newer(sx.stx_btime) : newer(sx.stx_ctime);
    bool dir = S_ISDIR(sx.stx_mode);
    if (created) (dir ? dirs : files).push_back(rel);
    return true;
  });
  uint64_t removed = 0;
  auto unlink_rel = [&](const std::string& rel, int flags) {
    size_t slash = rel.rfind('/');
    std::string parent = slash == std::string::npos ? "" : rel.substr(0, slash);
    std::string name = slash == std::string::npos ? rel : rel.substr(slash + 1);
    auto pfd = OpenBeneath(root_fd, parent, O_PATH | O_DIRECTORY, 0, Links::kNone, parent);
    if (!pfd.ok()) return;
    if (::unlinkat(*pfd, name.c_str(), flags) == 0) ++removed;
    ::close(*pfd);
  };
  for (const auto& f : files) unlink_rel(f, 0);
  // Deepest folders first, so a created folder's created subfolders are gone before it.
  std::sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/');
  });
  for (const auto& d : dirs) unlink_rel(d, AT_REMOVEDIR);
  ::close(root_fd);
  return removed;
}

Result<std::string> RealDir(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) return ErrnoStatus(errno, "sandbox directory " + path);
  struct stat st {};
  if (::stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) return InvalidArgument(path + ": not a directory");
  return std::string(buf);
}

Result<TreeScan> ScanTree(const std::string& root, bool skip_hidden, size_t max_entries) {
  struct stat rst {};
  if (::stat(root.c_str(), &rst) != 0) return ErrnoStatus(errno, root);
  TreeScan scan;
  bool complete = Walk(root, max_entries, [&](const std::string& rel, const struct stat& st) {
    if (rel == kInternalDir) return false;
    std::string_view base = rel;
    if (auto slash = base.rfind('/'); slash != std::string_view::npos) base.remove_prefix(slash + 1);
    if (skip_hidden && !base.empty() && base[0] == '.') return false;
    if (S_ISREG(st.st_mode)) {
      scan.files.push_back({rel, static_cast<uint64_t>(st.st_size), false});
    } else if (S_ISLNK(st.st_mode)) {
      scan.files.push_back({rel, 0, true});
    }
    return true;
  });
  scan.truncated = !complete;
  std::sort(scan.files.begin(), scan.files.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.rel < b.rel; });
  return scan;
}

TreeUsage MeasureTree(const std::string& root, uint64_t max_entries, const InodeSet& exempt) {
  TreeUsage u;
  InodeSet counted;
  bool complete = Walk(root, max_entries, [&](const std::string&, const struct stat& st) {
    ++u.entries;
    if (S_ISREG(st.st_mode)) {
      std::pair<uint64_t, uint64_t> key{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
      // Allocated blocks, so a sparse file counts as what it uses; a hard-linked file counts once.
      if (!exempt.count(key) && counted.insert(key).second)
        u.bytes += static_cast<uint64_t>(st.st_blocks) * 512;
    }
    return true;
  });
  u.over_entries = !complete;
  if (u.over_entries) u.entries = max_entries + 1;
  return u;
}

}  // namespace lakeqa::exec
