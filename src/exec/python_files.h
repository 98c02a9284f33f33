// The Python files that RunPython mounts read-only into the sandbox, embedded at build time from
// src/exec/python (see src/exec/CMakeLists.txt).
#pragma once

#include <string_view>
#include <vector>

namespace lakeqa::exec {

struct EmbeddedFile {
  std::string_view path;  // relative, e.g. "boto3/__init__.py"
  std::string_view content;
};

const std::vector<EmbeddedFile>& SandboxPythonFiles();

}  // namespace lakeqa::exec
