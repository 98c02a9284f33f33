// Which sandbox files DuckDB can read, decided from their first bytes rather than their names (lake files are
// often called rows.txt (CSV) or data.txt (GeoJSON)) by the one content sniffer, lakeqa/common/sniff.h, so a
// file the catalog calls CSV is CSV here too. One difference, on purpose: text that DuckDB reads as one
// column gets a view even where the catalog calls it text (lakeqa::IsSingleColumnText says why).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lakeqa::exec {

enum class DataFormat { kNone, kCsv, kJson, kGeoJson, kParquet };

struct Sniffed {
  DataFormat format = DataFormat::kNone;
  std::string reason;  // why kNone: "empty", "HTML", "PDF", "binary", "prose", "unreadable: ..."
};

std::string_view FormatName(DataFormat f);
// Looks at up to the first 64 KiB of head (the caller reads it); name_hint: the file's name.
Sniffed SniffContent(std::string_view head, std::string_view name_hint = {});
Sniffed SniffFile(const std::string& path);
// The same for an open descriptor (read with pread from offset 0); non-regular files are refused.
Sniffed SniffFd(int fd, std::string_view name_hint);

// SQL view names for files given by sandbox-relative paths: the file stem, lower-cased and reduced to
// [a-z0-9_], widened with parent folder names until unique, then numbered. Never returns `reserved`.
std::vector<std::string> AssignViewNames(const std::vector<std::string>& rel_paths,
                                         const std::vector<std::string>& reserved);

}  // namespace lakeqa::exec
