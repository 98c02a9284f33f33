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
// The first half of a batched atomic write (git's core.fsync=batch): writes data to a new temp file
// beside `path` (creating its folder) WITHOUT fsync and returns the temp file's name. The caller makes
// a batch of these durable with SyncFileSystem, then renames each into place (RenameInto), then syncs
// again, so a crash leaves either the old object or the complete new one under the final name.
Result<std::string> WriteTempFileBeside(const std::string& path, std::string_view data);
// rename(2) of a temp file over `path`; the temp file is removed when the rename fails.
Status RenameInto(const std::string& tmp, const std::string& path);
// syncfs(2) on the file system holding `path`: every dirty file and directory on it reaches the disk.
Status SyncFileSystem(const std::string& path);
// mkdir -p
Status MakeDirs(const std::string& path);
bool PathExists(const std::string& path);
// A unique temporary directory under $TMPDIR (or /tmp), removed by the caller (RemoveAll).
Result<std::string> MakeTempDir(std::string_view prefix);
Status RemoveAll(const std::string& path);

}  // namespace lakeqa
