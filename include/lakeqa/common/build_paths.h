// Where this build came from: the checkout, the build directory and the .deps folder, fixed when CMake
// configures. They live in one generated translation unit (build/<preset>/generated/build_paths.cc) rather
// than in compile definitions, so that no other object embeds an absolute path and ccache can reuse every
// other object between checkouts at different paths (cmake/FastBuild.cmake).
#pragma once

#include <string>

namespace lakeqa::build_paths {

const std::string& SourceDir();  // the checkout lakeqa was configured from
const std::string& BinaryDir();  // its build directory (where the `lakeqa` binary is written)
const std::string& DepsDir();    // LAKEQA_DEPS_DIR: what scripts/setup unpacked (.deps/)

}  // namespace lakeqa::build_paths
