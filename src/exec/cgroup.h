// A cgroup per sandbox execution, so that memory, processes and CPU are limited for all the sandbox's
// processes together (rlimits are per process: three children could each take the whole memory limit).
// cgroup v2 when the machine delegates it to lakeqa, else the v1 memory/pids/cpu hierarchies when they are
// writable (hybrid systems, containers run as root); otherwise Create() fails with the reason and the
// caller keeps the per-process rlimits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::exec {

struct CgroupSupport {
  bool available = false;
  std::string version;  // "v2" | "v1"
  bool memory = false, pids = false, cpu = false;
  std::vector<std::string> bases;  // the folders sandboxes' cgroups are created in
  std::string detail;              // what was found, or why nothing can be used
};

// Probed once per process (v2 may first move lakeqa into a leaf of its own cgroup, see cgroup.cc).
const CgroupSupport& DetectCgroups();

struct CgroupLimits {
  uint64_t memory_bytes = 0;  // 0 = no memory limit
  int max_pids = 0;           // 0 = no pids limit
  double cpus = 0;            // 0 = no CPU limit; 1.5 = one and a half cores
};

class SandboxCgroup {
 public:
  static Result<std::unique_ptr<SandboxCgroup>> Create(const CgroupLimits& limits);
  ~SandboxCgroup();  // kills what is left and removes the cgroup
  SandboxCgroup(const SandboxCgroup&) = delete;
  SandboxCgroup& operator=(const SandboxCgroup&) = delete;

  // cgroup.procs descriptors a child writes "0" to (before exec) to join every hierarchy.
  const std::vector<int>& join_fds() const { return join_fds_; }
  // SIGKILLs every process in the cgroup until it is empty (bounded wait). Safe from any thread.
  void KillAll();
  // Whether the kernel's OOM killer killed a process of this cgroup (its memory limit was hit).
  bool OomKilled() const;
  // The most memory the cgroup's processes used together, in bytes (0 when the kernel does not say).
  uint64_t PeakMemory() const;
  // The cgroup's folders, one per hierarchy (one for v2).
  const std::vector<std::string>& dirs() const { return dirs_; }

 private:
  SandboxCgroup() = default;
  std::vector<std::string> dirs_;  // one per hierarchy (one for v2)
  std::vector<int> join_fds_;
  std::string memory_dir_;
  bool v2_ = false;
};

}  // namespace lakeqa::exec
