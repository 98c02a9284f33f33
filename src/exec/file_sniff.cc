#include "file_sniff.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>

#include "lakeqa/common/encoding.h"
#include "lakeqa/common/sniff.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::exec {
namespace {

constexpr size_t kHeadBytes = 64 * 1024;

std::string Sanitize(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 && u < 128) {
      out.push_back(static_cast<char>(std::tolower(u)));
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty()) out = "file";
  if (std::isdigit(static_cast<unsigned char>(out[0])) != 0) out = "t_" + out;
  return out;
}

std::vector<std::string> Components(const std::string& rel) {
  std::vector<std::string> parts;
  for (std::string_view p : Split(rel, '/'))
    if (!p.empty()) parts.emplace_back(p);
  if (!parts.empty()) {
    std::string& last = parts.back();
    size_t dot = last.rfind('.');
    if (dot != std::string::npos && dot > 0) last.resize(dot);
  }
  return parts;
}

}  // namespace

std::string_view FormatName(DataFormat f) {
  switch (f) {
    case DataFormat::kCsv: return "csv";
    case DataFormat::kJson: return "json";
    case DataFormat::kGeoJson: return "geojson";
    case DataFormat::kParquet: return "parquet";
    case DataFormat::kNone: break;
  }
  return "none";
}

Sniffed SniffContent(std::string_view head, std::string_view name_hint) {
  // Parquet is binary to the sniffer (nothing to profile) but a table to DuckDB.
  if (IsParquet(head)) return {DataFormat::kParquet, ""};
  // DuckDB's readers take UTF-8 (a byte-order mark is skipped): UTF-16 text would read as garbage.
  Encoding enc = DetectEncoding(head, head.size() < kHeadBytes);
  if (enc == Encoding::kUtf16Le || enc == Encoding::kUtf16Be) return {DataFormat::kNone, "binary or UTF-16"};
  switch (SniffFormat(head, name_hint)) {
    case FileFormat::kCsv: return {DataFormat::kCsv, ""};
    case FileFormat::kJson:
    case FileFormat::kJsonLines: return {DataFormat::kJson, ""};
    case FileFormat::kGeoJson: return {DataFormat::kGeoJson, ""};
    case FileFormat::kEmpty: return {DataFormat::kNone, "empty"};
    case FileFormat::kHtml: return {DataFormat::kNone, "HTML"};
    case FileFormat::kXml: return {DataFormat::kNone, "XML"};
    case FileFormat::kPdf: return {DataFormat::kNone, "PDF"};
    case FileFormat::kZip:
    case FileFormat::kXlsx:
    case FileFormat::kDocx: return {DataFormat::kNone, "zip (xlsx/docx)"};
    case FileFormat::kBinary:
    case FileFormat::kUnknown: return {DataFormat::kNone, "binary or UTF-16"};
    case FileFormat::kText: break;
  }
  if (head.find_first_not_of(" \t\r\n") == std::string_view::npos) return {DataFormat::kNone, "blank"};
  if (IsSingleColumnText(head)) return {DataFormat::kCsv, ""};  // one column: see IsSingleColumnText
  return {DataFormat::kNone, "text without a consistent delimiter"};
}

Sniffed SniffFd(int fd, std::string_view name_hint) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {DataFormat::kNone, std::string("unreadable: ") + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return {DataFormat::kNone, "not a regular file"};
  std::string buf(kHeadBytes, '\0');
  size_t got = 0;
  while (got < buf.size()) {
    ssize_t n = ::pread(fd, buf.data() + got, buf.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  buf.resize(got);
  return SniffContent(buf, name_hint);
}

Sniffed SniffFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (SniffFd then refuses it).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return {DataFormat::kNone, std::string("unreadable: ") + std::strerror(errno)};
  Sniffed s = SniffFd(fd, path.substr(path.rfind('/') + 1));
  ::close(fd);
  return s;
}

std::vector<std::string> AssignViewNames(const std::vector<std::string>& rel_paths,
                                         const std::vector<std::string>& reserved) {
  size_t n = rel_paths.size();
  std::vector<std::vector<std::string>> parts(n);
  std::vector<size_t> width(n, 1);
  for (size_t i = 0; i < n; ++i) parts[i] = Components(rel_paths[i]);
  auto name_of = [&](size_t i) {
    const auto& p = parts[i];
    if (p.empty()) return std::string("file");
    size_t w = std::min(width[i], p.size());
    std::string joined;
    for (size_t k = p.size() - w; k < p.size(); ++k) {
      if (!joined.empty()) joined += '_';
      joined += p[k];
    }
    return Sanitize(joined);
  };
  std::set<std::string> taken_reserved;
  for (const auto& r : reserved) taken_reserved.insert(ToLowerAscii(r));
  // Widen every member of a colliding group until nothing collides or nobody can widen further.
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t i = 0; i < n; ++i) groups[name_of(i)].push_back(i);
    for (auto& [name, members] : groups) {
      if (members.size() < 2 && taken_reserved.count(name) == 0) continue;
      for (size_t i : members) {
        if (width[i] < parts[i].size()) {
          ++width[i];
          changed = true;
        }
      }
    }
  }
  std::vector<std::string> out(n);
  std::set<std::string> used = taken_reserved;
  for (size_t i = 0; i < n; ++i) {
    std::string base = name_of(i);
    std::string name = base;
    for (int k = 2; used.count(name) != 0; ++k) name = base + "_" + std::to_string(k);
    used.insert(name);
    out[i] = name;
  }
  return out;
}

}  // namespace lakeqa::exec
