// Interrupts a DuckDB connection when a statement outlives its deadline (the `query` tool's time limit,
// also held by the columnar cache's import), or when the caller's cancel flag is set (an MCP client's
// notifications/cancelled), checked every 50 ms.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <duckdb.h>

namespace lakeqa::exec {

class Watchdog {
 public:
  Watchdog(duckdb_connection conn, int timeout_ms, const std::atomic<bool>* cancel = nullptr) : conn_(conn) {
    thread_ = std::thread([this, timeout_ms, cancel] {
      auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
      std::unique_lock lock(mu_);
      while (!done_) {
        if (cancel != nullptr && cancel->load()) {
          cancelled_ = true;
        } else if (std::chrono::steady_clock::now() < deadline) {
          auto slice = std::min<std::chrono::steady_clock::duration>(deadline - std::chrono::steady_clock::now(),
                                                                     std::chrono::milliseconds(50));
          cv_.wait_for(lock, slice);
          continue;
        }
        fired_ = true;
        duckdb_interrupt(conn_);
        break;
      }
    });
  }
  ~Watchdog() { Stop(); }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  // Returns whether the deadline passed.
  bool Stop() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    return fired_;
  }
  // Whether it fired because of the cancel flag (not the deadline).
  bool cancelled() const { return cancelled_; }

 private:
  duckdb_connection conn_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  bool cancelled_ = false;
  std::thread thread_;
};

}  // namespace lakeqa::exec
