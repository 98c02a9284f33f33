#include "ingest/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>

namespace lakeqa::ingest {

Result<CaptureResult> RunCapture(const std::vector<std::string>& argv, std::string_view stdin_data, int timeout_ms,
                                 size_t max_output) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return ErrnoStatus(errno, "pipe");
  if (pipe2(out, O_CLOEXEC) != 0) return ErrnoStatus(errno, "pipe");
  if (pipe2(err, O_CLOEXEC) != 0) return ErrnoStatus(errno, "pipe");
  pid_t pid = fork();
  if (pid < 0) return ErrnoStatus(errno, "fork");
  if (pid == 0) {
    setpgid(0, 0);
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    // Converters get bounded CPU and memory even if the wall-clock kill were late.
    struct rlimit cpu{static_cast<rlim_t>(timeout_ms / 1000 + 2), static_cast<rlim_t>(timeout_ms / 1000 + 3)};
    setrlimit(RLIMIT_CPU, &cpu);
    struct rlimit as{1ULL << 30, 1ULL << 30};
    setrlimit(RLIMIT_AS, &as);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  CaptureResult res;
  size_t written = 0;
  bool in_open = true;
  if (stdin_data.empty()) {
    close(in[1]);
    in_open = false;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      res.timed_out = true;
      break;
    }
    int wait_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count());
    pollfd fds[3];
    int n = 0;
    int out_i = -1, err_i = -1, in_i = -1;
    if (out_open) { fds[n] = {out[0], POLLIN, 0}; out_i = n++; }
    if (err_open) { fds[n] = {err[0], POLLIN, 0}; err_i = n++; }
    if (in_open) { fds[n] = {in[1], POLLOUT, 0}; in_i = n++; }
    int r = poll(fds, static_cast<nfds_t>(n), wait_ms);
    if (r < 0 && errno != EINTR) break;
    if (in_i >= 0 && (fds[in_i].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(in[1], stdin_data.data() + written, stdin_data.size() - written);
      if (w > 0) written += static_cast<size_t>(w);
      if (w < 0 && errno != EAGAIN) written = stdin_data.size();
      if (written >= stdin_data.size()) {
        close(in[1]);
        in_open = false;
      }
    }
    struct Stream {
      int idx, fd;
      std::string* dst;
      bool* open;
    };
    for (Stream s : {Stream{out_i, out[0], &res.out, &out_open}, Stream{err_i, err[0], &res.err, &err_open}}) {
      if (s.idx < 0 || !(fds[s.idx].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(s.fd, buf, sizeof buf);
      if (got <= 0) {
        *s.open = false;
        continue;
      }
      size_t room = s.dst->size() < max_output ? max_output - s.dst->size() : 0;
      if (static_cast<size_t>(got) > room) res.truncated = true;
      s.dst->append(buf, std::min(room, static_cast<size_t>(got)));
    }
  }
  if (in_open) close(in[1]);
  close(out[0]);
  close(err[0]);
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
