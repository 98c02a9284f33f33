// Python (Debian's /usr/bin/python3 with pandas) run under bubblewrap: no network, the host invisible
// except the read-only system files Python needs, only the sandbox directory writable, and CPU, memory,
// wall-time, process, output and disk limits. The `execute_code` tool is a thin layer over RunPython.
// docs/sandbox.md describes the isolation and what it does not cover.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::exec {

struct PythonLimits {
  int wall_ms = 60000;
  int cpu_s = 60;                             // RLIMIT_CPU
  uint64_t memory_bytes = 2ULL << 30;         // RLIMIT_AS (address space)
  uint64_t max_output_bytes = 64 << 10;       // kept per stream; the rest is saved to a file in the sandbox
  uint64_t max_saved_output_bytes = 16 << 20; // cap on that file
  uint64_t max_file_bytes = 1ULL << 30;       // RLIMIT_FSIZE: largest file the code may write
  uint64_t max_disk_bytes = 2ULL << 30;       // growth of the sandbox during one run; the run is killed past it
  uint64_t tmp_bytes = 256ULL << 20;          // size of the private /tmp (tmpfs)
  int max_processes = 64;                     // RLIMIT_NPROC, counted for the sandbox user
  int max_open_files = 256;                   // RLIMIT_NOFILE
};

// A local lake the code may read through the boto3 stand-in (boto3.client("s3").get_object(...)).
struct LakeMount {
  std::string root;                                     // host folder: <root>/<namespace>/<dataset>/<file>
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
  // When *cancel becomes true the run is killed (checked with the disk limit, every 250 ms).
  const std::atomic<bool>* cancel = nullptr;
};

struct PythonResult {
  std::string stdout_text, stderr_text;
  int exit_code = 0;          // Python's exit status; 128+N when killed by signal N
  bool timed_out = false;     // the wall-time limit killed it
  bool truncated = false;     // stdout or stderr was cut at max_output_bytes
  bool disk_exceeded = false; // the sandbox grew past max_disk_bytes and the run was killed
  bool cancelled = false;     // PythonOptions::cancel was set and the run was killed
  std::string stdout_file, stderr_file;  // sandbox-relative full output, when truncated
  std::vector<std::string> accessed_keys;  // lake keys read through the boto3 stand-in, in order
  double elapsed_ms = 0;
  Json ToJson() const;
};

// Runs `code` as a script in sandbox_dir (which must exist). The code sees the globals the LakeQA
// harness sets: SANDBOX_DIR (str), FILES (absolute paths of the sandbox's files), and pd, json, csv,
// os, glob, re, Path pre-imported; the working directory is the sandbox. An error Status means the
// sandbox could not be set up (missing bwrap/python, bad directory); the code's own failures are in
// the result (exit_code, stderr).
Result<PythonResult> RunPython(const std::string& sandbox_dir, std::string_view code, const PythonOptions& options);
Result<PythonResult> RunPython(const std::string& sandbox_dir, std::string_view code, const PythonLimits& limits,
                               const std::map<std::string, std::string>& extra_env = {});

// Whether RunPython can work here: bwrap and python exist, pandas imports inside bwrap. The message
// says what is missing (tests skip with it).
Status CheckPythonSandbox(const PythonOptions& options = {});

}  // namespace lakeqa::exec
