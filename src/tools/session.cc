#include "lakeqa/tools/session.h"

#include <cctype>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/exec/sql.h"

namespace lakeqa::tools {
namespace {

std::vector<std::string> SplitSlash(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find('/', start);
    if (end == std::string_view::npos) end = s.size();
    out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = HexValue(s[i + 1]);
      int lo = HexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

Status CheckSegments(std::string_view path, std::string_view what, std::string_view original) {
  if (path.empty()) return InvalidArgument(std::string(what) + " is empty");
  if (path.find('\0') != std::string_view::npos)
    return InvalidArgument(std::string(what) + " contains a NUL byte");
  if (path.front() == '/')
    return Status(ErrorCode::kPermissionDenied,
                  std::string(what) + " must be relative, not absolute: " + std::string(original));
  if (path.find('\\') != std::string_view::npos)
    return Status(ErrorCode::kPermissionDenied,
                  std::string(what) + " contains a backslash: " + std::string(original));
  for (const auto& seg : SplitSlash(path)) {
    if (seg == "." || seg == "..")
      return Status(ErrorCode::kPermissionDenied,
                    std::string(what) + " may not contain '" + seg +
                        "' segments (path escapes its folder): " + std::string(original));
    if (seg.empty())
      return InvalidArgument(std::string(what) +
                             " has an empty segment ('//' or a trailing '/'): " + std::string(original));
  }
  return Status::Ok();
}

// Opens (creating when asked) each folder of `dirs` below dirfd without following symlinks; returns the
// last folder's fd. A symlink or a file where a folder should be is refused.
Result<int> OpenDirChain(int dirfd, const std::vector<std::string>& dirs, const std::string& shown) {
  int fd = ::dup(dirfd);
  if (fd < 0) return ErrnoStatus(errno, "dup");
  for (const auto& d : dirs) {
    if (::mkdirat(fd, d.c_str(), 0755) != 0 && errno != EEXIST) {
      int e = errno;
      ::close(fd);
      return ErrnoStatus(e, "creating folder " + d + " for " + shown + " in the sandbox");
    }
    int next = ::openat(fd, d.c_str(), O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY);
    int e = errno;
    ::close(fd);
    if (next < 0) {
      if (e == ELOOP || e == ENOTDIR)
        return Status(
            ErrorCode::kPermissionDenied,
            "'" + d + "' on the way to " + shown + " in the sandbox is a symlink or a file, not a folder");
      return ErrnoStatus(e, "opening folder " + d + " for " + shown + " in the sandbox");
    }
    fd = next;
  }
  return fd;
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Status ValidateRelativePath(std::string_view path, std::string_view what) {
  LAKEQA_RETURN_IF_ERROR(CheckSegments(path, what, path));
  if (path.find('%') != std::string_view::npos) {
    // A path an agent read somewhere URL-encoded must not smuggle a traversal past the check.
    std::string decoded = PercentDecode(path);
    if (decoded != path) LAKEQA_RETURN_IF_ERROR(CheckSegments(decoded, what, path));
  }
  return Status::Ok();
}

Json TraceEvent::ToJson() const {
  Json j = {{"turn", turn}, {"tool", tool}, {"arguments", arguments}, {"status", status}};
  if (!error.empty()) j["error"] = error;
  j["elapsed_ms"] = elapsed_ms;
  j["summary"] = summary;
  j["returned"] = returned;
  j["accessed"] = accessed;
  if (accessed_unverified) j["accessed_unverified"] = true;
  if (truncated) j["truncated"] = true;
  return j;
}

Result<std::unique_ptr<TraceWriter>> TraceWriter::Open(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return ErrnoStatus(errno, "opening trace " + path);
  auto w = std::unique_ptr<TraceWriter>(new TraceWriter());
  w->path_ = path;
  w->fd_ = fd;
  return w;
}

TraceWriter::~TraceWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status TraceWriter::Append(const TraceEvent& event) {
  // One write() per line with O_APPEND: a reader never sees half an event. A line is bounded: arguments
  // (code, SQL) past the cap are kept as a preview with their size, so a huge request never fills the disk.
  constexpr size_t kMaxTraceLineBytes = 64 << 10;
  Json j = event.ToJson();
  std::string line = DumpJson(j);
  if (line.size() > kMaxTraceLineBytes) {
    std::string args = DumpJson(j["arguments"]);
    size_t keep = 4096;
    if (args.size() > keep) {
      while (keep > 0 && (static_cast<unsigned char>(args[keep]) & 0xC0) == 0x80) --keep;
      j["arguments"] = Json{{"preview", args.substr(0, keep)}, {"bytes", args.size()}, {"truncated", true}};
    }
    for (const char* k : {"error", "summary"}) {
      if (j.contains(k) && j[k].is_string() && j[k].get_ref<const std::string&>().size() > 4096)
        j[k] = j[k].get<std::string>().substr(0, 4096) + " ...[truncated]";
    }
    line = DumpJson(j);
    if (line.size() > kMaxTraceLineBytes) {
      j = Json{{"turn", event.turn}, {"tool", event.tool}, {"status", event.status}, {"truncated", true}};
      line = DumpJson(j);
    }
  }
  line += "\n";
  size_t off = 0;
  while (off < line.size()) {
    ssize_t n = ::write(fd_, line.data() + off, line.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(errno, "writing trace " + path_);
    }
    off += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Result<std::unique_ptr<Session>> Session::Create(const std::string& root, const std::string& id,
                                                 SessionLimits limits) {
  if (id.empty() || id.size() > 64)
    return InvalidArgument("session id must be 1 to 64 characters: '" + id + "'");
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
      return InvalidArgument("session id may hold only letters, digits, '-' and '_': '" + id + "'");
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(root));
  auto s = std::unique_ptr<Session>(new Session());
  s->id_ = id;
  s->dir_ = root + "/" + id;
  s->sandbox_ = s->dir_ + "/sandbox";
  s->limits_ = limits;
  if (::mkdir(s->dir_.c_str(), 0755) != 0) {
    if (errno == EEXIST) return Status(ErrorCode::kAlreadyExists, "session folder exists: " + s->dir_);
    return ErrnoStatus(errno, "creating session folder " + s->dir_);
  }
  if (::mkdir(s->sandbox_.c_str(), 0755) != 0) return ErrnoStatus(errno, "creating sandbox " + s->sandbox_);
  // The Python sandbox runs as an unprivileged user that must reach the sandbox; others may pass through
  // the session folder (o+x) but not list it, and the trace is the owner's alone.
  ::chmod(s->dir_.c_str(), 0711);
  ::chmod(s->sandbox_.c_str(), 0755);
  LAKEQA_ASSIGN_OR_RETURN(s->trace_, TraceWriter::Open(s->dir_ + "/trace.jsonl"));
  return s;
}

Session::~Session() = default;

Result<std::vector<Json>> Session::ReadTrace() const {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(trace_->path()));
  std::vector<Json> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) {
      LAKEQA_ASSIGN_OR_RETURN(Json j,
                              ParseJson(std::string_view(text).substr(start, end - start), trace_->path()));
      out.push_back(std::move(j));
    }
    start = end + 1;
  }
  return out;
}

Status Session::CheckDownload(uint64_t bytes, uint64_t files) const {
  if (downloaded_files_ + files > limits_.max_downloaded_files)
    return ResourceExhausted("download limit: this session may download " +
                             std::to_string(limits_.max_downloaded_files) + " files and has downloaded " +
                             std::to_string(downloaded_files_));
  if (downloaded_bytes_ + bytes > limits_.max_download_bytes)
    return ResourceExhausted("download limit: " + std::to_string(bytes) +
                             " more bytes would exceed this session's " +
                             std::to_string(limits_.max_download_bytes) + "-byte budget (" +
                             std::to_string(downloaded_bytes_) + " used)");
  return Status::Ok();
}

static Result<std::pair<int, std::string>> OpenParentOf(const std::string& sandbox, std::string_view rel) {
  LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(rel, "sandbox path"));
  std::vector<std::string> parts = SplitSlash(rel);
  std::string name = parts.back();
  parts.pop_back();
  int root = ::open(sandbox.c_str(), O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY);
  if (root < 0) return ErrnoStatus(errno, "opening sandbox " + sandbox);
  Fd r{root};
  LAKEQA_ASSIGN_OR_RETURN(int fd, OpenDirChain(root, parts, std::string(rel)));
  return std::make_pair(fd, name);
}

static Status RemoveExisting(int dirfd, const std::string& name, std::string_view rel) {
  struct stat st {};
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Status::Ok();
  if (S_ISDIR(st.st_mode))
    return Status(ErrorCode::kAlreadyExists,
                  "a folder already exists at " + std::string(rel) + " in the sandbox");
  if (::unlinkat(dirfd, name.c_str(), 0) != 0) return ErrnoStatus(errno, "replacing " + std::string(rel));
  return Status::Ok();
}

Status Session::WriteFile(std::string_view rel, std::string_view data) {
  LAKEQA_ASSIGN_OR_RETURN(auto parent, OpenParentOf(sandbox_, rel));
  Fd p{parent.first};
  LAKEQA_RETURN_IF_ERROR(RemoveExisting(p.fd, parent.second, rel));
  int fd = ::openat(p.fd, parent.second.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus(errno, "creating " + std::string(rel) + " in the sandbox");
  Fd f{fd};
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(errno, "writing " + std::string(rel) + " in the sandbox");
    }
    off += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status Session::LinkFile(std::string_view rel, const std::string& source) {
  LAKEQA_ASSIGN_OR_RETURN(auto parent, OpenParentOf(sandbox_, rel));
  Fd p{parent.first};
  LAKEQA_RETURN_IF_ERROR(RemoveExisting(p.fd, parent.second, rel));
  if (::linkat(AT_FDCWD, source.c_str(), p.fd, parent.second.c_str(), 0) == 0) return Status::Ok();
  if (errno != EXDEV && errno != EMLINK && errno != EPERM)
    return ErrnoStatus(errno, "linking " + source + " to " + std::string(rel) + " in the sandbox");
  // The cache is on another filesystem: copy, streaming.
  int in = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return ErrnoStatus(errno, "opening " + source);
  Fd i{in};
  int out = ::openat(p.fd, parent.second.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
  if (out < 0) return ErrnoStatus(errno, "creating " + std::string(rel) + " in the sandbox");
  Fd o{out};
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(errno, "reading " + source);
    if (n == 0) break;
    ssize_t off = 0;
    while (off < n) {
      ssize_t w = ::write(out, buf + off, static_cast<size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return ErrnoStatus(errno, "writing " + std::string(rel) + " in the sandbox");
      off += w;
    }
  }
  return Status::Ok();
}

Result<exec::SqlSandbox*> Session::Sql(const std::string& cache_dir) {
  if (!sql_) {
    exec::SqlLimits lim;
    lim.timeout_ms = limits_.call_timeout_ms;
    exec::SqlCacheOptions cache;
    if (!cache_dir.empty()) {
      cache.dir = cache_dir;
      cache.link_dir = dir_ + "/columnar";
      cache.min_bytes = limits_.columnar_min_bytes;
    }
    LAKEQA_ASSIGN_OR_RETURN(sql_, exec::SqlSandbox::Open(sandbox_, lim, cache));
    for (const auto& f : downloads_) sql_->AddKnownFile(f);
  }
  return sql_.get();
}

void Session::NoteDownload(const std::string& rel, const std::string& sha256, const std::string& source) {
  exec::KnownFile f{rel, sha256, source};
  bool replaced = false;
  for (auto& d : downloads_) {
    if (d.rel == rel) {
      d = f;
      replaced = true;
    }
  }
  if (!replaced) downloads_.push_back(f);
  if (sql_) sql_->AddKnownFile(f);
  for (auto it = download_inodes_.begin(); it != download_inodes_.end();)
    it = it->second == rel ? download_inodes_.erase(it) : std::next(it);
  struct stat st {};
  if (::lstat((sandbox_ + "/" + rel).c_str(), &st) == 0 && S_ISREG(st.st_mode))
    download_inodes_[{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)}] = rel;
}

std::string Session::DownloadAt(uint64_t dev, uint64_t ino) const {
  auto it = download_inodes_.find({dev, ino});
  return it == download_inodes_.end() ? "" : it->second;
}

std::vector<std::pair<uint64_t, uint64_t>> Session::DownloadInodes() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [k, rel] : download_inodes_) out.push_back(k);
  return out;
}

}  // namespace lakeqa::tools
