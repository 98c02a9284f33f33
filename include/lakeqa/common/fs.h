// Small local-filesystem helpers used across modules. Every write that must survive a crash goes
// through WriteFileAtomic (temp file in the same folder, fsync, rename), so a reader sees the old
// content or the new, never half of one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lakeqa/common/status.h"

namespace lakeqa {

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes = UINT64_MAX);
Status WriteFileAtomic(const std::string& path, std::string_view data);
// mkdir -p
Status MakeDirs(const std::string& path);
bool PathExists(const std::string& path);
// A unique temporary directory under $TMPDIR (or /tmp), removed by the caller (RemoveAll).
Result<std::string> MakeTempDir(std::string_view prefix);
Status RemoveAll(const std::string& path);

}  // namespace lakeqa
