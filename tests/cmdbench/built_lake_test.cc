// The CMDBench NBA lake written by `lake build --source cmdbench:` is catalogued by `index build` without
// errors: its tables and graph files each get a dataset record with a title and no per-file error.
#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/built_lake_util.h"
#include "lakeqa/common/build_paths.h"

namespace lakeqa::cmdbench {
namespace {

using catalog::testing::BuildAndCatalogue;

TEST(BuiltLake, CmdbenchIsCataloguedWithoutErrors) {
  std::string root = lakeqa::build_paths::SourceDir() + "/../shared/data/cmdbench-nba";
  if (!std::filesystem::exists(root + "/tables")) GTEST_SKIP() << "shared data not found: " << root;
  BuildAndCatalogue({"cmdbench", root}, 1000);
}

}  // namespace
}  // namespace lakeqa::cmdbench
