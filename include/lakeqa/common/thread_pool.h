// A fixed-size thread pool with a bounded queue: Submit() blocks when the queue is full, so a producer
// that walks 40 M objects never queues more than `queue_capacity` tasks in memory.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lakeqa {

class ThreadPool {
 public:
  explicit ThreadPool(size_t threads, size_t queue_capacity = 0);  // 0 capacity = 4 × threads
  ~ThreadPool();                                                   // waits for queued work
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Submit(std::function<void()> task);
  // Blocks until every submitted task has finished.
  void Wait();
  size_t size() const { return workers_.size(); }

  // Sensible default for --jobs: hardware threads, at least 1.
  static size_t DefaultThreads();

 private:
  void Run();

  std::vector<std::thread> workers_;
  std::deque<std::function<void()>> queue_;
  size_t capacity_;
  size_t active_ = 0;
  bool stop_ = false;
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_, idle_;
};

// Runs fn(i) for i in [0, n) on the pool and waits.
void ParallelFor(ThreadPool& pool, size_t n, const std::function<void(size_t)>& fn);

}  // namespace lakeqa
