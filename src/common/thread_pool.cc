#include "lakeqa/common/thread_pool.h"

namespace lakeqa {

size_t ThreadPool::DefaultThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

ThreadPool::ThreadPool(size_t threads, size_t queue_capacity)
    : capacity_(queue_capacity ? queue_capacity : 4 * (threads ? threads : 1)) {
  if (threads == 0) threads = 1;
  workers_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { Run(); });
}

ThreadPool::~ThreadPool() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return queue_.empty() && active_ == 0; });
    stop_ = true;
  }
  not_empty_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::Submit(std::function<void()> task) {
  std::unique_lock<std::mutex> lock(mu_);
  not_full_.wait(lock, [this] { return queue_.size() < capacity_; });
  queue_.push_back(std::move(task));
  lock.unlock();
  not_empty_.notify_one();
}

void ThreadPool::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return queue_.empty() && active_ == 0; });
}

void ThreadPool::Run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      not_empty_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_ && queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
      ++active_;
    }
    not_full_.notify_one();
    task();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --active_;
      if (queue_.empty() && active_ == 0) idle_.notify_all();
    }
  }
}

void ParallelFor(ThreadPool& pool, size_t n, const std::function<void(size_t)>& fn) {
  for (size_t i = 0; i < n; ++i) pool.Submit([&fn, i] { fn(i); });
  pool.Wait();
}

}  // namespace lakeqa
