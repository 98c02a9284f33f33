#include "file_sniff.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>

#include "lakeqa/common/strings.h"

namespace lakeqa::exec {
namespace {

constexpr size_t kHeadBytes = 64 * 1024;

// Delimiter counts per record, tracking double quotes across lines so quoted newlines do not split a
// record. Only whole records are counted: a cut-off last record would look inconsistent.
bool LooksDelimited(std::string_view text, bool complete) {
  constexpr std::array<char, 4> kDelims = {',', '\t', ';', '|'};
  std::vector<std::array<int, 4>> records;
  std::array<int, 4> cur{};
  bool in_quotes = false;
  bool any = false;
  for (size_t i = 0; i < text.size() && records.size() < 50; ++i) {
    char c = text[i];
    if (c == '"') {
      in_quotes = !in_quotes;
    } else if (!in_quotes && (c == '\n' || c == '\r')) {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any) records.push_back(cur);
      cur = {};
      any = false;
      continue;
    } else if (!in_quotes) {
      for (size_t d = 0; d < kDelims.size(); ++d)
        if (c == kDelims[d]) ++cur[d];
    }
    any = true;
  }
  if (complete && any && !in_quotes) records.push_back(cur);
  if (records.empty()) return false;
  // A single-column table has no delimiter: accept short lines that look like values, not prose.
  size_t max_len = 0;
  for (std::string_view line : Split(text.substr(0, std::min<size_t>(text.size(), 4096)), '\n'))
    max_len = std::max(max_len, Trim(line).size());
  bool no_delims = true;
  for (const auto& r : records)
    for (int c : r) no_delims = no_delims && c == 0;
  if (no_delims) return records.size() >= 2 && max_len <= 64;
  for (size_t d = 0; d < kDelims.size(); ++d) {
    int header = records[0][d];
    if (header == 0) continue;
    if (records.size() == 1) return true;
    size_t same = 0;
    for (size_t r = 1; r < records.size(); ++r)
      if (records[r][d] == header) ++same;
    if (same * 5 >= (records.size() - 1) * 4) return true;
  }
  return false;
}

bool ContainsCi(std::string_view hay, std::string_view needle) {
  return ToLowerAscii(hay).find(needle) != std::string::npos;
}

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

Sniffed SniffContent(std::string_view head) {
  bool complete = head.size() < kHeadBytes;
  if (head.size() >= 4 && head.substr(0, 4) == "PAR1") return {DataFormat::kParquet, ""};
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  if (head.empty()) return {DataFormat::kNone, "empty"};
  if (head.substr(0, 4) == "%PDF") return {DataFormat::kNone, "PDF"};
  if (head.substr(0, 4) == std::string_view("PK\x03\x04", 4)) return {DataFormat::kNone, "zip (xlsx/docx)"};
  if (head.substr(0, 2) == "\x1f\x8b") return {DataFormat::kNone, "gzip"};
  if (head.find('\0') != std::string_view::npos) return {DataFormat::kNone, "binary or UTF-16"};
  size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {DataFormat::kNone, "blank"};
  char c = head[first];
  if (c == '{' || c == '[') {
    if (head.find("\"FeatureCollection\"") != std::string_view::npos ||
        (head.find("\"features\"") != std::string_view::npos && head.find("\"geometry\"") != std::string_view::npos))
      return {DataFormat::kGeoJson, ""};
    return {DataFormat::kJson, ""};
  }
  if (c == '<') {
    return {DataFormat::kNone, ContainsCi(head.substr(0, 1024), "<html") || ContainsCi(head.substr(0, 1024), "<!doctype html")
                                   ? "HTML"
                                   : "XML"};
  }
  if (LooksDelimited(head, complete)) return {DataFormat::kCsv, ""};
  return {DataFormat::kNone, "text without a consistent delimiter"};
}

Sniffed SniffFd(int fd) {
  struct stat st{};
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
  return SniffContent(buf);
}

Sniffed SniffFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (SniffFd then refuses it).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return {DataFormat::kNone, std::string("unreadable: ") + std::strerror(errno)};
  Sniffed s = SniffFd(fd);
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
