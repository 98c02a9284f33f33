// A progress bar on stderr with count, rate and ETA. Quiet when stderr is not a terminal (CI logs,
// pipes) or when disabled, so it never pollutes machine-readable output. Thread-safe: workers call
// Add() concurrently; a redraw happens at most every 100 ms.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace lakeqa {

class ProgressBar {
 public:
  // total = 0 means unknown (shows count and rate only). unit is e.g. "files".
  ProgressBar(std::string label, uint64_t total, std::string unit = "items", bool enabled = true);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void Add(uint64_t n = 1, uint64_t bytes = 0);
  void SetTotal(uint64_t total);
  void Finish();
  uint64_t count() const { return count_.load(); }

  // Rendering is separated from the terminal check so it can be tested.
  static std::string Render(const std::string& label, uint64_t count, uint64_t total, uint64_t bytes,
                            double elapsed_s, const std::string& unit, int width = 30);
  static bool StderrIsTerminal();

 private:
  void MaybeDraw(bool force);

  std::string label_;
  std::string unit_;
  std::atomic<uint64_t> total_;
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> bytes_{0};
  bool enabled_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  std::mutex draw_mu_;
};

// "1.2 MB", "3.4 GB": decimal units, as storage is sold and S3 reports.
std::string HumanBytes(uint64_t bytes);
// "1m05s", "2h03m", "12.3s".
std::string HumanDuration(double seconds);

}  // namespace lakeqa
