#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "access_watch.h"
#include "cgroup.h"
#include "child_process.h"
#include "exec/python_files.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/exec/python.h"
#include "probes.h"
#include "sandbox_tree.h"

namespace lakeqa::exec {
namespace {

constexpr const char* kShimMount = "/opt/lakeqa";
constexpr const char* kLakeMount = "/lake";
// lakeqa's own files (the script, saved outputs, the access log) are mounted at /lakeqa, and the sandbox's
// .lakeqa is an empty read-only folder inside: os.walk and rglob of the sandbox find only the agent's files.
constexpr const char* kRunnerDir = "/lakeqa";

// The embedded Python files, written once per process to a world-readable temp folder that is then
// mounted read-only (outside the sandbox, so agent code cannot alter them for later runs).
Result<std::string> ShimDir() {
  static std::mutex mu;
  static std::string dir;
  std::lock_guard lock(mu);
  if (!dir.empty() && PathExists(dir + "/lakeqa_runner.py")) return dir;
  LAKEQA_ASSIGN_OR_RETURN(std::string d, MakeTempDir("lakeqa-py-"));
  for (const auto& f : SandboxPythonFiles()) {
    std::string path = d + "/" + std::string(f.path);
    LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(path, f.content));
    ::chmod(path.c_str(), 0644);
    std::string parent = path.substr(0, path.rfind('/'));
    while (parent.size() > d.size()) {
      ::chmod(parent.c_str(), 0755);
      parent = parent.substr(0, parent.rfind('/'));
    }
  }
  ::chmod(d.c_str(), 0755);
  dir = d;
  return dir;
}

bool IsDir(const std::string& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// A folder the sandbox user must reach: every ancestor needs o+x when that user is not the owner.
Status CheckTraversable(const std::string& path, int uid) {
  std::string p = path;
  while (!p.empty() && p != "/") {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return ErrnoStatus(errno, p);
    if (static_cast<int>(st.st_uid) != uid && (st.st_mode & S_IXOTH) == 0) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%03o", st.st_mode & 0777);
      return Status(ErrorCode::kPermissionDenied, p + " (mode " + mode +
                                                      ") is not searchable by the sandbox user " +
                                                      std::to_string(uid) + "; chmod o+x it");
    }
    p = p.substr(0, p.rfind('/'));
  }
  return Status::Ok();
}

// Hands the sandbox to the sandbox user, without following symlinks. Hard-linked files are left alone:
// their other names may be outside the sandbox.
void ChownTree(const std::string& root, int uid, int gid) {
  ::lchown(root.c_str(), static_cast<uid_t>(uid), static_cast<gid_t>(gid));
  std::vector<std::string> stack = {root};
  size_t budget = 200000;
  while (!stack.empty() && budget > 0) {
    std::string d = std::move(stack.back());
    stack.pop_back();
    DIR* dir = ::opendir(d.c_str());
    if (dir == nullptr) continue;
    while (struct dirent* e = ::readdir(dir)) {
      if (--budget == 0) break;
      std::string_view n = e->d_name;
      if (n == "." || n == "..") continue;
      std::string child = d + "/" + std::string(n);
      struct stat st {};
      if (::lstat(child.c_str(), &st) != 0) continue;
      if (S_ISREG(st.st_mode) && st.st_nlink > 1) continue;
      ::lchown(child.c_str(), static_cast<uid_t>(uid), static_cast<gid_t>(gid));
      if (S_ISDIR(st.st_mode)) stack.push_back(child);
    }
    ::closedir(dir);
  }
}

// RLIMIT_NPROC counts every process of the user, not just the sandbox's: start from what runs now.
rlim_t ProcessesOf(uid_t uid) {
  rlim_t n = 0;
  DIR* d = ::opendir("/proc");
  if (d == nullptr) return 0;
  while (struct dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, 0) == 0 && st.st_uid == uid) ++n;
  }
  ::closedir(d);
  return n;
}

// Writes run_<n>.py with the first free n, relative to the .lakeqa folder's descriptor.
Result<std::string> WriteScript(int dir_fd, std::string_view code, int* run_number) {
  for (int n = 1; n < 1000000; ++n) {
    std::string name = "run_" + std::to_string(n) + ".py";
    int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      return ErrnoStatus(errno, ".lakeqa/" + name);
    }
    size_t off = 0;
    while (off < code.size()) {
      ssize_t w = ::write(fd, code.data() + off, code.size() - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        int e = errno;
        ::close(fd);
        return ErrnoStatus(e, ".lakeqa/" + name);
      }
      off += static_cast<size_t>(w);
    }
    ::close(fd);
    *run_number = n;
    return name;
  }
  return ResourceExhausted("too many runs in .lakeqa");
}

// The sandbox's .lakeqa folder, opened without following a symlink the code may have put there.
Result<int> OpenInternalDir(const std::string& dir) {
  std::string internal = dir + "/.lakeqa";
  struct stat st {};
  if (::lstat(internal.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    if (::unlink(internal.c_str()) != 0) return ErrnoStatus(errno, "removing " + internal);
  }
  if (::mkdir(internal.c_str(), 0755) != 0 && errno != EEXIST) return ErrnoStatus(errno, internal);
  int fd = ::open(internal.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, internal);
  return fd;
}

uint64_t FileSizeAt(int dir_fd, const char* name) {
  struct stat st {};
  if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<uint64_t>(st.st_size);
}

// Keys the boto3 stand-in appended to .lakeqa/accessed.jsonl since offset `from` (at most 4 MiB).
std::vector<std::string> NewAccessedKeys(int dir_fd, uint64_t from) {
  std::vector<std::string> keys;
  int fd = ::openat(dir_fd, "accessed.jsonl", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return keys;
  std::string text(4 << 20, '\0');
  ssize_t n = ::pread(fd, text.data(), text.size(), static_cast<off_t>(from));
  ::close(fd);
  if (n <= 0) return keys;
  text.resize(static_cast<size_t>(n));
  for (std::string_view line : Split(text, '\n')) {
    if (Trim(line).empty()) continue;
    auto j = ParseJson(line, ".lakeqa/accessed.jsonl");
    if (j.ok() && j->is_object() && j->contains("key") && (*j)["key"].is_string())
      keys.push_back((*j)["key"].get<std::string>());
  }
  return keys;
}

std::string Join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : std::string(sep)) + s;
  return out;
}

}  // namespace

bool BwrapSupports(const std::string& bwrap, const std::string& flag) {
  static std::mutex mu;
  static std::map<std::string, std::string> help;
  std::lock_guard lock(mu);
  auto it = help.find(bwrap);
  if (it == help.end()) {
    ChildSpec spec;
    spec.argv = {bwrap, "--help"};
    CaptureOptions cap;
    cap.wall_ms = 10000;
    auto oc = RunChild(spec, cap);
    it = help.emplace(bwrap, oc.ok() ? oc->out.kept + oc->err.kept : std::string()).first;
  }
  return it->second.find(flag) != std::string::npos;
}

namespace {

// The real paths bubblewrap binds into the sandbox.
struct SandboxMounts {
  std::string dir;        // the sandbox, at kSandboxAlias
  std::string internal;   // its .lakeqa folder, at kRunnerDir
  std::string shim;       // the embedded Python files, at kShimMount
  std::string lake_root;  // the local lake, at kLakeMount; empty without one
};

// The disk quota holds across runs: what the sandbox holds now is the starting point, and the run may
// not take it past the quota (nor grow it further when an earlier overshoot left it above).
struct DiskQuota {
  std::string dir;
  InodeSet exempt;
  uint64_t walk_cap = 0, byte_cap = 0, entry_cap = 0;

  static Result<DiskQuota> Start(const std::string& dir, const PythonOptions& options) {
    const PythonLimits& lim = options.limits;
    DiskQuota q;
    q.dir = dir;
    q.exempt = InodeSet(options.quota_exempt.begin(), options.quota_exempt.end());
    q.walk_cap = 2 * std::max<uint64_t>(1, lim.max_files);
    TreeUsage before = q.Measure();
    if (before.over_entries)
      return ResourceExhausted("the sandbox holds more than " + std::to_string(q.walk_cap) +
                               " files and folders, twice its limit of " + std::to_string(lim.max_files) +
                               "; no more code can run in this session");
    q.byte_cap = std::max(lim.max_disk_bytes, before.bytes);
    q.entry_cap = std::max(lim.max_files, before.entries);
    return q;
  }
  TreeUsage Measure() const { return MeasureTree(dir, walk_cap, exempt); }
  bool Over(const TreeUsage& u) const {
    return u.over_entries || u.entries > entry_cap || u.bytes > byte_cap;
  }
};

// How the run's output is captured: the head and the tail of each stream within the cap, the whole of it
// saved (up to its own cap) in the sandbox's .lakeqa folder as run_<n>.stdout / run_<n>.stderr.
CaptureOptions CaptureFor(const PythonLimits& lim, int internal_fd, const std::string& out_name,
                          const std::string& err_name) {
  CaptureOptions cap;
  cap.wall_ms = lim.wall_ms;
  // The cap holds the head and the tail of a stream: an eighth of it (at most 8 KiB) for the tail.
  cap.tail_bytes = std::min<uint64_t>(8 << 10, lim.max_output_bytes / 8);
  cap.keep_bytes = lim.max_output_bytes - cap.tail_bytes;
  cap.save_bytes = lim.max_saved_output_bytes;
  cap.save_dir_fd = internal_fd;
  cap.save_stdout_name = out_name;
  cap.save_stderr_name = err_name;
  cap.check_every_ms = 250;
  return cap;
}

// bubblewrap's command line: what the sandbox sees (read-only system folders, size-limited tmpfs, the
// sandbox, lakeqa's own files, the shim and the lake) and the environment the runner starts with.
std::vector<std::string> BwrapArgv(const PythonOptions& options, const SandboxMounts& m,
                                   const std::string& script, bool watching) {
  const PythonLimits& lim = options.limits;
  std::vector<std::string> a = {
      options.bwrap, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--cap-drop",
      "ALL"};
  // No user namespaces inside: they would let the code mount its own (unlimited) tmpfs.
  if (BwrapSupports(options.bwrap, "--disable-userns")) a.push_back("--disable-userns");
  auto add = [&a](std::initializer_list<std::string> xs) { a.insert(a.end(), xs); };
  add({"--ro-bind", "/usr", "/usr"});
  // Merged-/usr systems (Debian 12) have /bin, /lib... as symlinks into /usr; others get binds.
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"}) {
    char target[256];
    ssize_t n = ::readlink(top, target, sizeof target);
    if (n > 0) {
      add({"--symlink", std::string(target, static_cast<size_t>(n)), top});
    } else if (IsDir(top)) {
      add({"--ro-bind", top, top});
    }
  }
  // What the dynamic loader, Debian's BLAS/LAPACK alternatives and Debian's matplotlib (its mpl-data
  // matplotlibrc is a link to /etc/matplotlibrc) need; nothing else from /etc.
  for (const char* etc : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/alternatives", "/etc/matplotlibrc"})
    if (PathExists(etc)) add({"--ro-bind", etc, etc});
  // /dev is bwrap's own tmpfs: read-only, with a size-limited /dev/shm, so neither can fill memory.
  add({"--proc", "/proc", "--dev", "/dev"});
  add({"--size", std::to_string(lim.shm_bytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"});
  add({"--size", std::to_string(lim.tmp_bytes), "--tmpfs", "/tmp"});
  add({"--bind", m.dir, kSandboxAlias});
  add({"--bind", m.internal, kRunnerDir});
  std::string hidden = std::string(kSandboxAlias) + "/.lakeqa";
  add({"--size", "4096", "--tmpfs", hidden, "--remount-ro", hidden});
  add({"--ro-bind", m.shim, kShimMount});
  if (!m.lake_root.empty()) add({"--ro-bind", m.lake_root, kLakeMount});
  // The root is bwrap's own tmpfs: read-only, or code could fill memory through it. /tmp has a size.
  add({"--remount-ro", "/", "--chdir", kSandboxAlias, "--clearenv"});
  std::map<std::string, std::string> env = {
      {"PATH", "/usr/local/bin:/usr/bin:/bin"},
      {"HOME", kSandboxAlias},
      {"SANDBOX_DIR", kSandboxAlias},
      {"TMPDIR", "/tmp"},
      {"PYTHONPATH", kShimMount},
      {"PYTHONDONTWRITEBYTECODE", "1"},
      {"PYTHONNOUSERSITE", "1"},  // nothing from the sandbox runs before the runner (site-packages in $HOME)
      {"PYTHONUNBUFFERED", "1"},
      {"PYTHONIOENCODING", "utf-8"},
      {"PYTHONHASHSEED", "0"},
      {"LANG", "C.UTF-8"},
      {"TZ", "UTC"},
      {"MPLBACKEND", "Agg"},
      {"MPLCONFIGDIR", "/tmp/matplotlib"},  // its font cache, out of the agent's files
      {"OPENBLAS_NUM_THREADS", "1"},
      {"OMP_NUM_THREADS", "1"},
      {"MKL_NUM_THREADS", "1"},
  };
  if (watching) {
    env["LAKEQA_CONTROL_FD"] = "3";
  } else {
    // Unobserved: the boto3 stand-in's own log is all there is (code in the sandbox can write it).
    env["LAKEQA_ACCESS_LOG"] = std::string(kRunnerDir) + "/accessed.jsonl";
  }
  if (!m.lake_root.empty()) {
    env["LAKEQA_LAKE_ROOT"] = kLakeMount;
    env["LAKEQA_LAKE_BUCKETS"] = Join(options.lake->buckets, ",");
  }
  for (const auto& [k, v] : options.extra_env) env[k] = v;
  for (const auto& [k, v] : env) add({"--setenv", k, v});
  add({options.python, "-B", "-s", std::string(kShimMount) + "/lakeqa_runner.py", script});
  return a;
}

// Per-process limits of the run's processes (the cgroup, when there is one, bounds them together).
std::vector<std::pair<int, rlim_t>> Rlimits(const PythonLimits& lim, int uid) {
  std::vector<std::pair<int, rlim_t>> r = {
      {RLIMIT_CPU, static_cast<rlim_t>(std::max(1, lim.cpu_s))},
      {RLIMIT_AS, static_cast<rlim_t>(lim.memory_bytes)},
      {RLIMIT_FSIZE, static_cast<rlim_t>(lim.max_file_bytes)},
      {RLIMIT_NOFILE, static_cast<rlim_t>(std::max(16, lim.max_open_files))},
      {RLIMIT_CORE, 0},
  };
  // The kernel does not enforce RLIMIT_NPROC for root, hence the sandbox uid when lakeqa runs as root.
  uid_t counted = uid >= 0 ? static_cast<uid_t>(uid) : ::geteuid();
  if (counted != 0)
    r.push_back({RLIMIT_NPROC, ProcessesOf(counted) + static_cast<rlim_t>(std::max(4, lim.max_processes))});
  return r;
}

// Limits for all the run's processes together, when the machine gives lakeqa a cgroup; none (and one
// warning per process) otherwise.
std::unique_ptr<SandboxCgroup> MaybeCgroup(const PythonOptions& options) {
  std::unique_ptr<SandboxCgroup> cg;
  if (options.use_cgroup && DetectCgroups().available) {
    // bwrap's own two processes (the monitor and the namespace's init) are in the cgroup too.
    const PythonLimits& lim = options.limits;
    auto c = SandboxCgroup::Create({lim.memory_bytes, lim.max_processes + 2, lim.cpus});
    if (c.ok()) {
      cg = std::move(*c);
    } else {
      static std::once_flag warned;
      std::call_once(warned,
                     [&] { LAKEQA_LOG_WARN("sandbox runs without a cgroup: {}", c.status().ToString()); });
    }
  }
  return cg;
}

// Tells the code's author that a stream was cut: what was kept, where the whole of it was saved.
void NoteTruncation(const StreamCapture& s, const std::string& rel, const PythonLimits& lim,
                    std::string& text, std::string& file) {
  if (!s.truncated) return;
  text += "\n[lakeqa] output truncated: kept the first " + std::to_string(s.kept.size()) + " and the last " +
          std::to_string(s.tail.size()) + " of " + std::to_string(s.total) + " bytes";
  if (s.saved) {
    file = rel;
    text += "; " +
            std::string(s.total > lim.max_saved_output_bytes
                            ? "the first " + std::to_string(lim.max_saved_output_bytes) + " bytes"
                            : "all of it") +
            " saved to " + kRunnerDir + rel.substr(rel.find('/'));
  }
  text += "\n";
  // The end of the stream last: a script prints its answer at the end, and a cut keeps a result's tail.
  if (!s.tail.empty())
    text += "[lakeqa] ...the last " + std::to_string(s.tail.size()) + " bytes:\n" + SanitizeUtf8(s.tail);
}

// Why the run was killed, in the words the code's author reads at the end of stderr.
void NoteKill(const ChildOutcome& oc, const PythonLimits& lim, const TreeUsage& after, uint64_t rolled_back,
              PythonResult& r) {
  if (oc.timed_out)
    r.stderr_text += "\n[lakeqa] killed: wall-time limit of " +
                     std::to_string(lim.wall_ms / 1000.0).substr(0, 5) + " s exceeded\n";
  if (r.memory_exceeded)
    r.stderr_text += "\n[lakeqa] killed: the run's processes together used more than " +
                     std::to_string(lim.memory_bytes) + " bytes of memory (memory limit)\n";
  if (oc.term_signal == SIGXCPU || oc.exit_code == 128 + SIGXCPU || oc.exit_code == 128 + SIGKILL) {
    if (!oc.timed_out && !r.disk_exceeded && !r.memory_exceeded)
      r.stderr_text += "\n[lakeqa] killed by signal " + std::to_string(oc.exit_code - 128) + " (CPU limit " +
                       std::to_string(lim.cpu_s) + " s, or memory)\n";
  }
  if (r.disk_exceeded)
    r.stderr_text += "\n[lakeqa] killed: the sandbox went past its disk quota (" +
                     std::to_string(lim.max_disk_bytes) + " bytes, " + std::to_string(lim.max_files) +
                     " files and folders; it holds " + std::to_string(after.bytes) + " bytes in " +
                     (after.over_entries ? "more than " : "") + std::to_string(after.entries) +
                     " entries after removing the " + std::to_string(rolled_back) +
                     " files and folders this run created); delete files you no longer need\n";
}

}  // namespace

Json PythonResult::ToJson() const {
  Json j;
  j["stdout"] = stdout_text;
  j["stderr"] = stderr_text;
  j["exit_code"] = exit_code;
  j["success"] = exit_code == 0 && !timed_out && !disk_exceeded && !memory_exceeded;
  j["timed_out"] = timed_out;
  j["truncated"] = truncated;
  if (disk_exceeded) j["disk_exceeded"] = true;
  if (memory_exceeded) j["memory_exceeded"] = true;
  if (!stdout_file.empty()) j["stdout_file"] = stdout_file;
  if (!stderr_file.empty()) j["stderr_file"] = stderr_file;
  if (!accessed_keys.empty()) j["accessed_keys"] = accessed_keys;
  j["access_observed"] = access_observed;
  if (!access_note.empty()) j["access_note"] = access_note;
  j["elapsed_ms"] = elapsed_ms;
  return j;
}

Result<PythonResult> RunPython(const std::string& sandbox_dir, std::string_view code,
                               const PythonLimits& limits,
                               const std::map<std::string, std::string>& extra_env) {
  PythonOptions o;
  o.limits = limits;
  o.extra_env = extra_env;
  return RunPython(sandbox_dir, code, o);
}

Result<PythonResult> RunPython(const std::string& sandbox_dir, std::string_view code,
                               const PythonOptions& options) {
  const PythonLimits& lim = options.limits;
  if (::access(options.bwrap.c_str(), X_OK) != 0)
    return Unsupported("bubblewrap not found at " + options.bwrap + " (apt-get install bubblewrap)");
  if (::access(options.python.c_str(), X_OK) != 0)
    return Unsupported("python not found at " + options.python);
  if (options.cancel != nullptr && options.cancel->cancelled())
    return Status(ErrorCode::kCancelled, "the code was cancelled before it ran");
  LAKEQA_ASSIGN_OR_RETURN(std::string dir, RealDir(sandbox_dir));
  // The sandbox is handed to the sandbox user (chown) and mounted writable: refuse top-level folders,
  // which are never a session's sandbox and would be costly mistakes.
  if (std::count(dir.begin(), dir.end(), '/') < 2)
    return InvalidArgument("the sandbox directory cannot be a top-level folder: " + dir);
  std::string lake_root;
  if (options.lake) {
    LAKEQA_ASSIGN_OR_RETURN(lake_root, RealDir(options.lake->root));
  }
  LAKEQA_ASSIGN_OR_RETURN(std::string shim, ShimDir());

  LAKEQA_ASSIGN_OR_RETURN(DiskQuota quota, DiskQuota::Start(dir, options));

  LAKEQA_ASSIGN_OR_RETURN(int internal_fd, OpenInternalDir(dir));
  struct CloseFd {
    int fd;
    ~CloseFd() { ::close(fd); }
  } close_internal{internal_fd};
  int run = 0;
  LAKEQA_ASSIGN_OR_RETURN(std::string script_name, WriteScript(internal_fd, code, &run));
  std::string script = std::string(kRunnerDir) + "/" + script_name;
  uint64_t access_from = FileSizeAt(internal_fd, "accessed.jsonl");

  int uid = -1, gid = -1;
  if (::geteuid() == 0 && options.sandbox_uid >= 0) {
    uid = options.sandbox_uid;
    gid = options.sandbox_gid >= 0 ? options.sandbox_gid : options.sandbox_uid;
    LAKEQA_RETURN_IF_ERROR(CheckTraversable(dir, uid));
    LAKEQA_RETURN_IF_ERROR(CheckTraversable(shim, uid));
    if (!lake_root.empty()) LAKEQA_RETURN_IF_ERROR(CheckTraversable(lake_root, uid));
    ChownTree(dir, uid, gid);
  }

  std::unique_ptr<SandboxCgroup> cg = MaybeCgroup(options);
  // What the run opens, observed by the kernel (not reported by the code) when lakeqa may.
  AccessWatch watch;
  std::string watch_why = "observation of opens is turned off";
  bool watching = options.observe_access && watch.Init(&watch_why);

  SandboxMounts mounts{dir, dir + "/.lakeqa", shim, lake_root};
  std::vector<std::string> argv = BwrapArgv(options, mounts, script, watching);

  ChildSpec spec;
  spec.argv = std::move(argv);
  spec.env = {"PATH=/usr/bin:/bin"};
  spec.uid = uid;
  spec.gid = gid;
  if (cg) spec.join_fds = cg->join_fds();
  if (watching) spec.pass_fds = {watch.child_fd()};
  spec.rlimits = Rlimits(lim, uid);

  std::string out_name = "run_" + std::to_string(run) + ".stdout";
  std::string err_name = "run_" + std::to_string(run) + ".stderr";
  std::string out_rel = ".lakeqa/" + out_name, err_rel = ".lakeqa/" + err_name;
  CaptureOptions cap = CaptureFor(lim, internal_fd, out_name, err_name);
  bool disk_exceeded = false;
  cap.check = [&] {
    disk_exceeded = quota.Over(quota.Measure());
    return disk_exceeded;
  };
  if (options.cancel != nullptr) cap.stop_requested = [&] { return options.cancel->cancelled(); };
  if (watching) cap.on_start = [&](int) { watch.Start(lim.wall_ms); };

  struct timespec run_start {};
  ::clock_gettime(CLOCK_REALTIME, &run_start);
  auto oc_or = RunChild(spec, cap);
  if (cg) cg->KillAll();  // anything that outlived bwrap's namespace init
  watch.Finish();
  LAKEQA_ASSIGN_OR_RETURN(ChildOutcome oc, std::move(oc_or));
  if (oc.stopped) return Status(ErrorCode::kCancelled, "the code was cancelled and its processes killed");
  TreeUsage after = quota.Measure();
  if (!disk_exceeded && quota.Over(after)) disk_exceeded = true;
  // A run past the quota loses what it created, so an overshoot between two measurements never
  // accumulates over runs.
  uint64_t rolled_back = 0;
  if (disk_exceeded) {
    rolled_back = RemoveCreatedSince(dir, run_start);
    after = quota.Measure();
  }

  PythonResult r;
  r.stdout_text = SanitizeUtf8(oc.out.kept);
  r.stderr_text = SanitizeUtf8(oc.err.kept);
  r.exit_code = oc.exit_code;
  r.timed_out = oc.timed_out;
  r.disk_exceeded = disk_exceeded;
  r.memory_exceeded = cg && cg->OomKilled();
  r.cgroup = cg ? DetectCgroups().version : "";
  r.disk_bytes = after.bytes;
  r.disk_files = after.entries;
  r.truncated = oc.out.truncated || oc.err.truncated;
  r.elapsed_ms = oc.elapsed_ms;
  NoteTruncation(oc.out, out_rel, lim, r.stdout_text, r.stdout_file);
  NoteTruncation(oc.err, err_rel, lim, r.stderr_text, r.stderr_file);
  NoteKill(oc, lim, after, rolled_back, r);
  if (watching && watch.observed()) {
    r.access_observed = true;
    r.opened = watch.TakeOpens();
    for (const auto& o : r.opened)
      if (o.where == "lake") r.accessed_keys.push_back(o.path);
    r.access_note = watch.note();
  } else {
    r.access_note = watching ? watch.note() : watch_why;
    r.accessed_keys = NewAccessedKeys(internal_fd, access_from);
  }
  return r;
}

Status CheckPythonSandbox(const PythonOptions& options) {
  if (::access(options.bwrap.c_str(), X_OK) != 0)
    return Unsupported("bubblewrap not found at " + options.bwrap);
  if (::access(options.python.c_str(), X_OK) != 0)
    return Unsupported("python not found at " + options.python);
  LAKEQA_ASSIGN_OR_RETURN(std::string tmp, MakeTempDir("lakeqa-pycheck-"));
  ::chmod(tmp.c_str(), 0755);
  PythonOptions o = options;
  o.limits.wall_ms = 30000;
  auto r = RunPython(tmp, "import pandas\nprint('ok')\n", o);
  (void)RemoveAll(tmp);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0 || r->stdout_text != "ok\n")
    return Unsupported("python with pandas does not start in the sandbox (exit " +
                       std::to_string(r->exit_code) + "): " + std::string(TruncateUtf8(r->stderr_text, 600)));
  return Status::Ok();
}

}  // namespace lakeqa::exec
