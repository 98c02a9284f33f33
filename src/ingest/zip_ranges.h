// A zip read through ranged reads of a lake object (lake::Store::ReadRange): the central directory from
// the end of the object, then only the entries asked for, each from its local header, inflated up to a
// cap. Head mode uses it so that an XLSX, DOCX or zip larger than the head is still seen inside (sheet
// names, header rows, entry names) for a few small requests instead of a read of the whole file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/ingest/profile.h"

namespace lakeqa::lake {
class Store;
}

namespace lakeqa::ingest {

struct ZipEntry {
  std::string name;
  uint16_t method = 0;  // 0 stored, 8 deflate; others are reported as unsupported
  uint64_t compressed = 0;
  uint64_t uncompressed = 0;
  uint64_t offset = 0;  // of the entry's local header
  uint16_t extra = 0;   // length of the central directory's extra field (the local one is often alike)
};

class RangedZip {
 public:
  // Reads the end-of-central-directory record (ZIP64 too) and the central directory: one ranged read of
  // the object's last 64 KiB, one more when the directory starts before them. A directory larger than
  // max_directory_bytes is refused (resource_exhausted); a missing or inconsistent one is a parse_error.
  static Result<RangedZip> Open(lake::Store& store, std::string_view key, uint64_t size,
                                uint64_t max_directory_bytes = 16u << 20);

  const std::vector<ZipEntry>& entries() const { return entries_; }
  const ZipEntry* Find(std::string_view name) const;

  // The entry's content, inflated: at most max_out bytes from at most max_in compressed bytes (one ranged
  // read, two when the local header's extra field is longer than the directory's). *complete says whether
  // this is the whole entry (false: a prefix, cut at a cap). Deflate data damaged after some output gives
  // what inflated before the damage, with *damage saying what was wrong; damage before any output is an
  // error.
  Result<std::string> Read(const ZipEntry& e, uint64_t max_in, size_t max_out, bool* complete,
                           std::string* damage = nullptr);

  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t requests() const { return requests_; }

 private:
  RangedZip(lake::Store& store, std::string_view key, uint64_t size)
      : store_(&store), key_(key), size_(size) {}
  Result<std::string> Range(uint64_t offset, uint64_t length);

  lake::Store* store_;
  std::string key_;
  uint64_t size_ = 0;
  std::vector<ZipEntry> entries_;
  uint64_t bytes_read_ = 0;
  uint64_t requests_ = 0;
};

// Profiles a zip-based object (XLSX, DOCX, other zip) of `size` bytes through ranged reads: every entry
// name; for an XLSX the sheet names and the first sheet's header row and first rows; for a DOCX the
// start of its text. Reads at most about four times options.max_bytes. The profile says rows_exact only
// when the whole sheet was read. bytes_read and requests of `out` are what the reads cost.
Status ProfileZipByRanges(lake::Store& store, std::string_view key, uint64_t size,
                          const ProfileOptions& options, FileProfile& out, uint64_t* requests);

}  // namespace lakeqa::ingest
