#pragma once

#include <string>

#include "lakeqa/common/fs.h"

namespace lakeqa::index::testing {

struct TempDir {
  std::string path;
  TempDir() { path = *MakeTempDir("lakeqa-index-test-"); }
  ~TempDir() { (void)RemoveAll(path); }
};

}  // namespace lakeqa::index::testing
