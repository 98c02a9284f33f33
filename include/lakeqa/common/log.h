// Logging to stderr through spdlog, so stdout stays clean for results and --json output.
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

namespace lakeqa {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError, kOff };

// Sets the process-wide level; also honours LAKEQA_LOG=trace|debug|info|warn|error|off when called
// with fromEnv=true and the variable is set.
void SetLogLevel(LogLevel level);
void InitLogging(LogLevel fallback = LogLevel::kWarn);
LogLevel ParseLogLevel(std::string_view name, LogLevel fallback);

}  // namespace lakeqa

#define LAKEQA_LOG_DEBUG(...) SPDLOG_DEBUG(__VA_ARGS__)
#define LAKEQA_LOG_INFO(...) spdlog::info(__VA_ARGS__)
#define LAKEQA_LOG_WARN(...) spdlog::warn(__VA_ARGS__)
#define LAKEQA_LOG_ERROR(...) spdlog::error(__VA_ARGS__)
