// Helpers shared by the eval tests: locating ../shared/data and the cl100k ranks file
// (tests/text/cl100k_util.h).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "text/cl100k_util.h"

namespace lakeqa::eval::testing {

inline std::string SharedData() {
  if (const char* d = std::getenv("LAKEQA_SHARED_DATA"); d != nullptr && *d) return d;
  return lakeqa::build_paths::SourceDir() + "/../shared/data";
}

using text::testing::DepsDir;
using text::testing::RanksPath;
using text::testing::SharedTokenizer;

}  // namespace lakeqa::eval::testing
