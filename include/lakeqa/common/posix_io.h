// The loops every raw-descriptor reader and writer needs, and a sorted folder listing. Apart from fs.h so
// that a change here rebuilds only the files that use descriptors directly.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa {

// write(2) until all of data is written, again after EINTR; false with errno set on a failure.
bool WriteFully(int fd, std::string_view data);
// read(2) / pread(2), again after EINTR: the bytes read, 0 at the end, -1 with errno set on a failure.
ssize_t ReadRetrying(int fd, void* buf, size_t n);
ssize_t PreadRetrying(int fd, void* buf, size_t n, uint64_t offset);
// The error path of a descriptor: closes fd and returns the failure errno held before, naming path.
Status CloseAfterError(int fd, const std::string& path);

// The names in a folder, sorted bytewise, without "." and "..".
Result<std::vector<std::string>> ListDirSorted(const std::string& path);

}  // namespace lakeqa
