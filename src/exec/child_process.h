// fork + setrlimit + execve with captured, capped output and a wall-clock deadline that kills the
// child's whole process group. Only what a sandbox launcher needs; not a general subprocess API.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::exec {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the absolute path executed
  std::vector<std::string> env;   // "K=V"
  std::vector<std::pair<int, rlim_t>> rlimits;
  int uid = -1, gid = -1;  // switched to before exec when >= 0 (requires root)
  // cgroup.procs descriptors: the child writes "0" to each before dropping privileges, so it and every
  // process it starts live in the sandbox's cgroup from the first instruction of the program.
  std::vector<int> join_fds;
  // Descriptors the program receives as 3, 4, ... (everything else above 2 is closed).
  std::vector<int> pass_fds;
};

struct CaptureOptions {
  int wall_ms = 60000;
  uint64_t keep_bytes = 64 << 10;  // per stream, in memory
  uint64_t tail_bytes = 8 << 10;   // per stream, in memory: the end of a stream longer than keep_bytes
  uint64_t save_bytes = 16 << 20;  // per stream, to a file once keep_bytes overflows
  // The files are created with openat(save_dir_fd, name, O_NOFOLLOW): the folder is one the child can
  // write to, and a path could be redirected through a symlink it plants while running.
  int save_dir_fd = -1;
  std::string save_stdout_name, save_stderr_name;
  // Called every check_every_ms while the child runs; returning true kills it.
  std::function<bool()> check;
  int check_every_ms = 250;
  // Polled about every 50 ms; returning true kills the child (cancellation from another thread).
  std::function<bool()> stop_requested;
  // Called (in the parent) once the program runs, with the child's pid; returning kills nothing.
  std::function<void(int pid)> on_start;
};

struct StreamCapture {
  std::string kept;
  std::string tail;    // once truncated: the stream's last tail_bytes (its last line is often the answer)
  uint64_t total = 0;  // bytes the child wrote
  bool truncated = false;
  bool saved = false;  // the save path holds the first save_bytes of the stream
};

struct ChildOutcome {
  StreamCapture out, err;
  int exit_code = -1;  // exit status, or 128 + signal
  int term_signal = 0;
  bool timed_out = false;
  bool killed_by_check = false;
  bool stopped = false;  // stop_requested killed it
  double elapsed_ms = 0;
};

Result<ChildOutcome> RunChild(const ChildSpec& spec, const CaptureOptions& capture);

}  // namespace lakeqa::exec
