#include "confined_fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "duckdb/common/exception.hpp"
#include "duckdb/common/local_file_system.hpp"
#include "duckdb/common/types/value.hpp"
#include "duckdb/common/virtual_file_system.hpp"
#include "duckdb/main/config.hpp"
#include "lakeqa/common/beneath.h"

namespace lakeqa::exec {
namespace {

using duckdb::FileHandle;
using duckdb::FileOpener;
using duckdb::FileOpenFlags;
using duckdb::OpenFileInfo;
using duckdb::optional_ptr;

// A glob may visit at most this many directory entries (the sandbox's file-count limit is far lower).
constexpr size_t kMaxGlobEntries = 1000000;

struct Root {
  FsRoot spec;
  int fd = -1;
};

struct Mapped {
  size_t root = 0;
  std::string rel;     // below the root; "" = the root itself
  std::string prefix;  // the spelling of the root the caller used ("" for a relative path)
};

std::string Join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

bool Glob1(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

class ConfinedFileSystem : public duckdb::LocalFileSystem {
 public:
  ConfinedFileSystem(std::vector<Root> roots, std::shared_ptr<OpenLog> log)
      : roots_(std::move(roots)), log_(std::move(log)) {}
  ~ConfinedFileSystem() override {
    for (auto& r : roots_)
      if (r.fd >= 0) ::close(r.fd);
  }

  std::string GetName() const override { return "lakeqa-confined"; }

  duckdb::unique_ptr<FileHandle> OpenFile(const std::string& path, FileOpenFlags flags,
                                          optional_ptr<FileOpener> opener) override {
    Mapped m = MapOrThrow(path);
    const Root& root = roots_[m.root];
    if (flags.OpenForWriting() || flags.CreateFileIfNotExists() || flags.OverwriteExistingFile()) {
      if (!root.spec.writable) throw duckdb::PermissionException(path + ": the sandbox is read-only for SQL");
      CheckParent(m, path);
      return LocalFileSystem::OpenFile(Host(m), flags, opener);
    }
    auto fd = OpenBeneath(root.fd, m.rel, O_PATH, 0, Links::kInside, path);
    if (!fd.ok()) {
      if (fd.status().code() == ErrorCode::kNotFound && flags.ReturnNullIfNotExists()) return nullptr;
      Throw(fd.status(), path);
    }
    struct stat st {};
    if (::fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(*fd);
      throw duckdb::IOException(path +
                                ": not a regular file (FIFOs, sockets, devices and folders are not read)");
    }
    // Reopening the checked descriptor through its /proc link opens exactly that inode, whatever the
    // path names by now; DuckDB's own handle then does the reading.
    std::string magic = "/proc/self/fd/" + std::to_string(*fd);
    duckdb::unique_ptr<FileHandle> h;
    try {
      h = LocalFileSystem::OpenFile(magic, flags, opener);
    } catch (...) {
      ::close(*fd);
      throw;
    }
    ::close(*fd);
    if (h) {
      h->path = path;
      if (log_) log_->Add({m.root, m.rel, st.st_dev, st.st_ino});
    }
    return h;
  }

  bool FileExists(const std::string& path, optional_ptr<FileOpener>) override {
    return TypeOf(path) == S_IFREG;
  }
  bool DirectoryExists(const std::string& path, optional_ptr<FileOpener>) override {
    return TypeOf(path) == S_IFDIR;
  }
  bool IsPipe(const std::string&, optional_ptr<FileOpener>) override { return false; }

  void CreateDirectory(const std::string& path, optional_ptr<FileOpener> opener) override {
    Mapped m = Writable(path);
    LocalFileSystem::CreateDirectory(Host(m), opener);
  }
  void RemoveDirectory(const std::string& path, optional_ptr<FileOpener> opener) override {
    Mapped m = Writable(path);
    LocalFileSystem::RemoveDirectory(Host(m), opener);
  }
  void RemoveFile(const std::string& path, optional_ptr<FileOpener> opener) override {
    Mapped m = Writable(path);
    LocalFileSystem::RemoveFile(Host(m), opener);
  }
  bool TryRemoveFile(const std::string& path, optional_ptr<FileOpener> opener) override {
    Mapped m = Writable(path);
    return LocalFileSystem::TryRemoveFile(Host(m), opener);
  }
  void MoveFile(const std::string& source, const std::string& target,
                optional_ptr<FileOpener> opener) override {
    Mapped a = Writable(source), b = Writable(target);
    LocalFileSystem::MoveFile(Host(a), Host(b), opener);
  }

  duckdb::vector<OpenFileInfo> Glob(const std::string& path, FileOpener*) override {
    Mapped m = MapOrThrow(path);
    duckdb::vector<OpenFileInfo> out;
    if (!HasGlob(path)) {
      // A link out of the sandbox is refused as such, not reported as a missing file.
      auto fd = OpenBeneath(roots_[m.root].fd, m.rel, O_PATH, 0, Links::kInside, path);
      if (!fd.ok()) {
        if (fd.status().code() == ErrorCode::kPermissionDenied) Throw(fd.status(), path);
        return out;
      }
      struct stat st {};
      if (::fstat(*fd, &st) == 0 && S_ISREG(st.st_mode)) out.emplace_back(path);
      ::close(*fd);
      return out;
    }
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= m.rel.size()) {
      size_t end = m.rel.find('/', start);
      if (end == std::string::npos) end = m.rel.size();
      std::string part = m.rel.substr(start, end - start);
      if (!part.empty() && part != ".") parts.push_back(part);
      start = end + 1;
    }
    size_t visited = 0;
    std::vector<std::string> current = {""};
    for (size_t i = 0; i < parts.size(); ++i) {
      bool last = i + 1 == parts.size();
      const std::string& part = parts[i];
      std::vector<std::string> next;
      for (const auto& dir : current) {
        if (part == "**") {
          // Zero or more folders (never through a symlink); as the last part, every file below.
          std::vector<std::string> stack = {dir};
          while (!stack.empty()) {
            std::string d = std::move(stack.back());
            stack.pop_back();
            if (!last) next.push_back(d);
            for (const auto& e : List(m.root, d, &visited)) {
              if (e.dir) stack.push_back(Join(d, e.name));
              else if (last && e.file) next.push_back(Join(d, e.name));
            }
          }
        } else if (Glob1(part)) {
          for (const auto& e : List(m.root, dir, &visited)) {
            if (::fnmatch(part.c_str(), e.name.c_str(), FNM_PERIOD) != 0) continue;
            if (last ? e.file : e.dir) next.push_back(Join(dir, e.name));
          }
        } else {
          std::string cand = Join(dir, part);
          int t = TypeAt(m.root, cand);
          if (last ? t == S_IFREG : t == S_IFDIR) next.push_back(cand);
        }
      }
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
      current = std::move(next);
    }
    for (const auto& rel : current) out.emplace_back(m.prefix.empty() ? rel : m.prefix + "/" + rel);
    return out;
  }

 protected:
  bool ListFilesExtended(const std::string& directory,
                         const std::function<void(OpenFileInfo& info)>& callback,
                         optional_ptr<FileOpener>) override {
    Mapped m = MapOrThrow(directory);
    if (TypeAt(m.root, m.rel) != S_IFDIR) return false;
    size_t visited = 0;
    for (const auto& e : List(m.root, m.rel, &visited)) {
      if (!e.dir && !e.file) continue;
      OpenFileInfo info(e.name);
      info.extended_info = duckdb::make_shared_ptr<duckdb::ExtendedOpenFileInfo>();
      info.extended_info->options["type"] = duckdb::Value(e.dir ? "directory" : "file");
      callback(info);
    }
    return true;
  }

 private:
  struct Entry {
    std::string name;
    bool dir = false, file = false;  // a real folder; a regular file (or a link to one inside the root)
  };

  std::optional<Mapped> Map(const std::string& in) const {
    std::string p = in;
    if (p.rfind("file://", 0) == 0) p = p.substr(7);
    if (p.empty() || p.find('\0') != std::string::npos) return std::nullopt;
    if (p[0] != '/') return Mapped{0, p, ""};
    for (size_t i = 0; i < roots_.size(); ++i) {
      for (const std::string* prefix : {&roots_[i].spec.alias, &roots_[i].spec.host}) {
        if (prefix->empty()) continue;
        if (p == *prefix) return Mapped{i, "", *prefix};
        if (p.size() > prefix->size() && p.compare(0, prefix->size(), *prefix) == 0 &&
            p[prefix->size()] == '/')
          return Mapped{i, p.substr(prefix->size() + 1), *prefix};
      }
    }
    return std::nullopt;
  }

  Mapped MapOrThrow(const std::string& path) const {
    auto m = Map(path);
    if (!m)
      throw duckdb::PermissionException(path + ": outside the sandbox (only " + roots_[0].spec.alias +
                                        "/... can be read)");
    return *m;
  }

  Mapped Writable(const std::string& path) const {
    Mapped m = MapOrThrow(path);
    if (!roots_[m.root].spec.writable)
      throw duckdb::PermissionException(path + ": the sandbox is read-only for SQL");
    CheckParent(m, path);
    return m;
  }

  std::string Host(const Mapped& m) const {
    return m.rel.empty() ? roots_[m.root].spec.host : roots_[m.root].spec.host + "/" + m.rel;
  }

  // Writable roots are lakeqa's own folders, but a write still may not go through a link.
  void CheckParent(const Mapped& m, const std::string& path) const {
    std::string parent = m.rel.find('/') == std::string::npos ? "" : m.rel.substr(0, m.rel.rfind('/'));
    auto fd = OpenBeneath(roots_[m.root].fd, parent, O_PATH | O_DIRECTORY, 0, Links::kNone, path);
    if (!fd.ok()) Throw(fd.status(), path);
    ::close(*fd);
  }

  [[noreturn]] static void Throw(const Status& st, const std::string& path) {
    if (st.code() == ErrorCode::kPermissionDenied) throw duckdb::PermissionException(st.message());
    throw duckdb::IOException("Cannot open file \"" + path + "\": " + st.message());
  }

  // S_IFREG / S_IFDIR / other file type of what rel names under the root (symlinks inside followed), or 0.
  int TypeAt(size_t root, const std::string& rel) const {
    auto fd = OpenBeneath(roots_[root].fd, rel, O_PATH, 0, Links::kInside, rel);
    if (!fd.ok()) return 0;
    struct stat st {};
    int t = ::fstat(*fd, &st) == 0 ? static_cast<int>(st.st_mode & S_IFMT) : 0;
    ::close(*fd);
    return t;
  }

  int TypeOf(const std::string& path) const {
    auto m = Map(path);
    return m ? TypeAt(m->root, m->rel) : 0;
  }

  std::vector<Entry> List(size_t root, const std::string& rel, size_t* visited) const {
    std::vector<Entry> out;
    auto fd = OpenBeneath(roots_[root].fd, rel, O_RDONLY | O_DIRECTORY, 0, Links::kNone, rel);
    if (!fd.ok()) return out;
    DIR* d = ::fdopendir(*fd);
    if (d == nullptr) {
      ::close(*fd);
      return out;
    }
    while (struct dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++*visited > kMaxGlobEntries) {
        ::closedir(d);
        throw duckdb::IOException("glob: more than " + std::to_string(kMaxGlobEntries) + " entries visited");
      }
      struct stat st {};
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      Entry en{name};
      if (S_ISDIR(st.st_mode)) {
        en.dir = true;
      } else if (S_ISREG(st.st_mode)) {
        en.file = true;
      } else if (S_ISLNK(st.st_mode)) {
        en.file = TypeAt(root, Join(rel, name)) == S_IFREG;  // a link to a file inside the root
      }
      out.push_back(std::move(en));
    }
    ::closedir(d);
    return out;
  }

  std::vector<Root> roots_;
  std::shared_ptr<OpenLog> log_;
};

}  // namespace

Status InstallConfinedFileSystem(duckdb_config config, const std::vector<FsRoot>& specs,
                                 std::shared_ptr<OpenLog> log) {
  if (specs.empty()) return InvalidArgument("the confined file system needs at least one folder");
  std::vector<Root> roots;
  for (const auto& s : specs) {
    Root r{s, ::open(s.host.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)};
    if (r.fd < 0) {
      int e = errno;
      for (auto& x : roots) ::close(x.fd);
      return ErrnoStatus(e, "opening " + s.host + " for SQL");
    }
    roots.push_back(std::move(r));
  }
  // duckdb_config is the C API's handle on a duckdb::DBConfig (same library version, pinned by
  // scripts/setup); the C API has no way to set a file system.
  auto* cfg = reinterpret_cast<duckdb::DBConfig*>(config);
  cfg->file_system = duckdb::make_uniq<duckdb::VirtualFileSystem>(
      duckdb::make_uniq<ConfinedFileSystem>(std::move(roots), std::move(log)));
  return Status::Ok();
}

}  // namespace lakeqa::exec
