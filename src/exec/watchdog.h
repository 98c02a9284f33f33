// Interrupts a DuckDB connection when a statement outlives its deadline (the `query` tool's time limit,
// also held by the columnar cache's import).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <duckdb.h>

namespace lakeqa::exec {

class Watchdog {
 public:
  Watchdog(duckdb_connection conn, int timeout_ms) : conn_(conn) {
    thread_ = std::thread([this, timeout_ms] {
      std::unique_lock lock(mu_);
      if (!cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return done_; })) {
        fired_ = true;
        duckdb_interrupt(conn_);
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

 private:
  duckdb_connection conn_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  std::thread thread_;
};

}  // namespace lakeqa::exec
