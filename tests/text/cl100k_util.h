// Helpers shared by the tests that need the cl100k ranks file (tests/text, tests/eval): where scripts/setup
// put it, and one tokenizer loaded per test binary.
#pragma once

#include <cstdlib>
#include <string>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/text/tokenizer_cl100k.h"

namespace lakeqa::text::testing {

inline std::string DepsDir() {
  if (const char* d = std::getenv("LAKEQA_DEPS_DIR"); d != nullptr && *d) return d;
  return lakeqa::build_paths::SourceDir() + "/.deps";
}

inline std::string RanksPath() { return DepsDir() + "/gpt-tokenizer/data/cl100k_base.tiktoken"; }

// Loaded once per test binary: the ranks file is 1.6 MB and takes ~50 ms to index.
inline const Cl100kTokenizer* SharedTokenizer() {
  static const Cl100kTokenizer* tok = []() -> const Cl100kTokenizer* {
    auto r = Cl100kTokenizer::Load(RanksPath());
    return r.ok() ? new Cl100kTokenizer(std::move(*r)) : nullptr;
  }();
  return tok;
}

}  // namespace lakeqa::text::testing
