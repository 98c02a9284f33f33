// Byte-level helpers for segment files: little-endian integers, LEB128 varints, a buffered file writer
// that checksums what it writes, and a read-only memory map that validates a file's frame.
//
// Every segment file is framed the same way (docs/index-format.md):
//   header  8-byte magic ("LQXTDI01", ...)
//   body    ...
//   footer  u64 body_end (= header + body bytes), u32 crc32 of header+body, u32 0x464E4458 ("XDNF")
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "lakeqa/common/status.h"

namespace lakeqa::index {

constexpr size_t kMagicSize = 8;
constexpr size_t kFooterSize = 16;
constexpr uint32_t kFooterMagic = 0x464E4458;

inline void PutU32(std::string& out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);  // the format is little-endian; so are the machines lakeqa targets
  out.append(b, 4);
}
inline void PutU64(std::string& out, uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}
inline uint32_t GetU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t GetU64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void PutVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
// Decodes a varint at p (p < end); returns nullptr on overrun or an over-long encoding.
inline const uint8_t* GetVarint(const uint8_t* p, const uint8_t* end, uint64_t* v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    uint8_t b = *p++;
    r |= static_cast<uint64_t>(b & 0x7F) << shift;
    if (b < 0x80) {
      *v = r;
      return p;
    }
  }
  return nullptr;
}
inline const uint8_t* GetVarint32(const uint8_t* p, const uint8_t* end, uint32_t* v) {
  uint64_t x = 0;
  p = GetVarint(p, end, &x);
  if (p == nullptr || x > UINT32_MAX) return nullptr;
  *v = static_cast<uint32_t>(x);
  return p;
}

// Writes a framed file: magic first, footer on Finish, fsync before close. Nothing is visible to
// readers until the manifest names it.
class FileWriter {
 public:
  FileWriter() = default;
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  Status Open(const std::string& path, std::string_view magic);
  Status Write(std::string_view data);
  uint64_t offset() const { return written_ + buf_.size(); }
  Status Finish();  // footer, flush, fsync, close
  const std::string& path() const { return path_; }

 private:
  Status Flush();
  std::string path_;
  int fd_ = -1;
  std::string buf_;
  uint64_t written_ = 0;
  uint32_t crc_ = 0;
};

// A validated, read-only mapping of one framed file. body() excludes magic and footer.
class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // kCorrupt naming the file for a short file, wrong magic, bad footer or (verify) bad checksum.
  Status Open(const std::string& path, std::string_view magic, bool verify_checksum);
  const uint8_t* body() const { return data_ + kMagicSize; }
  uint64_t body_size() const { return size_ - kMagicSize - kFooterSize; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  void* map_ = nullptr;
};

// fsync a directory so that renames and new files in it survive a crash.
Status SyncDir(const std::string& dir);

}  // namespace lakeqa::index
