# Build speed (CI builds everything with ASan on 2 cores).
#
# Compile through ccache when it is installed (scripts/setup installs it), configured so that a checkout at
# another path (a fresh CI clone, a second worktree) reuses the objects of an earlier build:
# - CCACHE_BASEDIR: absolute paths under the checkout are rewritten to relative ones before hashing;
# - CCACHE_NOHASHDIR: -g builds otherwise hash the working directory (the build folder's absolute path);
# - CCACHE_SLOPPINESS: precompiled headers need pch_defines and time_macros, and include_file_mtime/ctime
#   let an object that uses a header generated moments earlier in the same build (the PCH) be cached.
# The settings travel with the compile command (through env), so they hold whatever ~/.config/ccache says.
# The paths of the checkout itself are kept out of every other object (include/lakeqa/common/build_paths.h).
# -DLAKEQA_CCACHE=OFF, or an explicit CMAKE_<LANG>_COMPILER_LAUNCHER, turns this off.
option(LAKEQA_CCACHE "Compile through ccache when it is installed" ON)
if(LAKEQA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT CMAKE_C_COMPILER_LAUNCHER)
  find_program(LAKEQA_CCACHE_PROGRAM ccache)
  find_program(LAKEQA_ENV_PROGRAM env)
  if(LAKEQA_CCACHE_PROGRAM AND LAKEQA_ENV_PROGRAM)
    set(_lakeqa_launcher ${LAKEQA_ENV_PROGRAM} CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${LAKEQA_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${_lakeqa_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_lakeqa_launcher})
    message(STATUS "Compiling through ${LAKEQA_CCACHE_PROGRAM} (base directory ${PROJECT_SOURCE_DIR})")
  endif()
endif()

# Link with lld when it is there (scripts/setup installs it): the ASan+debug test binaries are large, and
# GNU ld spends most of an incremental or fully cached build linking them.
option(LAKEQA_LLD "Link with lld when it is installed" ON)
if(LAKEQA_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" LAKEQA_HAVE_LLD)
  if(LAKEQA_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
