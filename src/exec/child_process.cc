#include "child_process.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "lakeqa/common/cleanup.h"

namespace lakeqa::exec {
namespace {

using Clock = std::chrono::steady_clock;

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Close(); }
  void Close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

Status MakePipe(Fd& r, Fd& w) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return ErrnoStatus(errno, "pipe");
  r.fd = p[0];
  w.fd = p[1];
  return Status::Ok();
}

void WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    data += w;
    n -= static_cast<size_t>(w);
  }
}

// Keeps the first keep bytes; once they overflow, writes the stream (from its start) to the save file.
class Sink {
 public:
  Sink(StreamCapture& cap, uint64_t keep, uint64_t tail, uint64_t save, int dir_fd, std::string name)
      : cap_(cap), keep_(keep), tail_(tail), save_(save), dir_fd_(dir_fd), name_(std::move(name)) {}
  ~Sink() {
    if (file_ >= 0) ::close(file_);
  }
  void Add(const char* data, size_t n) {
    cap_.total += n;
    size_t room = cap_.kept.size() < keep_ ? keep_ - cap_.kept.size() : 0;
    size_t take = std::min(room, n);
    if (!cap_.truncated && take < n) {
      cap_.truncated = true;
      if (dir_fd_ >= 0 && !name_.empty()) {
        file_ = ::openat(dir_fd_, name_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (file_ >= 0) {
          cap_.saved = true;
          WriteAll(file_, cap_.kept.data(), cap_.kept.size());
          saved_ = cap_.kept.size();
        }
      }
    }
    cap_.kept.append(data, take);
    if (take < n && tail_ > 0) {
      cap_.tail.append(data + take, n - take);
      if (cap_.tail.size() > tail_) cap_.tail.erase(0, cap_.tail.size() - tail_);
    }
    if (file_ >= 0) {
      size_t more = saved_ < save_ ? std::min<uint64_t>(save_ - saved_, n) : 0;
      WriteAll(file_, data, more);
      saved_ += more;
    }
  }

 private:
  StreamCapture& cap_;
  uint64_t keep_, tail_, save_;
  int dir_fd_;
  std::string name_;
  int file_ = -1;
  uint64_t saved_ = 0;
};

// Children running now, so that SIGINT/SIGTERM kill them before their folders are removed.
std::mutex g_live_mu;
std::set<pid_t> g_live;

void KillLiveChildren() {
  std::lock_guard lock(g_live_mu);
  for (pid_t p : g_live) {
    ::kill(-p, SIGKILL);
    ::kill(p, SIGKILL);
  }
}

struct LiveChild {
  pid_t pid;
  explicit LiveChild(pid_t p) : pid(p) {
    static std::once_flag hooked;
    std::call_once(hooked, [] { AddTerminationHook(KillLiveChildren); });
    std::lock_guard lock(g_live_mu);
    g_live.insert(pid);
  }
  ~LiveChild() {
    std::lock_guard lock(g_live_mu);
    g_live.erase(pid);
  }
};

// The descriptors the child starts from: stdin from /dev/null, the two output pipes, and the pipe that
// reports a failed step before exec (close-on-exec, so a successful exec closes it silently).
struct ChildFds {
  int devnull, out_w, err_w, exec_w;
};

// In the child: tells the parent which step failed (and errno) through the exec pipe, and exits.
[[noreturn]] void ReportStepAndExit(int exec_w, int step) {
  int msg[2] = {step, errno};
  (void)!::write(exec_w, msg, sizeof msg);
  ::_exit(127);
}

// The child's side of the fork, up to exec: only async-signal-safe calls (everything was prepared
// before the fork). A failed step is written to the exec pipe as {step, errno}.
[[noreturn]] void ExecChild(const ChildSpec& spec, char** argv, char** envp, ChildFds fds, pid_t parent) {
  int exec_w = fds.exec_w;
  auto fail = [&exec_w](int step) { ReportStepAndExit(exec_w, step); };
  ::setpgid(0, 0);
  // Dies with the thread that started it, so a crashed lakeqa leaves no sandbox behind.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  if (::dup2(fds.devnull, 0) < 0 || ::dup2(fds.out_w, 1) < 0 || ::dup2(fds.err_w, 2) < 0) fail(1);
  // Passed descriptors go to 3, 4, ...: first lift them (and the exec pipe) above every target, so
  // that no dup2 below overwrites one not yet moved.
  int npass = static_cast<int>(spec.pass_fds.size());
  int floor_fd = 3 + npass + 16;
  for (int fd : spec.pass_fds) floor_fd = std::max(floor_fd, fd + 1);
  for (int fd : spec.join_fds) floor_fd = std::max(floor_fd, fd + 1);
  int keep = ::fcntl(exec_w, F_DUPFD_CLOEXEC, floor_fd);
  if (keep < 0) fail(1);
  exec_w = keep;  // fail() reports through the lifted copy from here on
  int lifted[16];
  for (int i = 0; i < npass && i < 16; ++i) {
    lifted[i] = ::fcntl(spec.pass_fds[static_cast<size_t>(i)], F_DUPFD, floor_fd);
    if (lifted[i] < 0) fail(1);
  }
  for (int i = 0; i < npass && i < 16; ++i)
    if (::dup2(lifted[i], 3 + i) < 0) fail(1);  // dup2 clears close-on-exec on the target
  // Join the cgroup before anything else runs as the sandbox.
  for (int fd : spec.join_fds)
    if (::write(fd, "0", 1) != 1) fail(6);
  // Close every other descriptor the parent had open (DuckDB files, sockets...).
  ::syscall(SYS_close_range, static_cast<unsigned>(3 + npass), static_cast<unsigned>(keep - 1), 0U);
  ::syscall(SYS_close_range, static_cast<unsigned>(keep + 1), ~0U, 0U);
  for (const auto& [res, val] : spec.rlimits) {
    struct rlimit rl {
      val, val
    };
    if (::setrlimit(res, &rl) != 0) fail(2);
  }
  if (spec.gid >= 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(static_cast<gid_t>(spec.gid)) != 0) fail(3);
  }
  if (spec.uid >= 0 && ::setuid(static_cast<uid_t>(spec.uid)) != 0) fail(4);
  ::execve(argv[0], argv, envp);
  ReportStepAndExit(exec_w, 5);
}

// Waits for the child's exec: Ok once it ran the program (the exec pipe closed without a word), the failed
// step otherwise (the child has exited; it is reaped here).
Status ExecOutcome(int exec_r, pid_t pid, const std::string& program) {
  int msg[2] = {0, 0};
  ssize_t got;
  do {
    got = ::read(exec_r, msg, sizeof msg);
  } while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(sizeof msg)) return Status::Ok();
  int status;
  ::waitpid(pid, &status, 0);
  static const char* const kSteps[] = {"",
                                       "redirecting output",
                                       "setting resource limits",
                                       "dropping group",
                                       "dropping user",
                                       "executing",
                                       "joining the sandbox's cgroup"};
  std::string what = std::string(kSteps[msg[0] < 7 && msg[0] > 0 ? msg[0] : 0]) + " " + program;
  return ErrnoStatus(msg[1], what);
}

// A wait status as the outcome's exit code (128 + the signal for a killed child, as a shell reports it).
void RecordExit(int status, ChildOutcome& res) {
  if (WIFEXITED(status)) {
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.term_signal = WTERMSIG(status);
    res.exit_code = 128 + res.term_signal;
  }
}

}  // namespace

Result<ChildOutcome> RunChild(const ChildSpec& spec, const CaptureOptions& capture) {
  if (spec.argv.empty()) return InvalidArgument("no program to run");
  if (spec.pass_fds.size() > 16) return InvalidArgument("at most 16 descriptors can be passed to a child");
  // Everything the child touches is prepared before fork: after it only async-signal-safe calls.
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : spec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  Fd out_r, out_w, err_r, err_w, exec_r, exec_w;
  LAKEQA_RETURN_IF_ERROR(MakePipe(out_r, out_w));
  LAKEQA_RETURN_IF_ERROR(MakePipe(err_r, err_w));
  LAKEQA_RETURN_IF_ERROR(MakePipe(exec_r, exec_w));
  Fd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (devnull.fd < 0) return ErrnoStatus(errno, "/dev/null");

  auto start = Clock::now();
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) return ErrnoStatus(errno, "fork");
  if (pid == 0)
    ExecChild(spec, argv.data(), envp.data(), {devnull.fd, out_w.fd, err_w.fd, exec_w.fd}, parent);
  ::setpgid(pid, pid);  // also in the parent, so the kill below cannot race the child's own setpgid
  out_w.Close();
  err_w.Close();
  exec_w.Close();

  LAKEQA_RETURN_IF_ERROR(ExecOutcome(exec_r.fd, pid, spec.argv[0]));

  LiveChild live(pid);
  if (capture.on_start) capture.on_start(pid);
  ChildOutcome res;
  Sink out(res.out, capture.keep_bytes, capture.tail_bytes, capture.save_bytes, capture.save_dir_fd,
           capture.save_stdout_name);
  Sink err(res.err, capture.keep_bytes, capture.tail_bytes, capture.save_bytes, capture.save_dir_fd,
           capture.save_stderr_name);
  auto deadline = start + std::chrono::milliseconds(capture.wall_ms);
  auto next_check = start + std::chrono::milliseconds(capture.check_every_ms);
  bool killed = false;
  auto kill_all = [&] {
    if (!killed) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      killed = true;
    }
  };
  int status = 0;
  bool reaped = false;
  char buf[1 << 16];
  // After a kill, grandchildren in other process groups may hold the pipes a moment longer.
  auto drain_until = Clock::time_point::max();
  for (;;) {
    struct pollfd fds[2] = {{out_r.fd, POLLIN, 0}, {err_r.fd, POLLIN, 0}};
    bool open_out = out_r.fd >= 0, open_err = err_r.fd >= 0;
    auto now = Clock::now();
    if (!killed && now >= deadline) {
      res.timed_out = true;
      kill_all();
      drain_until = now + std::chrono::seconds(2);
    }
    if (!killed && capture.stop_requested && capture.stop_requested()) {
      res.stopped = true;
      kill_all();
      drain_until = now + std::chrono::seconds(2);
    }
    if (!killed && capture.check && now >= next_check) {
      next_check = now + std::chrono::milliseconds(capture.check_every_ms);
      if (capture.check()) {
        res.killed_by_check = true;
        kill_all();
        drain_until = now + std::chrono::seconds(2);
      }
    }
    if (!reaped) {
      pid_t w = ::waitpid(pid, &status, WNOHANG);
      if (w == pid) reaped = true;
    }
    if (!open_out && !open_err) {
      if (reaped) break;
      if (now >= drain_until) {
        ::waitpid(pid, &status, 0);
        reaped = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    if (now >= drain_until) break;
    auto limit = std::min({deadline, next_check, drain_until});
    if (killed) limit = drain_until;
    int wait_ms =
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(limit - now).count());
    wait_ms = std::clamp(wait_ms, 0, reaped ? 1000 : 50);  // wake up now and then to reap the child
    struct pollfd* p = open_out ? fds : fds + 1;
    int nfds = (open_out && open_err) ? 2 : 1;
    int r = ::poll(p, static_cast<nfds_t>(nfds), wait_ms);
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < nfds && r > 0; ++i) {
      if ((p[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      bool is_out = p[i].fd == out_r.fd;
      ssize_t n = ::read(p[i].fd, buf, sizeof buf);
      if (n > 0) {
        (is_out ? out : err).Add(buf, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        (is_out ? out_r : err_r).Close();
      }
    }
  }
  if (!reaped) {
    kill_all();
    ::waitpid(pid, &status, 0);
  }
  RecordExit(status, res);
  res.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return res;
}

}  // namespace lakeqa::exec
