# Third-party dependencies: Debian packages found through CMake configs or pkg-config, and DuckDB's
# library and headers unpacked from the npm registry into .deps/ by scripts/setup.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(CURL REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(BZip2 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(simdjson CONFIG REQUIRED)
find_package(LibArchive REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark QUIET)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)

pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(UTF8PROC REQUIRED IMPORTED_TARGET libutf8proc)
pkg_check_modules(GUMBO REQUIRED IMPORTED_TARGET gumbo)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc icu-i18n)

# libstemmer ships no pkg-config file on Debian.
find_path(STEMMER_INCLUDE_DIR libstemmer.h REQUIRED)
find_library(STEMMER_LIBRARY stemmer REQUIRED)
add_library(lakeqa_dep_stemmer INTERFACE)
target_include_directories(lakeqa_dep_stemmer SYSTEM INTERFACE ${STEMMER_INCLUDE_DIR})
target_link_libraries(lakeqa_dep_stemmer INTERFACE ${STEMMER_LIBRARY})

set(LAKEQA_DEPS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/.deps CACHE PATH "Where scripts/setup unpacks npm artifacts")
if(EXISTS ${LAKEQA_DEPS_DIR}/duckdb-lib/libduckdb.so AND EXISTS ${LAKEQA_DEPS_DIR}/duckdb-include/duckdb.h)
  add_library(lakeqa_dep_duckdb SHARED IMPORTED GLOBAL)
  set_target_properties(lakeqa_dep_duckdb PROPERTIES
    IMPORTED_LOCATION ${LAKEQA_DEPS_DIR}/duckdb-lib/libduckdb.so
    INTERFACE_INCLUDE_DIRECTORIES ${LAKEQA_DEPS_DIR}/duckdb-include)
  set(LAKEQA_HAVE_DUCKDB ON)
else()
  message(STATUS "DuckDB not found in ${LAKEQA_DEPS_DIR}: run scripts/setup")
  set(LAKEQA_HAVE_DUCKDB OFF)
endif()
