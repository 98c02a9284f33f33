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

namespace lakeqa::exec {
namespace {

constexpr const char* kInternalDir = ".lakeqa";

// Calls visit(rel, stat) for every entry below root (not following symlinks), depth first.
// Returns false if max_entries was reached.
bool Walk(const std::string& root, size_t max_entries,
          const std::function<bool(const std::string& rel, const struct stat& st)>& descend_or_visit) {
  size_t seen = 0;
  std::vector<std::string> stack{""};
  while (!stack.empty()) {
    std::string rel = std::move(stack.back());
    stack.pop_back();
    std::string abs = rel.empty() ? root : root + "/" + rel;
    DIR* d = ::opendir(abs.c_str());
    if (d == nullptr) continue;
    while (struct dirent* e = ::readdir(d)) {
      std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++seen > max_entries) {
        ::closedir(d);
        return false;
      }
      std::string child = rel.empty() ? std::string(name) : rel + "/" + std::string(name);
      struct stat st{};
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      bool go = descend_or_visit(child, st);
      if (go && S_ISDIR(st.st_mode)) stack.push_back(child);
    }
    ::closedir(d);
  }
  return true;
}

bool IsInternal(const std::string& rel) { return rel == kInternalDir; }

}  // namespace

Result<std::string> RealDir(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) return ErrnoStatus(errno, "sandbox directory " + path);
  struct stat st{};
  if (::stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) return InvalidArgument(path + ": not a directory");
  return std::string(buf);
}

Result<TreeScan> ScanTree(const std::string& root, bool skip_hidden, size_t max_entries) {
  struct stat rst{};
  if (::stat(root.c_str(), &rst) != 0) return ErrnoStatus(errno, root);
  TreeScan scan;
  bool complete = Walk(root, max_entries, [&](const std::string& rel, const struct stat& st) {
    if (IsInternal(rel)) return false;
    std::string_view base = rel;
    if (auto slash = base.rfind('/'); slash != std::string_view::npos) base.remove_prefix(slash + 1);
    if (skip_hidden && !base.empty() && base[0] == '.') return false;
    if (S_ISREG(st.st_mode)) {
      scan.files.push_back({rel, static_cast<uint64_t>(st.st_size), false});
      scan.bytes += static_cast<uint64_t>(st.st_blocks) * 512;
    } else if (S_ISLNK(st.st_mode)) {
      scan.files.push_back({rel, 0, true});
    }
    return true;
  });
  scan.truncated = !complete;
  std::sort(scan.files.begin(), scan.files.end(), [](const TreeEntry& a, const TreeEntry& b) { return a.rel < b.rel; });
  return scan;
}

uint64_t TreeBytes(const std::string& root, size_t max_entries) {
  uint64_t bytes = 0;
  Walk(root, max_entries, [&](const std::string&, const struct stat& st) {
    if (S_ISREG(st.st_mode)) bytes += static_cast<uint64_t>(st.st_blocks) * 512;
    return true;
  });
  return bytes;
}

std::vector<std::string> EscapingSymlinks(const std::string& root, size_t max_entries) {
  std::vector<std::string> out;
  std::string prefix = root + "/";
  Walk(root, max_entries, [&](const std::string& rel, const struct stat& st) {
    if (!S_ISLNK(st.st_mode)) return true;
    char buf[PATH_MAX];
    std::string abs = root + "/" + rel;
    // A dangling link may start resolving later; only links that resolve inside root are kept.
    if (::realpath(abs.c_str(), buf) == nullptr || std::string_view(buf).substr(0, prefix.size()) != prefix)
      out.push_back(rel);
    return true;
  });
  return out;
}

}  // namespace lakeqa::exec
