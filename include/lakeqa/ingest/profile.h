// The file profiler: what a file is (by content, not extension: in LakeQA `rows.txt` is CSV and
// `data.txt` is often GeoJSON) and what it holds (columns, types, row count, sampled values, JSON key
// paths, a text sample). Streaming: bytes are fed in chunks and memory stays bounded whatever the size.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/sniff.h"
#include "lakeqa/common/status.h"

namespace lakeqa::lake {
class Store;
}

namespace lakeqa::ingest {

// Formats are the content sniffer's (lakeqa/common/sniff.h), under the names this module always used.
using Format = FileFormat;
using ::lakeqa::FormatFromName;
using ::lakeqa::FormatName;
using ::lakeqa::SniffFormat;

struct ColumnProfile {
  std::string name;
  // "integer", "float", "boolean", "date", "datetime", "string", "empty" — the narrowest type that
  // fits every non-empty value seen.
  std::string type = "empty";
  uint64_t non_empty = 0;
  std::vector<std::string> samples;  // distinct values, first seen first, bounded count and length
};

struct FileProfile {
  Format format = Format::kUnknown;
  std::string encoding;  // "utf-8", "utf-8-bom", "utf-16le", "latin-1", "binary"
  char delimiter = 0;    // for kCsv
  bool has_header = false;
  std::vector<ColumnProfile> columns;
  uint64_t rows = 0;       // data rows (CSV), records (JSONL), features (GeoJSON), array items (JSON)
  bool rows_exact = true;  // false when only a prefix was read (head mode or a byte cap)
  std::vector<std::string> json_paths;             // distinct key paths, e.g. "features[].properties.NAME"
  std::map<std::string, uint64_t> geometry_types;  // GeoJSON: "Point" → features seen
  std::string text_sample;                         // bounded, valid UTF-8: the start of the readable text
  uint64_t bytes_read = 0;
  std::vector<std::string> warnings;  // "ragged rows: 12 rows with 5 fields, header has 6", ...
  // Set when the content is broken for its format (truncated JSON, a corrupt zip or PDF): the catalog
  // records it as the file's error, while the partial profile is still kept.
  std::string corrupt;

  Json ToJson() const;
  static Result<FileProfile> FromJson(const Json& j);
};

struct ProfileOptions {
  size_t max_samples_per_column = 20;
  size_t max_sample_value_bytes = 100;
  size_t max_columns = 512;
  size_t text_sample_bytes = 2000;
  size_t max_json_paths = 256;
  // Stop after this many bytes (head mode reads 64 KiB); the profile then says rows_exact = false.
  uint64_t max_bytes = UINT64_MAX;
};

// Streaming profiler: Feed() chunks in order, then Finish(). Feed returns false when it has all it
// needs (the caller may stop reading). One instance per file; not thread-safe.
class Profiler {
 public:
  Profiler(std::string_view name_hint, ProfileOptions options = {});
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  bool Feed(std::string_view chunk);
  // truncated: the caller stopped before the end of the file (so counts are lower bounds).
  Result<FileProfile> Finish(bool truncated = false);

  // Approximate bytes the profiler holds now (buffers, samples, key paths): bounded by the options,
  // never by the input size. For tests and diagnostics.
  size_t BufferedBytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads a lake object through the store (whole, or its first options.max_bytes) and profiles it.
Result<FileProfile> ProfileObject(lake::Store& store, std::string_view key, const ProfileOptions& options);

// What ProfileHead read: the head itself (for previews) and what the reads cost.
struct HeadRead {
  std::string head;
  uint64_t bytes_read = 0;
  uint64_t requests = 0;
};

// Profiles a lake object of `size` bytes (as listed) from its first options.max_bytes: one ranged read, the
// cost of head mode on S3. A zip-based file (XLSX, DOCX, zip) larger than the head is then read from its end
// as well: the central directory, then the workbook, the start of the shared strings and of the first sheet
// (or the start of a DOCX's text), each one ranged read of at most options.max_bytes, so that a head profile
// still holds the sheet names and the header row. When that second look fails, the head's profile is
// returned with a warning saying why.
Result<FileProfile> ProfileHead(lake::Store& store, std::string_view key, uint64_t size,
                                std::string_view name_hint, const ProfileOptions& options,
                                HeadRead* read = nullptr);

}  // namespace lakeqa::ingest
