// Helpers shared by the eval tests: locating ../shared/data and the cl100k ranks file.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/bpe.h"

namespace lakeqa::eval::testing {

inline std::string SharedData() {
  if (const char* d = std::getenv("LAKEQA_SHARED_DATA"); d != nullptr && *d) return d;
  return lakeqa::build_paths::SourceDir() + "/../shared/data";
}

inline std::string DepsDir() {
  if (const char* d = std::getenv("LAKEQA_DEPS_DIR"); d != nullptr && *d) return d;
  return lakeqa::build_paths::SourceDir() + "/.deps";
}

inline std::string RanksPath() { return DepsDir() + "/gpt-tokenizer/data/cl100k_base.tiktoken"; }

// Loaded once per test binary: the ranks file is 1.6 MB and takes ~50 ms to index.
inline const Cl100kTokenizer* SharedTokenizer() {
  static const Cl100kTokenizer* tok = [] () -> const Cl100kTokenizer* {
    auto r = Cl100kTokenizer::Load(RanksPath());
    return r.ok() ? new Cl100kTokenizer(std::move(*r)) : nullptr;
  }();
  return tok;
}

}  // namespace lakeqa::eval::testing
