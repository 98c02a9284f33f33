# One static library per module: every .cc under src/<module>/ (recursively), public headers under
# include/lakeqa/<module>/. Tests: every *_test.cc under tests/<module>/ in one executable per module.

# -Wno-restrict: GCC 12 reports false positives in std::string code at -O3 (GCC bug 105329).
# -Wno-maybe-uninitialized: GCC 12 reports them inside libstdc++'s <regex> under the sanitizers (bug 105562).
set(LAKEQA_WARNINGS -Wall -Wextra -Wpedantic -Wno-unused-parameter -Wno-restrict -Wno-maybe-uninitialized)
if(LAKEQA_WERROR)
  list(APPEND LAKEQA_WARNINGS -Werror)
endif()
# Tests only: GCC 12 reports impossible memcpy bounds in std::string operator+ on string literals once inlined
# at -O2/-O3 (bugs 105651, 105329); they broke the release build of the tests, which `make demo` builds.
set(LAKEQA_TEST_WARNINGS ${LAKEQA_WARNINGS} -Wno-stringop-overflow -Wno-array-bounds)

if(LAKEQA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# lakeqa_module(<name> [DEPS <targets>...]). A benchmark's CLI verbs (src/<name>/cli/*.cc) are the
# executable's, not the library's (src/cli/CMakeLists.txt).
function(lakeqa_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cc)
  list(FILTER srcs EXCLUDE REGEX "/src/${name}/cli/")
  add_library(lakeqa_${name} STATIC ${srcs})
  target_include_directories(lakeqa_${name}
    PUBLIC ${PROJECT_SOURCE_DIR}/include
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(lakeqa_${name} PRIVATE ${LAKEQA_WARNINGS})
  target_link_libraries(lakeqa_${name} PUBLIC ${ARG_DEPS})
  add_library(lakeqa::${name} ALIAS lakeqa_${name})
endfunction()

# lakeqa_module_tests(<name> [DEPS <targets>...]): test binary test_<name>, tests registered with CTest.
function(lakeqa_module_tests name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${name}/*.cc)
  if(NOT srcs)
    message(STATUS "tests/${name}: no *_test.cc yet, no test binary")
    return()
  endif()
  add_executable(test_${name} ${srcs})
  target_include_directories(test_${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_compile_options(test_${name} PRIVATE ${LAKEQA_TEST_WARNINGS})
  target_link_libraries(test_${name} PRIVATE lakeqa::${name} ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  # Tests find the checkout through lakeqa::build_paths (no path in their own objects: cmake/FastBuild.cmake)
  # and the CLI through LAKEQA_BIN.
  target_precompile_headers(test_${name} PRIVATE <gtest/gtest.h> <nlohmann/json.hpp> <string> <vector>)
  gtest_discover_tests(test_${name} DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT "LAKEQA_BIN=${PROJECT_BINARY_DIR}/lakeqa")
endfunction()
