#include "lakeqa/common/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <memory>

namespace lakeqa {

LogLevel ParseLogLevel(std::string_view name, LogLevel fallback) {
  if (name == "trace") return LogLevel::kTrace;
  if (name == "debug") return LogLevel::kDebug;
  if (name == "info") return LogLevel::kInfo;
  if (name == "warn" || name == "warning") return LogLevel::kWarn;
  if (name == "error") return LogLevel::kError;
  if (name == "off") return LogLevel::kOff;
  return fallback;
}

void SetLogLevel(LogLevel level) {
  static constexpr spdlog::level::level_enum kMap[] = {spdlog::level::trace, spdlog::level::debug,
                                                       spdlog::level::info,  spdlog::level::warn,
                                                       spdlog::level::err,   spdlog::level::off};
  spdlog::set_level(kMap[static_cast<int>(level)]);
}

void InitLogging(LogLevel fallback) {
  static bool once = [] {
    auto logger = spdlog::stderr_color_mt("lakeqa");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    return true;
  }();
  (void)once;
  const char* env = std::getenv("LAKEQA_LOG");
  SetLogLevel(env ? ParseLogLevel(env, fallback) : fallback);
}

}  // namespace lakeqa
