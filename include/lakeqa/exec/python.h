// Python (Debian's /usr/bin/python3 with pandas) run under bubblewrap: no network, the host invisible
// except the read-only system files Python needs, only the sandbox directory writable (seen as /sandbox),
// no nested user namespaces, and CPU, memory, wall-time, process, output and disk limits — for all the
// run's processes together through a cgroup when the machine allows one, per process (rlimits) otherwise.
// What the code opened is observed by lakeqa (fanotify) where the machine allows it. The `execute_code`
// tool is a thin layer over RunPython. docs/sandbox.md describes each protection and its fallback.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/exec/sandbox.h"

namespace lakeqa::exec {

struct PythonLimits {
  int wall_ms = 60000;
  int cpu_s = 60;     // RLIMIT_CPU (CPU seconds per process)
  double cpus = 1.0;  // cgroup CPU quota in cores for the whole run (0 = none)
  // Memory: RLIMIT_AS per process (MemoryError) and, with a cgroup, the total of all the run's processes
  // (memory.max / memory.limit_in_bytes: the kernel kills a process of the run past it).
  uint64_t memory_bytes = 2ULL << 30;
  uint64_t max_output_bytes = 64 << 10;        // kept per stream; the rest is saved to a file in the sandbox
  uint64_t max_saved_output_bytes = 16 << 20;  // cap on that file
  uint64_t max_file_bytes = 1ULL << 30;        // RLIMIT_FSIZE: largest file the code may write
  // The sandbox's disk quota, across runs: bytes of its files (downloads excluded, see quota_exempt) and
  // its number of entries. Measured before, every 250 ms during and after each run; a run that grows the
  // sandbox past either is killed.
  uint64_t max_disk_bytes = 2ULL << 30;
  uint64_t max_files = 20000;
  uint64_t tmp_bytes = 256ULL << 20;  // size of the private /tmp (tmpfs)
  uint64_t shm_bytes = 64ULL << 20;   // size of /dev/shm (tmpfs); the rest of /dev is read-only
  int max_processes = 64;             // pids.max with a cgroup; RLIMIT_NPROC for the sandbox user
  int max_open_files = 256;           // RLIMIT_NOFILE
};

// A local lake the code may read through the boto3 stand-in (boto3.client("s3").get_object(...)).
struct LakeMount {
  std::string root;  // host folder: <root>/<namespace>/<dataset>/<file>
  std::vector<std::string> buckets = {"lakeqa-yc4103-datalake"};  // Bucket names mapped to root; "*" = any
};

struct PythonOptions {
  PythonLimits limits;
  std::map<std::string, std::string> extra_env;
  std::optional<LakeMount> lake;
  std::string python = "/usr/bin/python3";
  std::string bwrap = "/usr/bin/bwrap";
  // When lakeqa runs as root the code runs as this uid/gid, so that RLIMIT_NPROC applies (the kernel
  // exempts root) and a sandbox escape would not be root. The sandbox tree is chowned to it.
  int sandbox_uid = 65534;
  int sandbox_gid = 65534;
  // A cgroup per run when the machine allows one (DetectCgroups); false keeps only the rlimits.
  bool use_cgroup = true;
  // Observe the files the run opens (fanotify, needs CAP_SYS_ADMIN); false: only the boto3 stand-in's log.
  bool observe_access = true;
  // Inodes (dev, ino) not counted in the disk quota: files lakeqa placed (downloads are capped separately).
  std::vector<std::pair<uint64_t, uint64_t>> quota_exempt;
  // Cancel() kills the run (every process of it) and the result says cancelled.
  CancelToken* cancel = nullptr;
};

// A file the run opened, as the kernel reported it to lakeqa.
struct ObservedOpen {
  std::string where;  // "sandbox" | "lake"
  std::string path;   // sandbox-relative path, or lake key
  uint64_t dev = 0, ino = 0;
};

struct PythonResult {
  std::string stdout_text, stderr_text;
  int exit_code = 0;             // Python's exit status; 128+N when killed by signal N
  bool timed_out = false;        // the wall-time limit killed it
  bool truncated = false;        // stdout or stderr was cut at max_output_bytes
  bool disk_exceeded = false;    // the sandbox went past max_disk_bytes or max_files and the run was killed
  bool memory_exceeded = false;  // the cgroup's memory limit killed a process of the run
  bool cancelled = false;        // options.cancel fired and the run was killed
  std::string stdout_file, stderr_file;  // sandbox-relative full output, when truncated
  // Lake keys the run read: observed opens under /lake when access_observed, else the boto3 stand-in's
  // own log (which code in the sandbox can write).
  std::vector<std::string> accessed_keys;
  std::vector<ObservedOpen> opened;  // every file opened under /sandbox and /lake (when access_observed)
  bool access_observed = false;
  std::string access_note;  // why opens were not (fully) observed
  std::string cgroup;       // "v2" | "v1" when the run had a cgroup, "" when only rlimits applied
  uint64_t disk_bytes = 0, disk_files = 0;  // the sandbox's quota usage after the run
  double elapsed_ms = 0;
  Json ToJson() const;
};

// Runs `code` as a script in sandbox_dir (which must exist). The code sees the globals the LakeQA
// harness sets: SANDBOX_DIR (str), FILES (absolute paths of the sandbox's files), and pd, json, csv,
// os, glob, re, Path pre-imported; the working directory is the sandbox. An error Status means the
// sandbox could not be set up (missing bwrap/python, bad directory); the code's own failures are in
// the result (exit_code, stderr).
Result<PythonResult> RunPython(const std::string& sandbox_dir, std::string_view code,
                               const PythonOptions& options);
Result<PythonResult> RunPython(const std::string& sandbox_dir, std::string_view code,
                               const PythonLimits& limits,
                               const std::map<std::string, std::string>& extra_env = {});

// Whether RunPython can work here: bwrap and python exist, pandas imports inside bwrap. The message
// says what is missing (tests skip with it).
Status CheckPythonSandbox(const PythonOptions& options = {});

}  // namespace lakeqa::exec
