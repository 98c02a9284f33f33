#include "lakeqa/eval/run_dir.h"

#include <filesystem>

namespace lakeqa::eval {

std::string RunDir::TracesRelative(int epoch) {
  return epoch <= 1 ? "traces" : "traces/epoch-" + std::to_string(epoch);
}

std::string RunDir::TraceRelative(const std::string& task_id, int epoch) {
  return TracesRelative(epoch) + "/" + TraceFileName(task_id) + ".jsonl";
}

std::string RunDir::Join(const std::string& name) const {
  return (std::filesystem::path(dir_) / name).string();
}

std::string RunDir::ReportTraceScript(size_t index) {
  return std::string(kReportTraces) + "/" + std::to_string(index) + ".js";
}

}  // namespace lakeqa::eval
