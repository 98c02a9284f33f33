// Runs a helper program (pdftotext) on bytes with a wall-time limit and an output cap, without a shell.
// The child gets its own process group, which is killed whole on timeout.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::ingest {

struct CaptureResult {
  std::string out;
  std::string err;
  int exit_code = -1;
  bool timed_out = false;
  bool truncated = false;
};

Result<CaptureResult> RunCapture(const std::vector<std::string>& argv, std::string_view stdin_data,
                                 int timeout_ms, size_t max_output);

}  // namespace lakeqa::ingest
