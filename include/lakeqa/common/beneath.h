// Opening a path inside a folder so that the kernel, not a check made beforehand, keeps the open inside
// it: openat2(2) with RESOLVE_BENEATH refuses "..", absolute paths and symlinks that would leave the folder
// at the moment of the open, so a symlink planted or swapped in by untrusted code cannot redirect it.
// Used by the SQL sandbox (files DuckDB may read) and the local lake store (a lake never leaves its root).
#pragma once

#include <fcntl.h>

#include <string>
#include <string_view>

#include "lakeqa/common/status.h"

namespace lakeqa {

enum class Links {
  kInside,  // symlinks are followed while they stay inside the folder (RESOLVE_BENEATH)
  kNone,    // no symlink anywhere on the path (RESOLVE_NO_SYMLINKS)
};

// openat(dirfd, rel, flags, mode), confined to dirfd's folder. rel is relative ("" or "." = the folder).
// Errors: permission_denied naming `shown` when the path leaves the folder or crosses a refused symlink,
// otherwise the errno of the open. On kernels without openat2 (< 5.6) every component is opened with
// O_NOFOLLOW, so any symlink is refused (fail closed) whatever `links` says.
Result<int> OpenBeneath(int dirfd, std::string_view rel, int flags, mode_t mode, Links links,
                        std::string_view shown);

// Whether this kernel has openat2 (for `lakeqa doctor`).
bool HaveOpenat2();

}  // namespace lakeqa
