// What the two executors (SqlSandbox, RunPython) share: the path under which the agent sees its sandbox,
// cancellation of work in flight, the process-wide DuckDB memory budget, and the report of which
// protections this machine allows (`lakeqa doctor`). docs/sandbox.md describes each protection.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::exec {

// The sandbox as the agent sees it: Python's SANDBOX_DIR and working directory, the paths SQL accepts and
// shows, the paths tool results name. Where the sandbox lives on the host is never shown.
inline constexpr const char* kSandboxAlias = "/sandbox";

// Stops a call in flight from another thread. The caller (the server, on MCP notifications/cancelled or
// a dropped connection) makes one token per call and hands it down; Cancel() kills the call's sandbox
// processes (its cgroup, else its process group) or interrupts its DuckDB statement, and the call
// returns ErrorCode::kCancelled. Thread-safe; Cancel() is idempotent and never blocks on the work.
class CancelToken {
 public:
  void Cancel();
  bool cancelled() const { return cancelled_.load(); }

  // While the Hook lives, Cancel() also runs fn (at once when already cancelled). fn must be quick and
  // thread-safe (a kill, duckdb_interrupt). The Hook's destructor waits for a running fn.
  class Hook {
   public:
    Hook() = default;
    Hook(CancelToken* token, uint64_t id) : token_(token), id_(id) {}
    Hook(Hook&& o) noexcept : token_(o.token_), id_(o.id_) { o.token_ = nullptr; }
    Hook& operator=(Hook&&) = delete;
    Hook(const Hook&) = delete;
    ~Hook();

   private:
    CancelToken* token_ = nullptr;
    uint64_t id_ = 0;
  };
  [[nodiscard]] Hook OnCancel(std::function<void()> fn);

 private:
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  uint64_t next_ = 0;
  std::map<uint64_t, std::function<void()>> hooks_;
};

// The cap on the memory of all DuckDB statements running at once in this process (every session's
// `query` and columnar import): each holds its database's memory_limit from the budget while it runs and
// waits (up to its time limit) when the budget is taken. 0 restores the default, half the machine's memory.
void SetSqlMemoryBudget(uint64_t bytes);
uint64_t SqlMemoryBudget();

// One protection and whether this machine provides it.
struct Protection {
  std::string name;       // e.g. "memory limit for all the sandbox's processes"
  std::string state;      // "on" | "degraded" | "off"
  std::string mechanism;  // what enforces it here, e.g. "cgroup v1 memory.limit_in_bytes"
  std::string detail;     // when not "on": why, what lakeqa does instead, and what to change
  Json ToJson() const;
};

// Every protection of docs/sandbox.md as it works on this machine (probes bwrap, cgroups, openat2,
// fanotify); `lakeqa doctor` prints it.
std::vector<Protection> CheckProtections();

}  // namespace lakeqa::exec
