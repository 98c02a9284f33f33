#include "lakeqa/common/cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace lakeqa {
namespace {

struct Registry {
  std::mutex mu;
  std::set<std::string> paths;
  std::vector<std::function<void()>> hooks;
  pid_t owner = 0;  // a forked child that exits must not remove its parent's folders
};

Registry& Reg() {
  static Registry* r = new Registry();  // never destroyed: atexit handlers may run after statics die
  return *r;
}

int g_signal_pipe[2] = {-1, -1};

void RemoveAtExit() {
  if (Reg().owner == ::getpid()) RemoveTempPaths();
}

extern "C" void OnTerminationSignal(int sig) {
  unsigned char b = static_cast<unsigned char>(sig);
  (void)!::write(g_signal_pipe[1], &b, 1);
}

}  // namespace

void RegisterTempPath(const std::string& path) {
  Registry& r = Reg();
  std::lock_guard lock(r.mu);
  if (r.owner == 0) {
    r.owner = ::getpid();
    std::atexit(RemoveAtExit);
  }
  r.paths.insert(path);
}

void ForgetTempPath(const std::string& path) {
  Registry& r = Reg();
  std::lock_guard lock(r.mu);
  r.paths.erase(path);
}

void AddTerminationHook(std::function<void()> fn) {
  Registry& r = Reg();
  std::lock_guard lock(r.mu);
  r.hooks.push_back(std::move(fn));
}

void RemoveTempPaths() {
  std::set<std::string> paths;
  {
    Registry& r = Reg();
    std::lock_guard lock(r.mu);
    paths.swap(r.paths);
  }
  for (const auto& p : paths) {
    std::error_code ec;
    std::filesystem::remove_all(p, ec);
  }
}

void CleanUpForTermination() {
  std::vector<std::function<void()>> hooks;
  {
    Registry& r = Reg();
    std::lock_guard lock(r.mu);
    hooks = r.hooks;
  }
  for (auto& h : hooks) h();
  RemoveTempPaths();
}

void InstallSignalCleanup() {
  if (g_signal_pipe[0] >= 0 || ::pipe2(g_signal_pipe, O_CLOEXEC) != 0) return;
  // The watcher blocks the signals itself, so that a verb blocking them in every other thread to
  // sigwait (serve) still receives them.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  std::thread([] {
    unsigned char sig = 0;
    while (::read(g_signal_pipe[0], &sig, 1) != 1) {
    }
    CleanUpForTermination();
    ::signal(sig, SIG_DFL);
    ::kill(::getpid(), sig);  // delivered to a thread that does not block it: the default action ends us
  }).detach();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  struct sigaction sa {};
  sa.sa_handler = OnTerminationSignal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGHUP, &sa, nullptr);  // a closed terminal ends the process as well
}

}  // namespace lakeqa
