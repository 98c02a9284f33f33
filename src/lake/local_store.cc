#include "lakeqa/lake/local_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "lakeqa/common/beneath.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/posix_io.h"

namespace lakeqa::lake {
namespace {

struct Entry {
  std::string name;
  bool is_dir = false;
};

// Orders entries as their keys sort: a directory compares as its name plus '/', without building it.
bool EntryLess(const Entry& a, const Entry& b) {
  size_t n = std::min(a.name.size(), b.name.size());
  int c = std::memcmp(a.name.data(), b.name.data(), n);
  if (c != 0) return c < 0;
  auto at = [](const Entry& e, size_t i) -> int {
    if (i < e.name.size()) return static_cast<unsigned char>(e.name[i]);
    if (i == e.name.size() && e.is_dir) return '/';
    return -1;  // end of key
  };
  for (size_t i = n;; ++i) {
    int x = at(a, i), y = at(b, i);
    if (x != y) return x < y;
    if (x < 0) return false;
  }
}

// Why a path is not a readable regular file, for listings and read errors.
std::string SpecialReason(const std::string& path) {
  struct stat lst {
  }, st{};
  if (::lstat(path.c_str(), &lst) != 0) return "vanished";
  if (S_ISLNK(lst.st_mode)) {
    if (::stat(path.c_str(), &st) != 0) return errno == ELOOP ? "symlink loop" : "dangling symlink";
    if (S_ISDIR(st.st_mode)) return "symlink to a directory (directories are not followed)";
    if (!S_ISREG(st.st_mode)) return "symlink to a special file";
    return "symlink";
  }
  if (S_ISFIFO(lst.st_mode)) return "a FIFO, not a regular file";
  if (S_ISSOCK(lst.st_mode)) return "a socket, not a regular file";
  if (S_ISCHR(lst.st_mode) || S_ISBLK(lst.st_mode)) return "a device, not a regular file";
  if (S_ISDIR(lst.st_mode)) return "a directory";
  return "not a regular file";
}

// Opens `rel` below the lake root so that the kernel keeps the open inside it (openat2 RESOLVE_BENEATH):
// a file or folder that is a symbolic link leading out of the lake (to /etc, to another lake) is refused,
// links that stay inside are followed. An absolute link back into the lake is resolved and re-opened.
Result<int> OpenInRoot(const std::string& root, std::string_view rel, int flags, const std::string& shown) {
  int rfd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (rfd < 0) return ErrnoStatus(errno, "lake root " + root);
  auto fd = OpenBeneath(rfd, rel, flags, 0, Links::kInside, shown);
  if (!fd.ok() && fd.status().code() == ErrorCode::kPermissionDenied) {
    // RESOLVE_BENEATH refuses every absolute link, also one that points back into the lake.
    char r[PATH_MAX], t[PATH_MAX];
    std::string target = root + "/" + std::string(rel);
    if (::realpath(root.c_str(), r) != nullptr && ::realpath(target.c_str(), t) != nullptr) {
      std::string real_root = r, real = t;
      if (real.size() > real_root.size() + 1 && real.compare(0, real_root.size(), real_root) == 0 &&
          real[real_root.size()] == '/')
        fd = OpenBeneath(rfd, real.substr(real_root.size() + 1), flags, 0, Links::kNone, shown);
    }
    if (!fd.ok() && fd.status().code() == ErrorCode::kPermissionDenied)
      fd = Status(ErrorCode::kPermissionDenied,
                  shown + ": a symbolic link leading outside the lake is not followed");
  }
  ::close(rfd);
  return fd;
}

// Directory entries sorted so that a depth-first walk yields keys in byte order: a directory "a" is
// visited as the prefix "a/", which sorts after "a.txt" ('.' < '/') and before "a0" ('0' > '/').
// dir_fd is an open folder `rel` of the lake at `root`; it is consumed.
Result<std::vector<Entry>> ReadDirSorted(int dir_fd, const std::string& root, const std::string& rel,
                                         std::vector<std::string>* warnings) {
  std::string path = rel.empty() ? root : root + "/" + rel;
  DIR* d = ::fdopendir(dir_fd);
  if (d == nullptr) return CloseAfterError(dir_fd, "listing " + path);
  std::vector<Entry> out;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    // d_type spares an lstat per entry on every common filesystem; fall back to lstat when unknown.
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {
      struct stat lst {};
      if (::fstatat(::dirfd(d), e->d_name, &lst, AT_SYMLINK_NOFOLLOW) != 0) continue;
      type = S_ISDIR(lst.st_mode)   ? DT_DIR
             : S_ISREG(lst.st_mode) ? DT_REG
             : S_ISLNK(lst.st_mode) ? DT_LNK
                                    : DT_FIFO;
    }
    if (type == DT_DIR) {
      out.push_back({name, true});
    } else if (type == DT_REG) {
      out.push_back({name, false});
    } else {
      // Symlinks to files inside the lake are followed. Everything else (a link leading out of the lake, a
      // dangling or looping link, a link to a directory, a FIFO, socket or device) is listed so that a crawl
      // can record it with its reason, but reading it fails cleanly instead of escaping, blocking or
      // recursing.
      std::string full = path + "/" + name;
      std::string key = rel.empty() ? name : rel + "/" + name;
      bool regular = false;
      std::string why;
      if (type == DT_LNK) {
        auto fd = OpenInRoot(root, key, O_PATH, full);
        struct stat st {};
        regular = fd.ok() && ::fstat(*fd, &st) == 0 && S_ISREG(st.st_mode);
        if (fd.ok()) ::close(*fd);
        if (!fd.ok() && fd.status().code() == ErrorCode::kPermissionDenied)
          why = "symbolic link leading outside the lake";
      }
      if (!regular && warnings)
        warnings->push_back(full + ": " + (why.empty() ? SpecialReason(full) : why) +
                            " (listed, not readable)");
      out.push_back({name, false});
    }
  }
  ::closedir(d);
  std::sort(out.begin(), out.end(), EntryLess);
  return out;
}

// Paginated listing re-reads the same directories page after page (a namespace folder with a million
// datasets, for one): keep the last few sorted listings, valid while the directory's mtime is unchanged.
}  // namespace

class DirCache {
 public:
  // The sorted listing of folder `rel` of the lake at `root` (opened confined to the root).
  Result<std::shared_ptr<const std::vector<Entry>>> Get(const std::string& root, const std::string& rel,
                                                        std::vector<std::string>* warnings) {
    std::string path = rel.empty() ? root : root + "/" + rel;
    LAKEQA_ASSIGN_OR_RETURN(int fd, OpenInRoot(root, rel, O_RDONLY | O_DIRECTORY, path));
    struct stat st {};
    if (::fstat(fd, &st) != 0) return CloseAfterError(fd, "listing " + path);
    int64_t mtime = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& slot : slots_) {
        if (slot.path == path && slot.mtime_ns == mtime) {
          ::close(fd);
          return slot.entries;
        }
      }
    }
    std::vector<std::string> fresh_warnings;
    auto entries = ReadDirSorted(fd, root, rel, &fresh_warnings);
    if (!entries.ok()) return entries.status();
    auto shared = std::make_shared<const std::vector<Entry>>(std::move(*entries));
    if (warnings) warnings->insert(warnings->end(), fresh_warnings.begin(), fresh_warnings.end());
    std::lock_guard<std::mutex> lock(mu_);
    slots_[next_++ % slots_.size()] = Slot{path, mtime, shared};
    return shared;
  }

 private:
  struct Slot {
    std::string path;
    int64_t mtime_ns = -1;
    std::shared_ptr<const std::vector<Entry>> entries;
  };
  std::mutex mu_;
  std::array<Slot, 16> slots_;
  size_t next_ = 0;
};

namespace {

ObjectInfo InfoFromStat(std::string key, const struct stat& st) {
  ObjectInfo info;
  info.key = std::move(key);
  info.size = static_cast<uint64_t>(st.st_size);
  int64_t mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  info.mtime_ms = mtime_ns / 1000000;
  info.etag = std::to_string(mtime_ns) + "-" + std::to_string(st.st_size) + "-" + std::to_string(st.st_ino);
  return info;
}

// Depth-first walk in key order, starting strictly after `after` (may be empty), restricted to keys
// beginning with `prefix`. visit returns false to stop.
class Walker {
 public:
  Walker(std::string root, std::string prefix, std::string after, std::vector<std::string>* warnings,
         DirCache* cache)
      : root_(std::move(root)),
        prefix_(std::move(prefix)),
        after_(std::move(after)),
        warnings_(warnings),
        cache_(cache) {}

  // visit(key, is_dir_rollup): returns false to stop.
  Status Walk(std::string_view rel_dir, const std::function<bool(const std::string&, bool)>& visit,
              std::optional<char> delimiter) {
    auto entries = cache_->Get(root_, std::string(rel_dir), warnings_);
    if (!entries.ok()) {
      if (rel_dir.empty()) return entries.status();
      if (warnings_) warnings_->push_back(entries.status().message() + " (skipped)");
      return Status::Ok();
    }
    // Resume inside a directory with a binary search instead of a scan from its first entry.
    auto first = (*entries)->begin();
    if (!after_.empty()) {
      std::string base = rel_dir.empty() ? "" : std::string(rel_dir) + "/";
      if (after_.compare(0, base.size(), base) == 0) {
        std::string rest = after_.substr(base.size());
        first = std::lower_bound((*entries)->begin(), (*entries)->end(), rest,
                                 [](const Entry& e, const std::string& r) {
                                   std::string name = e.is_dir ? e.name + "/" : e.name;
                                   // Keep a directory that contains the resume point.
                                   return name < r && r.compare(0, name.size(), name) != 0;
                                 });
      }
    }
    for (auto it = first; it != (*entries)->end(); ++it) {
      const Entry& e = *it;
      std::string key = rel_dir.empty() ? e.name : std::string(rel_dir) + "/" + e.name;
      std::string cmp = e.is_dir ? key + "/" : key;
      // Prune subtrees that cannot contain the prefix.
      size_t n = std::min(cmp.size(), prefix_.size());
      if (cmp.compare(0, n, prefix_, 0, n) != 0) {
        if (cmp.substr(0, n) > prefix_.substr(0, n)) return Status::Ok();  // sorted: nothing later matches
        continue;
      }
      if (e.is_dir) {
        // A rolled-up common prefix: the part of the key up to the first delimiter after the prefix.
        if (delimiter && cmp.size() > prefix_.size() &&
            cmp.find(*delimiter, prefix_.size()) != std::string::npos) {
          std::string cp = cmp.substr(0, cmp.find(*delimiter, prefix_.size()) + 1);
          if (cp == cmp) {
            if (!after_.empty() && cp <= after_) continue;
            if (!visit(cp, true)) return Stopped();
            continue;
          }
        }
        // Skip subtrees entirely before the continuation point.
        if (!after_.empty() && cmp < after_ && after_.compare(0, cmp.size(), cmp) != 0) continue;
        LAKEQA_RETURN_IF_ERROR(Walk(key, visit, delimiter));
        if (stopped_) return Status::Ok();
      } else {
        if (key.size() < prefix_.size()) continue;
        if (!after_.empty() && key <= after_) continue;
        if (delimiter) {
          size_t pos = key.find(*delimiter, prefix_.size());
          if (pos != std::string::npos) {
            std::string cp = key.substr(0, pos + 1);
            if (!after_.empty() && cp <= after_) continue;
            if (!visit(cp, true)) return Stopped();
            continue;
          }
        }
        if (!visit(key, false)) return Stopped();
      }
    }
    return Status::Ok();
  }

 private:
  Status Stopped() {
    stopped_ = true;
    return Status::Ok();
  }
  std::string root_, prefix_, after_;
  std::vector<std::string>* warnings_;
  DirCache* cache_;
  bool stopped_ = false;
};

}  // namespace

LocalStore::LocalStore(std::string root) : root_(std::move(root)), dir_cache_(std::make_shared<DirCache>()) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

Result<ListPage> LocalStore::List(const ListOptions& options) {
  if (!options.prefix.empty() && options.prefix.find("..") != std::string::npos) {
    return InvalidArgument("list prefix must not contain '..': " + options.prefix);
  }
  ListPage page;
  uint32_t max_keys = options.max_keys ? options.max_keys : 1000;
  // Start the walk at the deepest directory fully named by the prefix.
  std::string start_dir;
  size_t slash = options.prefix.rfind('/');
  if (slash != std::string::npos) start_dir = options.prefix.substr(0, slash);
  struct stat st {};
  if (::stat(root_.c_str(), &st) != 0) return ErrnoStatus(errno, "lake root " + root_);
  if (!start_dir.empty()) {
    auto fd = OpenInRoot(root_, start_dir, O_PATH | O_DIRECTORY, Uri() + "/" + start_dir);
    if (!fd.ok()) {
      // A folder that is a link out of the lake is an error; a missing one holds nothing, as S3 answers.
      if (fd.status().code() == ErrorCode::kPermissionDenied) return fd.status();
      return page;
    }
    ::close(*fd);
  }
  if (!S_ISDIR(st.st_mode)) return InvalidArgument("lake root is not a directory: " + root_);

  Walker walker(root_, options.prefix, options.continuation_token, &page.warnings, dir_cache_.get());
  std::string last;
  bool more = false;
  Status s = walker.Walk(
      start_dir,
      [&](const std::string& key, bool rollup) {
        if (page.objects.size() + page.common_prefixes.size() >= max_keys) {
          more = true;
          return false;
        }
        if (rollup) {
          page.common_prefixes.push_back(key);
        } else {
          // The walk only descended real folders, so lstat sees this entry itself; a link is measured
          // through a confined open (a link out of the lake is listed with size 0).
          struct stat fst {};
          if (::lstat(Path(key).c_str(), &fst) != 0) {
            page.warnings.push_back(Path(key) + ": vanished while listing");
            return true;
          }
          if (S_ISLNK(fst.st_mode)) {
            auto fd = OpenInRoot(root_, key, O_PATH, Path(key));
            struct stat target {};
            if (fd.ok() && ::fstat(*fd, &target) == 0) fst = target;
            if (fd.ok()) ::close(*fd);
          }
          if (!S_ISREG(fst.st_mode)) fst.st_size = 0;
          page.objects.push_back(InfoFromStat(key, fst));
        }
        last = key;
        return true;
      },
      options.delimiter);
  LAKEQA_RETURN_IF_ERROR(s);
  if (more) page.next_continuation_token = last;
  for (const auto& w : page.warnings) LAKEQA_LOG_WARN("{}", w);
  return page;
}

Result<ObjectInfo> LocalStore::Stat(std::string_view key) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  std::string shown = Uri() + "/" + std::string(key);
  LAKEQA_ASSIGN_OR_RETURN(int fd, OpenInRoot(root_, key, O_PATH, shown));
  struct stat st {};
  int rc = ::fstat(fd, &st);
  int e = errno;
  ::close(fd);
  if (rc != 0) return ErrnoStatus(e, shown);
  if (!S_ISREG(st.st_mode)) return NotFound(shown + ": not a regular file");
  return InfoFromStat(std::string(key), st);
}

namespace {
// Opens a regular file of the lake for reading, confined to the root; refuses FIFOs/devices (an open
// could block forever: O_NONBLOCK, then the type check).
Result<int> OpenRegular(const std::string& root, std::string_view key, const std::string& path) {
  auto opened = OpenInRoot(root, key, O_RDONLY | O_NONBLOCK, path);
  if (!opened.ok()) {
    struct stat lst {};
    if (opened.status().code() == ErrorCode::kNotFound && ::lstat(path.c_str(), &lst) == 0)
      return NotFound(path + ": " + SpecialReason(path));
    return opened.status();
  }
  int fd = *opened;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Unsupported(path + ": " + SpecialReason(path));
  }
  int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}
}  // namespace

Result<std::string> LocalStore::ReadRange(std::string_view key, uint64_t offset, uint64_t length) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = Path(key);
  LAKEQA_ASSIGN_OR_RETURN(int fd, OpenRegular(root_, key, path));
  struct stat st {};
  ::fstat(fd, &st);
  uint64_t size = static_cast<uint64_t>(st.st_size);
  uint64_t end = length == 0 ? size : std::min<uint64_t>(size, offset + length);
  std::string out;
  if (offset < end) out.resize(end - offset);
  size_t got = 0;
  while (got < out.size()) {
    ssize_t n = PreadRetrying(fd, out.data() + got, out.size() - got, offset + got);
    if (n < 0) return CloseAfterError(fd, path);
    if (n == 0) break;  // truncated underneath us
    got += static_cast<size_t>(n);
  }
  out.resize(got);
  ::close(fd);
  return out;
}

Status LocalStore::ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = Path(key);
  LAKEQA_ASSIGN_OR_RETURN(int fd, OpenRegular(root_, key, path));
  std::string buf(1 << 16, '\0');
  uint64_t pos = offset;
  for (;;) {
    ssize_t n = PreadRetrying(fd, buf.data(), buf.size(), pos);
    if (n < 0) return CloseAfterError(fd, path);
    if (n == 0) break;
    pos += static_cast<uint64_t>(n);
    if (!sink(std::string_view(buf.data(), static_cast<size_t>(n)))) break;
  }
  ::close(fd);
  return Status::Ok();
}

Status LocalStore::Write(std::string_view key, std::string_view data) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  std::string path = Path(key);
  {
    std::lock_guard lock(batch_mu_);
    if (durability_ == Durability::kPerObject) return WriteFileAtomic(path, data);
  }
  LAKEQA_ASSIGN_OR_RETURN(std::string tmp, WriteTempFileBeside(path, data));
  bool full = false;
  {
    std::lock_guard lock(batch_mu_);
    pending_.emplace_back(std::move(tmp), std::move(path));
    full = pending_.size() >= batch_objects_;
  }
  // A failed batch commit is reported to the writer that triggered it; the objects of that batch are
  // not in the lake (their temp files are removed), which the caller records as a failed write.
  if (full) return Commit().WithContext("committing a batch of writes");
  return Status::Ok();
}

LocalStore::~LocalStore() {
  Status s = Commit();
  if (!s.ok()) LAKEQA_LOG_ERROR("lake {}: {}", Uri(), s.ToString());
}

Status LocalStore::SetDurability(Durability durability, size_t batch_objects) {
  {
    std::lock_guard lock(batch_mu_);
    durability_ = durability;
    batch_objects_ = std::max<size_t>(batch_objects, 1);
  }
  return durability == Durability::kPerObject ? Commit() : Status::Ok();
}

Durability LocalStore::durability() const {
  std::lock_guard lock(batch_mu_);
  return durability_;
}

size_t LocalStore::PendingObjects() const {
  std::lock_guard lock(batch_mu_);
  return pending_.size();
}

Status LocalStore::Commit() {
  std::lock_guard commit(commit_mu_);
  std::vector<std::pair<std::string, std::string>> batch;
  {
    std::lock_guard lock(batch_mu_);
    batch.swap(pending_);
  }
  if (batch.empty()) return Status::Ok();
  // 1. the temp files' bytes reach the disk; 2. they take their final names; 3. the renames do too.
  Status s = SyncFileSystem(root_);
  if (!s.ok()) {
    for (const auto& [tmp, path] : batch) ::unlink(tmp.c_str());
    return s.WithContext(std::to_string(batch.size()) + " objects not written");
  }
  Status first;
  size_t failed = 0;
  for (const auto& [tmp, path] : batch) {
    Status r = RenameInto(tmp, path);
    if (!r.ok() && failed++ == 0) first = r;
  }
  s = SyncFileSystem(root_);
  if (!first.ok())
    return first.WithContext(std::to_string(failed) + " of " + std::to_string(batch.size()) +
                             " objects of a batch not written");
  return s;
}

}  // namespace lakeqa::lake
