#include "ingest/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace lakeqa::ingest {
namespace {

// Closes the descriptors it holds on every return path.
struct Fds {
  int v[6] = {-1, -1, -1, -1, -1, -1};
  ~Fds() {
    for (int& fd : v) Close(fd);
  }
  static void Close(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

// Starts argv (looked up on PATH) with the given stdin, stdout and stderr, in its own process group with
// default signal dispositions and an empty mask.
Result<pid_t> Spawn(const std::vector<std::string>& argv, int in_child, int out_write, int err_write) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_child, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write, 1);
  posix_spawn_file_actions_adddup2(&actions, err_write, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group (killed whole on timeout), default signal dispositions and an empty mask.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc == ENOENT) return NotFound(argv[0] + ": program not found");
  if (rc != 0) return ErrnoStatus(rc, "posix_spawn " + argv[0]);
  return pid;
}

// Converters get bounded CPU and memory even if the wall-clock kill came late. (Set just after the
// exec; the child has done little by then.)
void LimitConverter(pid_t pid, int timeout_ms) {
  struct rlimit cpu {
    static_cast<rlim_t>(timeout_ms / 1000 + 2), static_cast<rlim_t>(timeout_ms / 1000 + 3)
  };
  prlimit(pid, RLIMIT_CPU, &cpu, nullptr);
  struct rlimit as {
    1ULL << 30, 1ULL << 30
  };
  prlimit(pid, RLIMIT_AS, &as, nullptr);
}

}  // namespace

Result<CaptureResult> RunCapture(const std::vector<std::string>& argv, std::string_view stdin_data,
                                 int timeout_ms, size_t max_output) {
  if (argv.empty()) return InvalidArgument("RunCapture: empty argv");
  // posix_spawn, not fork: the profiler runs on worker threads, and a forked child of a threaded process
  // may deadlock on a lock (malloc's) that another thread held at the fork.
  Fds fds;
  int& in_child = fds.v[0];
  int& in_parent = fds.v[1];
  int& out_read = fds.v[2];
  int& out_write = fds.v[3];
  int& err_read = fds.v[4];
  int& err_write = fds.v[5];
  // stdin is a socket so that writing to a child that already exited gives EPIPE (MSG_NOSIGNAL), not a
  // SIGPIPE that would kill the whole process.
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return ErrnoStatus(errno, "socketpair");
  in_child = sv[0];
  in_parent = sv[1];
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return ErrnoStatus(errno, "pipe");
  out_read = p[0];
  out_write = p[1];
  if (pipe2(p, O_CLOEXEC) != 0) return ErrnoStatus(errno, "pipe");
  err_read = p[0];
  err_write = p[1];
  shutdown(in_child, SHUT_WR);

  LAKEQA_ASSIGN_OR_RETURN(pid_t pid, Spawn(argv, in_child, out_write, err_write));
  LimitConverter(pid, timeout_ms);
  Fds::Close(in_child);
  Fds::Close(out_write);
  Fds::Close(err_write);
  fcntl(in_parent, F_SETFL, O_NONBLOCK);

  CaptureResult res;
  size_t written = 0;
  if (stdin_data.empty()) Fds::Close(in_parent);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[65536];
  while (out_read >= 0 || err_read >= 0) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      res.timed_out = true;
      break;
    }
    int wait_ms =
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    pollfd pfds[3];
    int n = 0;
    int out_i = -1, err_i = -1, in_i = -1;
    if (out_read >= 0) {
      pfds[n] = {out_read, POLLIN, 0};
      out_i = n++;
    }
    if (err_read >= 0) {
      pfds[n] = {err_read, POLLIN, 0};
      err_i = n++;
    }
    if (in_parent >= 0) {
      pfds[n] = {in_parent, POLLOUT, 0};
      in_i = n++;
    }
    int r = poll(pfds, static_cast<nfds_t>(n), wait_ms);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (in_i >= 0 && (pfds[in_i].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = send(in_parent, stdin_data.data() + written, stdin_data.size() - written, MSG_NOSIGNAL);
      if (w > 0) written += static_cast<size_t>(w);
      // EPIPE: the child stopped reading (it may still have produced output).
      if (w < 0 && errno != EAGAIN && errno != EINTR) written = stdin_data.size();
      if (written >= stdin_data.size()) Fds::Close(in_parent);
    }
    struct Stream {
      int idx;
      int* fd;
      std::string* dst;
    };
    for (Stream s : {Stream{out_i, &out_read, &res.out}, Stream{err_i, &err_read, &res.err}}) {
      if (s.idx < 0 || !(pfds[s.idx].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(*s.fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        Fds::Close(*s.fd);
        continue;
      }
      size_t room = s.dst->size() < max_output ? max_output - s.dst->size() : 0;
      if (static_cast<size_t>(got) > room) res.truncated = true;
      s.dst->append(buf, std::min(room, static_cast<size_t>(got)));
    }
  }
  if (res.timed_out) kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  else res.exit_code = 128 + WTERMSIG(status);
  if (res.exit_code == 127 && res.out.empty()) return NotFound(argv[0] + ": program not found");
  return res;
}

}  // namespace lakeqa::ingest
