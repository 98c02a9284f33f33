#include "memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace lakeqa::exec {
namespace {

uint64_t DefaultBudget() {
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 4ULL << 30;
  return std::max<uint64_t>(256ULL << 20, static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2);
}

struct Budget {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t total = DefaultBudget();
  uint64_t used = 0;
};

Budget& TheBudget() {
  static Budget b;
  return b;
}

}  // namespace

void SetSqlMemoryBudget(uint64_t bytes) {
  Budget& b = TheBudget();
  {
    std::lock_guard lock(b.mu);
    b.total = bytes == 0 ? DefaultBudget() : bytes;
  }
  b.cv.notify_all();
}

uint64_t SqlMemoryBudget() {
  Budget& b = TheBudget();
  std::lock_guard lock(b.mu);
  return b.total;
}

MemoryReservation::~MemoryReservation() {
  if (bytes_ == 0) return;
  Budget& b = TheBudget();
  {
    std::lock_guard lock(b.mu);
    b.used -= std::min(b.used, bytes_);
  }
  b.cv.notify_all();
}

Result<MemoryReservation> ReserveSqlMemory(uint64_t bytes, std::chrono::steady_clock::time_point deadline,
                                           CancelToken* cancel) {
  Budget& b = TheBudget();
  std::unique_lock lock(b.mu);
  uint64_t want = std::min(bytes, b.total);
  // Cancel() cannot reach this wait directly; poll it at a short interval instead.
  while (b.used + want > b.total) {
    if (cancel != nullptr && cancel->cancelled())
      return Status(ErrorCode::kCancelled, "the query was cancelled");
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline)
      return ResourceExhausted(
          "the server's SQL memory budget (" + std::to_string(b.total >> 20) +
          " MiB for all sessions' queries together) stayed in use by other queries for the "
          "whole time limit; try again");
    b.cv.wait_for(
        lock, std::min<std::chrono::steady_clock::duration>(deadline - now, std::chrono::milliseconds(50)));
    want = std::min(bytes, b.total);
  }
  b.used += want;
  MemoryReservation r;
  r.bytes_ = want;
  return r;
}

}  // namespace lakeqa::exec
