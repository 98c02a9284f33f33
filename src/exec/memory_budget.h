// The process-wide DuckDB memory budget (SetSqlMemoryBudget in lakeqa/exec/sandbox.h): every statement
// holds its database's memory_limit while it runs, so the sum over all sessions stays under the budget.
#pragma once

#include <chrono>
#include <cstdint>

#include "lakeqa/common/status.h"
#include "lakeqa/exec/sandbox.h"

namespace lakeqa::exec {

class MemoryReservation {
 public:
  MemoryReservation() = default;
  MemoryReservation(MemoryReservation&& o) noexcept : bytes_(o.bytes_) { o.bytes_ = 0; }
  MemoryReservation& operator=(MemoryReservation&&) = delete;
  ~MemoryReservation();
  uint64_t bytes() const { return bytes_; }

 private:
  friend Result<MemoryReservation> ReserveSqlMemory(uint64_t, std::chrono::steady_clock::time_point,
                                                    CancelToken*);
  uint64_t bytes_ = 0;
};

// Waits until `bytes` (at most the whole budget) are free or the deadline passes (resource_exhausted,
// naming the budget) or `cancel` fires (cancelled).
Result<MemoryReservation> ReserveSqlMemory(uint64_t bytes, std::chrono::steady_clock::time_point deadline,
                                           CancelToken* cancel);

}  // namespace lakeqa::exec
