// What code in the sandbox really opened, observed by lakeqa through fanotify rather than reported by the
// code (a log the code can write can be forged). The sandbox's runner, before any agent code runs, sends
// lakeqa descriptors of its /sandbox and /lake mounts over a socket; lakeqa marks those two mounts (and only
// those: they exist only inside this jail) for FAN_OPEN and answers "go". Every open through them then
// reaches lakeqa as a kernel event with the file, whatever path, glob or library the code used.
// Needs CAP_SYS_ADMIN (fanotify mount marks); Init() says why when it cannot work.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lakeqa/exec/python.h"

namespace lakeqa::exec {

class AccessWatch {
 public:
  AccessWatch() = default;
  ~AccessWatch();
  AccessWatch(const AccessWatch&) = delete;
  AccessWatch& operator=(const AccessWatch&) = delete;

  // Creates the fanotify group and the socket pair; false (and *why) when this process may not.
  bool Init(std::string* why);
  // The socket end the runner gets (as fd 3, LAKEQA_CONTROL_FD=3).
  int child_fd() const { return child_fd_; }
  // After fork: closes lakeqa's copy of the child's end, then waits (up to wait_ms) for the runner's
  // mounts, marks them, answers "go" and collects events until Finish().
  void Start(int wait_ms);
  // After the sandbox's processes are gone: drains the remaining events and stops.
  void Finish();

  // Valid after Finish().
  bool observed() const { return observed_; }  // the marks were in place before the agent's code ran
  const std::string& note() const { return note_; }
  std::vector<ObservedOpen> TakeOpens();

 private:
  void Run(int wait_ms);
  void Drain();

  int fan_ = -1, parent_fd_ = -1, child_fd_ = -1, stop_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> observed_{false};
  std::string note_;
  std::mutex mu_;
  std::vector<ObservedOpen> opens_;
  bool overflow_ = false;
};

// Whether this process can observe sandbox opens (for `lakeqa doctor`); *why when not.
bool CanObserveOpens(std::string* why);

}  // namespace lakeqa::exec
