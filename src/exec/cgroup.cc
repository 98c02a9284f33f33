#include "cgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::exec {
namespace {

struct Mount {
  std::string point, fstype;
  std::vector<std::string> options;  // super options: the v1 controllers are named here
};

std::vector<Mount> CgroupMounts() {
  std::vector<Mount> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // "36 35 98:0 /root /mnt/point rw,noatime master:1 - cgroup cgroup rw,memory"
    size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream pre(line.substr(0, dash)), post(line.substr(dash + 3));
    std::string id, parent, devno, root, point, fstype, source, super;
    pre >> id >> parent >> devno >> root >> point;
    post >> fstype >> source >> super;
    if (fstype != "cgroup" && fstype != "cgroup2") continue;
    Mount m{point, fstype, {}};
    for (std::string_view o : Split(super, ',')) m.options.emplace_back(o);
    out.push_back(std::move(m));
  }
  return out;
}

// /proc/self/cgroup: "0::/path" for v2, "4:memory:/path" (or "1:cpu,cpuacct:/path") for v1.
std::string OwnPath(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string ctrls = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controller.empty()) {
      if (line.compare(0, a, "0") == 0 && ctrls.empty()) return path;
      continue;
    }
    for (std::string_view c : Split(ctrls, ','))
      if (c == controller) return path;
  }
  return "";
}

std::string ReadSmall(const std::string& path) {
  auto r = ReadFile(path, 1 << 16);
  return r.ok() ? *r : std::string();
}

// Writes value to a cgroup control file; errno is kept for the caller.
bool WriteControl(const std::string& path, const std::string& value) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = ::write(fd, value.data(), value.size());
  int e = errno;
  ::close(fd);
  errno = e;
  return n == static_cast<ssize_t>(value.size());
}

bool HasWord(const std::string& text, std::string_view word) {
  for (std::string_view w : Split(text, ' '))
    if (Trim(w) == word) return true;
  return false;
}

uint64_t KeyValue(const std::string& text, std::string_view key) {
  for (std::string_view line : Split(text, '\n')) {
    line = Trim(line);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
      return std::strtoull(std::string(line.substr(key.size() + 1)).c_str(), nullptr, 10);
  }
  return 0;
}

std::string Join(const std::string& dir, const std::string& rel) {
  if (rel.empty() || rel == "/") return dir;
  return dir + rel;
}

CgroupSupport DetectV2(const std::vector<Mount>& mounts, std::string* why) {
  CgroupSupport s;
  std::string mnt;
  for (const auto& m : mounts)
    if (m.fstype == "cgroup2") mnt = m.point;
  if (mnt.empty()) {
    *why += "no cgroup v2 mount; ";
    return s;
  }
  std::string base = Join(mnt, OwnPath(""));
  std::string ctrls = ReadSmall(base + "/cgroup.controllers");
  if (!HasWord(ctrls, "memory") || !HasWord(ctrls, "pids")) {
    *why += "cgroup v2 at " + base + " offers the controllers [" + std::string(Trim(ctrls)) +
            "], not memory and pids; ";
    return s;
  }
  if (::access((base + "/cgroup.subtree_control").c_str(), W_OK) != 0 || ::access(base.c_str(), W_OK) != 0) {
    *why += "cgroup v2 " + base + " is not delegated to uid " + std::to_string(::geteuid()) +
            " (run lakeqa under `systemd-run --user --scope -p Delegate=yes`); ";
    return s;
  }
  bool cpu = HasWord(ctrls, "cpu");
  std::string want = cpu ? "+memory +pids +cpu" : "+memory +pids";
  auto enabled = [&] {
    std::string sub = ReadSmall(base + "/cgroup.subtree_control");
    return HasWord(sub, "memory") && HasWord(sub, "pids") && (!cpu || HasWord(sub, "cpu"));
  };
  if (!enabled() && !WriteControl(base + "/cgroup.subtree_control", want)) {
    if (errno != EBUSY) {
      *why += "enabling controllers in " + base + ": " + std::strerror(errno) + "; ";
      return s;
    }
    // A v2 cgroup with processes cannot hand controllers to children: move lakeqa into a leaf first.
    std::string leaf = base + "/lakeqa-main-" + std::to_string(::getpid());
    if ((::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) || !WriteControl(leaf + "/cgroup.procs", "0") ||
        !WriteControl(base + "/cgroup.subtree_control", want)) {
      *why += "cgroup v2 " + base + " holds other processes, so it cannot delegate controllers (" +
              std::strerror(errno) + "); run lakeqa in a cgroup of its own; ";
      return s;
    }
  }
  if (!enabled()) {
    *why += "cgroup v2 " + base + ": controllers did not turn on; ";
    return s;
  }
  s.available = true;
  s.version = "v2";
  s.memory = s.pids = true;
  s.cpu = cpu;
  s.bases = {base};
  s.detail = "cgroup v2 at " + base;
  return s;
}

CgroupSupport DetectV1(const std::vector<Mount>& mounts, std::string* why) {
  CgroupSupport s;
  std::string found;
  for (const char* c : {"memory", "pids", "cpu"}) {
    std::string mnt;
    for (const auto& m : mounts) {
      if (m.fstype != "cgroup") continue;
      for (const auto& o : m.options)
        if (o == c) mnt = m.point;
    }
    std::string own = OwnPath(c);
    if (mnt.empty() || own.empty()) {
      *why += std::string("no cgroup v1 ") + c + " hierarchy; ";
      continue;
    }
    std::string base = Join(mnt, own);
    if (::access(base.c_str(), W_OK) != 0) {
      *why += "cgroup v1 " + base + " is not writable by uid " + std::to_string(::geteuid()) + "; ";
      continue;
    }
    s.bases.push_back(base);
    found += (found.empty() ? "" : ", ") + base;
    if (std::strcmp(c, "memory") == 0) s.memory = true;
    if (std::strcmp(c, "pids") == 0) s.pids = true;
    if (std::strcmp(c, "cpu") == 0) s.cpu = true;
  }
  if (!s.memory || !s.pids) {
    s = CgroupSupport{};
    return s;
  }
  s.available = true;
  s.version = "v1";
  s.detail = "cgroup v1 at " + found;
  return s;
}

// Cgroups lakeqa left behind when it was killed (its runs' processes died with it, the folders stayed):
// empty ones of a process that is gone, older than ten minutes, are removed. rmdir never removes a
// cgroup that still holds a process.
void RemoveStale(const std::string& base) {
  DIR* d = ::opendir(base.c_str());
  if (d == nullptr) return;
  time_t old = ::time(nullptr) - 600;
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    std::string rest;
    if (StartsWith(name, "lakeqa-main-")) rest = name.substr(12);
    else if (StartsWith(name, "lakeqa-")) rest = name.substr(7);
    else continue;
    long pid = std::strtol(rest.c_str(), nullptr, 10);
    struct stat st {};
    std::string path = base + "/" + name;
    if (pid <= 0 || pid == ::getpid() || ::stat(path.c_str(), &st) != 0 || st.st_mtime > old) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) ::rmdir(path.c_str());
  }
  ::closedir(d);
}

}  // namespace

const CgroupSupport& DetectCgroups() {
  static const CgroupSupport support = [] {
    std::vector<Mount> mounts = CgroupMounts();
    std::string why;
    CgroupSupport s = DetectV2(mounts, &why);
    if (!s.available) s = DetectV1(mounts, &why);
    if (!s.available) {
      while (!why.empty() && (why.back() == ' ' || why.back() == ';')) why.pop_back();
      s.detail = why.empty() ? "no cgroup file system is mounted" : why;
    }
    for (const auto& base : s.bases) RemoveStale(base);
    return s;
  }();
  return support;
}

Result<std::unique_ptr<SandboxCgroup>> SandboxCgroup::Create(const CgroupLimits& limits) {
  const CgroupSupport& sup = DetectCgroups();
  if (!sup.available) return Unsupported("no usable cgroup: " + sup.detail);
  static std::atomic<uint64_t> counter{0};
  std::string name = "lakeqa-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  std::unique_ptr<SandboxCgroup> cg(new SandboxCgroup());
  cg->v2_ = sup.version == "v2";
  auto set = [&](const std::string& dir, const std::string& file, const std::string& value, bool required) {
    if (WriteControl(dir + "/" + file, value) || !required) return Status::Ok();
    return ErrnoStatus(errno, "setting " + dir + "/" + file + " to " + value);
  };
  for (const auto& base : sup.bases) {
    std::string dir = base + "/" + name;
    if (::mkdir(dir.c_str(), 0755) != 0) return ErrnoStatus(errno, "creating cgroup " + dir);
    cg->dirs_.push_back(dir);
    bool memory = cg->v2_ || PathExists(dir + "/memory.limit_in_bytes");
    bool pids = cg->v2_ || PathExists(dir + "/pids.max");
    bool cpu = (cg->v2_ && sup.cpu) || PathExists(dir + "/cpu.cfs_quota_us");
    if (memory) cg->memory_dir_ = dir;
    if (memory && limits.memory_bytes > 0) {
      std::string v = std::to_string(limits.memory_bytes);
      if (cg->v2_) {
        LAKEQA_RETURN_IF_ERROR(set(dir, "memory.max", v, true));
        LAKEQA_RETURN_IF_ERROR(set(dir, "memory.swap.max", "0", false));  // absent without swap accounting
      } else {
        LAKEQA_RETURN_IF_ERROR(set(dir, "memory.limit_in_bytes", v, true));
        LAKEQA_RETURN_IF_ERROR(set(dir, "memory.memsw.limit_in_bytes", v, false));
      }
    }
    if (pids && limits.max_pids > 0)
      LAKEQA_RETURN_IF_ERROR(set(dir, "pids.max", std::to_string(limits.max_pids), true));
    if (cpu && limits.cpus > 0) {
      std::string quota = std::to_string(static_cast<long>(limits.cpus * 100000));
      if (cg->v2_) {
        LAKEQA_RETURN_IF_ERROR(set(dir, "cpu.max", quota + " 100000", true));
      } else {
        LAKEQA_RETURN_IF_ERROR(set(dir, "cpu.cfs_period_us", "100000", true));
        LAKEQA_RETURN_IF_ERROR(set(dir, "cpu.cfs_quota_us", quota, true));
      }
    }
    int fd = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(errno, "opening " + dir + "/cgroup.procs");
    cg->join_fds_.push_back(fd);
  }
  return cg;
}

void SandboxCgroup::KillAll() {
  if (dirs_.empty()) return;
  if (v2_) WriteControl(dirs_[0] + "/cgroup.kill", "1");  // kernel >= 5.14: kills every member at once
  for (int round = 0; round < 300; ++round) {
    bool any = false;
    for (const auto& d : dirs_) {
      std::string procs = ReadSmall(d + "/cgroup.procs");
      for (std::string_view p : Split(procs, '\n')) {
        p = Trim(p);
        if (p.empty()) continue;
        any = true;
        ::kill(static_cast<pid_t>(std::strtol(std::string(p).c_str(), nullptr, 10)), SIGKILL);
      }
    }
    if (!any) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool SandboxCgroup::OomKilled() const {
  if (memory_dir_.empty()) return false;
  std::string text = ReadSmall(memory_dir_ + (v2_ ? "/memory.events" : "/memory.oom_control"));
  return KeyValue(text, "oom_kill") > 0;
}

uint64_t SandboxCgroup::PeakMemory() const {
  if (memory_dir_.empty()) return 0;
  std::string text = ReadSmall(memory_dir_ + (v2_ ? "/memory.peak" : "/memory.max_usage_in_bytes"));
  return std::strtoull(text.c_str(), nullptr, 10);
}

SandboxCgroup::~SandboxCgroup() {
  KillAll();
  for (int fd : join_fds_) ::close(fd);
  for (const auto& d : dirs_) {
    // Killed processes leave the cgroup once reaped; give them a moment.
    for (int i = 0; i < 200 && ::rmdir(d.c_str()) != 0 && errno == EBUSY; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace lakeqa::exec
