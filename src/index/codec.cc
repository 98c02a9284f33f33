#include "index/codec.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>

#include "lakeqa/common/posix_io.h"

namespace lakeqa::index {
namespace {
constexpr size_t kFlushAt = 1 << 20;

uint32_t Crc(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const Bytef*>(data);
  while (n > 0) {  // zlib takes uInt lengths
    uInt chunk = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    crc = static_cast<uint32_t>(crc32(crc, p, chunk));
    p += chunk;
    n -= chunk;
  }
  return crc;
}
}  // namespace

FileWriter::~FileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status FileWriter::Open(const std::string& path, std::string_view magic) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return ErrnoStatus(errno, path);
  crc_ = static_cast<uint32_t>(crc32(0, nullptr, 0));
  return Write(magic);
}

Status FileWriter::Write(std::string_view data) {
  buf_.append(data);
  if (buf_.size() >= kFlushAt) return Flush();
  return Status::Ok();
}

Status FileWriter::Flush() {
  crc_ = Crc(crc_, buf_.data(), buf_.size());
  if (!WriteFully(fd_, buf_)) return ErrnoStatus(errno, "writing " + path_);
  written_ += buf_.size();
  buf_.clear();
  return Status::Ok();
}

Status FileWriter::Finish() {
  LAKEQA_RETURN_IF_ERROR(Flush());
  std::string footer;
  PutU64(footer, written_);
  PutU32(footer, crc_);
  PutU32(footer, kFooterMagic);
  if (!WriteFully(fd_, footer)) return ErrnoStatus(errno, "writing " + path_);
  if (::fsync(fd_) != 0) return ErrnoStatus(errno, "fsync " + path_);
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return ErrnoStatus(errno, "closing " + path_);
  return Status::Ok();
}

MappedFile::~MappedFile() {
  if (map_ != nullptr) ::munmap(map_, size_);
}

Status MappedFile::Open(const std::string& path, std::string_view magic, bool verify_checksum) {
  path_ = path;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    Status st = ErrnoStatus(errno, path);
    // A segment file the manifest names but that is missing means the index is damaged.
    return st.code() == ErrorCode::kNotFound ? Corrupt(path + ": missing segment file") : st;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) return CloseAfterError(fd, path);
  size_ = static_cast<uint64_t>(st.st_size);
  if (size_ < kMagicSize + kFooterSize) {
    ::close(fd);
    return Corrupt(path + ": truncated (" + std::to_string(size_) + " bytes)");
  }
  void* m = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
  int e = errno;
  ::close(fd);
  if (m == MAP_FAILED) return ErrnoStatus(e, "mmap " + path);
  map_ = m;
  data_ = static_cast<const uint8_t*>(m);
  if (std::memcmp(data_, magic.data(), kMagicSize) != 0) return Corrupt(path + ": bad magic");
  const uint8_t* footer = data_ + size_ - kFooterSize;
  if (GetU32(footer + 12) != kFooterMagic || GetU64(footer) != size_ - kFooterSize)
    return Corrupt(path + ": bad footer (truncated or not a segment file)");
  if (verify_checksum) {
    uint32_t crc = Crc(static_cast<uint32_t>(crc32(0, nullptr, 0)), data_, size_ - kFooterSize);
    if (crc != GetU32(footer + 8)) return Corrupt(path + ": checksum mismatch");
  }
  return Status::Ok();
}

Status SyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, dir);
  int rc = ::fsync(fd);
  int e = errno;
  ::close(fd);
  if (rc != 0) return ErrnoStatus(e, "fsync " + dir);
  return Status::Ok();
}

}  // namespace lakeqa::index
