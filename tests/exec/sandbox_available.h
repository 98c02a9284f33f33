// Whether the Python sandbox works on this machine, checked once per test binary; tests that need it
// skip with this status's message when it does not.
#pragma once

#include "lakeqa/exec/python.h"

namespace lakeqa::exec {

inline const Status& SandboxAvailable() {
  static const Status st = CheckPythonSandbox();
  return st;
}

}  // namespace lakeqa::exec
