#include "access_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <set>

#include "lakeqa/common/strings.h"
#include "lakeqa/exec/sandbox.h"

namespace lakeqa::exec {
namespace {

constexpr size_t kMaxOpens = 100000;
constexpr const char* kLakeMount = "/lake";

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Receives the runner's "ready" with up to 4 descriptors; returns them (empty on failure).
std::vector<int> ReceiveFds(int sock) {
  char data[16];
  struct iovec iov {
    data, sizeof data
  };
  alignas(struct cmsghdr) char control[CMSG_SPACE(4 * sizeof(int))];
  struct msghdr msg {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  std::vector<int> fds;
  ssize_t n = ::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  if (n <= 0) return fds;
  for (struct cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      fds.push_back(fd);
    }
  }
  if (std::string_view(data, static_cast<size_t>(n)) != "ready") {
    for (int fd : fds) ::close(fd);
    fds.clear();
  }
  return fds;
}

}  // namespace

bool CanObserveOpens(std::string* why) {
  int fan = ::fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC, O_RDONLY | O_CLOEXEC);
  if (fan < 0) {
    *why =
        std::string("fanotify_init: ") + std::strerror(errno) + " (fanotify mount marks need CAP_SYS_ADMIN)";
    return false;
  }
  ::close(fan);
  return true;
}

AccessWatch::~AccessWatch() {
  if (thread_.joinable()) Finish();
  CloseFd(fan_);
  CloseFd(parent_fd_);
  CloseFd(child_fd_);
  CloseFd(stop_fd_);
}

bool AccessWatch::Init(std::string* why) {
  fan_ = ::fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
                         O_RDONLY | O_LARGEFILE | O_CLOEXEC | O_NONBLOCK);
  if (fan_ < 0) {
    *why =
        std::string("fanotify_init: ") + std::strerror(errno) + " (fanotify mount marks need CAP_SYS_ADMIN)";
    return false;
  }
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
    *why = std::string("socketpair: ") + std::strerror(errno);
    return false;
  }
  parent_fd_ = sv[0];
  child_fd_ = sv[1];
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd_ < 0) {
    *why = std::string("eventfd: ") + std::strerror(errno);
    return false;
  }
  return true;
}

void AccessWatch::Start(int wait_ms) {
  CloseFd(child_fd_);  // the child holds its own copy now
  thread_ = std::thread([this, wait_ms] { Run(wait_ms); });
}

void AccessWatch::Finish() {
  if (!thread_.joinable()) return;
  uint64_t one = 1;
  (void)!::write(stop_fd_, &one, sizeof one);
  thread_.join();
}

void AccessWatch::Run(int wait_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  std::vector<int> fds;
  for (;;) {
    int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
            .count());
    if (left <= 0) {
      note_ = "the sandbox did not report its mounts in time; opens were not observed";
      return;
    }
    struct pollfd p[2] = {{parent_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (::poll(p, 2, left) < 0 && errno != EINTR) return;
    if (p[1].revents != 0) {
      note_ = "the sandbox ended before reporting its mounts; opens were not observed";
      return;
    }
    if (p[0].revents != 0) {
      fds = ReceiveFds(parent_fd_);
      break;
    }
  }
  bool marked = !fds.empty();
  for (int fd : fds) {
    if (::fanotify_mark(fan_, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN, fd, nullptr) != 0) {
      marked = false;
      note_ = std::string("fanotify_mark: ") + std::strerror(errno) + "; opens were not observed";
    }
    ::close(fd);
  }
  if (fds.empty()) note_ = "the sandbox's runner sent no mounts; opens were not observed";
  observed_ = marked;
  // The runner waits for this before running any of the agent's code, observed or not.
  (void)!::send(parent_fd_, "go", 2, MSG_NOSIGNAL);
  if (!marked) return;
  for (;;) {
    struct pollfd p[2] = {{fan_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (::poll(p, 2, -1) < 0 && errno != EINTR) break;
    if (p[0].revents != 0) Drain();
    if (p[1].revents != 0) break;
  }
  Drain();  // events queued by processes that are gone by now
}

void AccessWatch::Drain() {
  alignas(struct fanotify_event_metadata) char buf[64 * 1024];
  for (;;) {
    ssize_t len = ::read(fan_, buf, sizeof buf);
    if (len <= 0) return;
    auto* md = reinterpret_cast<struct fanotify_event_metadata*>(buf);
    for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) {
      if ((md->mask & FAN_Q_OVERFLOW) != 0) overflow_ = true;
      if (md->fd < 0) continue;
      struct stat st {};
      char path[PATH_MAX];
      std::string link = "/proc/self/fd/" + std::to_string(md->fd);
      ssize_t n = ::readlink(link.c_str(), path, sizeof path - 1);
      bool ok = n > 0 && ::fstat(md->fd, &st) == 0;
      ::close(md->fd);
      if (!ok) continue;
      std::string p(path, static_cast<size_t>(n));
      // Paths are as the jail sees them: /sandbox/... and /lake/...
      ObservedOpen o;
      std::string sandbox = std::string(kSandboxAlias) + "/", lake = std::string(kLakeMount) + "/";
      if (StartsWith(p, sandbox)) {
        o.where = "sandbox";
        o.path = p.substr(sandbox.size());
        if (StartsWith(o.path, ".lakeqa/")) continue;  // the runner's own files
      } else if (StartsWith(p, lake)) {
        o.where = "lake";
        o.path = p.substr(lake.size());
      } else {
        continue;
      }
      o.dev = static_cast<uint64_t>(st.st_dev);
      o.ino = static_cast<uint64_t>(st.st_ino);
      std::lock_guard lock(mu_);
      if (opens_.size() < kMaxOpens) opens_.push_back(std::move(o));
      else overflow_ = true;
    }
  }
}

std::vector<ObservedOpen> AccessWatch::TakeOpens() {
  std::lock_guard lock(mu_);
  std::vector<ObservedOpen> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (auto& o : opens_)
    if (seen.insert({o.where, o.path}).second) out.push_back(std::move(o));
  opens_.clear();
  if (overflow_) note_ = "more opens than could be recorded; the list is incomplete";
  return out;
}

}  // namespace lakeqa::exec
