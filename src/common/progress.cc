#include "lakeqa/common/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace lakeqa {

std::string HumanBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000.0 && u < 5) {
    v /= 1000.0;
    ++u;
  }
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, kUnits[u]);
}

std::string HumanDuration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  if (s < 60) return fmt::format("{:.1f}s", s);
  auto total = static_cast<uint64_t>(s + 0.5);
  if (total < 3600) return fmt::format("{}m{:02}s", total / 60, total % 60);
  return fmt::format("{}h{:02}m", total / 3600, (total % 3600) / 60);
}

bool ProgressBar::StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, uint64_t total, std::string unit, bool enabled)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(enabled && StderrIsTerminal()),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Add(uint64_t n, uint64_t bytes) {
  count_.fetch_add(n, std::memory_order_relaxed);
  if (bytes) bytes_.fetch_add(bytes, std::memory_order_relaxed);
  if (enabled_) MaybeDraw(false);
}

void ProgressBar::SetTotal(uint64_t total) { total_.store(total); }

void ProgressBar::Finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(draw_mu_);
  if (finished_) return;
  finished_ = true;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "\r%s\033[K\n",
               Render(label_, count_.load(), total_.load(), bytes_.load(), elapsed, unit_).c_str());
}

void ProgressBar::MaybeDraw(bool force) {
  auto now = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(draw_mu_, std::try_to_lock);
  if (!lock.owns_lock() || finished_) return;
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r%s\033[K",
               Render(label_, count_.load(), total_.load(), bytes_.load(), elapsed, unit_).c_str());
  std::fflush(stderr);
}

std::string ProgressBar::Render(const std::string& label, uint64_t count, uint64_t total, uint64_t bytes,
                                double elapsed_s, const std::string& unit, int width) {
  double rate = elapsed_s > 0 ? static_cast<double>(count) / elapsed_s : 0.0;
  std::string out = label;
  if (total > 0) {
    double frac = std::min(1.0, static_cast<double>(count) / static_cast<double>(total));
    int filled = static_cast<int>(frac * width);
    out += " [" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
    out += fmt::format(" {}/{} {} ({:.0f}%)", count, total, unit, frac * 100.0);
  } else {
    out += fmt::format(" {} {}", count, unit);
  }
  out += fmt::format(" {:.0f} {}/s", rate, unit);
  if (bytes > 0) {
    out += fmt::format(" {}/s", HumanBytes(static_cast<uint64_t>(elapsed_s > 0 ? bytes / elapsed_s : 0)));
  }
  if (total > 0 && count < total && rate > 0) {
    out += " ETA " + HumanDuration(static_cast<double>(total - count) / rate);
  }
  return out;
}

}  // namespace lakeqa
