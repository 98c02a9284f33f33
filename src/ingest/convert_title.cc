// Name ↔ folder mapping (see convert.h and docs/lake-build.md).
#include <cstdint>

#include "lakeqa/common/hex.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::ingest {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";
constexpr size_t kHashSuffixBytes = 2 + 16;  // "%%" + 16 hex digits

bool NeedsEscape(unsigned char c, bool title) {
  return c == '%' || c == '/' || c == '\\' || c < 0x20 || c == 0x7F || (title && c == '_');
}

void AppendEscaped(unsigned char c, std::string& out) {
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

uint64_t Fnv1a64(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// Length of the UTF-8 sequence starting at s[i] (1 for stray bytes), so cuts never split a character.
size_t CharLength(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  return i + n <= s.size() ? n : 1;
}

std::string Encode(std::string_view name, bool title) {
  if (name.empty()) return "%";
  if (name == ".") return "%2E";
  if (name == "..") return "%2E%2E";
  std::string out;
  out.reserve(name.size());
  const size_t budget = kMaxFolderBytes - kHashSuffixBytes;
  for (size_t i = 0; i < name.size();) {
    size_t n = CharLength(name, i);
    std::string piece;
    for (size_t k = 0; k < n; ++k) {
      unsigned char c = static_cast<unsigned char>(name[i + k]);
      if (title && c == ' ') {
        piece += '_';
      } else if (NeedsEscape(c, title)) {
        AppendEscaped(c, piece);
      } else {
        piece += static_cast<char>(c);
      }
    }
    if (out.size() + piece.size() > budget) {
      // Only cut when the whole encoding does not fit: finish encoding to know.
      std::string rest = out + piece;
      for (size_t j = i + n; j < name.size() && rest.size() <= kMaxFolderBytes; ++j) {
        unsigned char c = static_cast<unsigned char>(name[j]);
        if (title && c == ' ') {
          rest += '_';
        } else if (NeedsEscape(c, title)) {
          AppendEscaped(c, rest);
        } else {
          rest += static_cast<char>(c);
        }
      }
      if (rest.size() <= kMaxFolderBytes) return rest;
      uint64_t h = Fnv1a64(name);
      out += "%%";
      for (int shift = 60; shift >= 0; shift -= 4) out += kHex[(h >> shift) & 15];
      return out;
    }
    out += piece;
    i += n;
  }
  return out;
}

Result<std::string> Decode(std::string_view folder, bool title) {
  if (folder == "%") return std::string();
  if (IsTruncatedFolder(folder)) {
    return InvalidArgument("folder name '" + std::string(folder) +
                           "' was truncated; the full name is in its metadata.json");
  }
  std::string out;
  out.reserve(folder.size());
  for (size_t i = 0; i < folder.size(); ++i) {
    char c = folder[i];
    if (c == '%') {
      if (i + 2 >= folder.size()) {
        return InvalidArgument("folder name '" + std::string(folder) + "': '%' at byte " + std::to_string(i) +
                               " is not followed by two hex digits");
      }
      int hi = HexDigitValue(folder[i + 1]), lo = HexDigitValue(folder[i + 2]);
      if (hi < 0 || lo < 0) {
        return InvalidArgument("folder name '" + std::string(folder) + "': bad escape at byte " +
                               std::to_string(i));
      }
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (title && c == '_') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

bool IsTruncatedFolder(std::string_view folder) {
  size_t p = folder.rfind("%%");
  if (p == std::string_view::npos || folder.size() - p != kHashSuffixBytes) return false;
  for (size_t i = p + 2; i < folder.size(); ++i) {
    if (HexDigitValue(folder[i]) < 0) return false;
  }
  return true;
}

std::string NameToFolder(std::string_view name) { return Encode(name, false); }
Result<std::string> FolderToName(std::string_view folder) { return Decode(folder, false); }
std::string TitleToFolder(std::string_view title) { return Encode(title, true); }
Result<std::string> FolderToTitle(std::string_view folder) { return Decode(folder, true); }

}  // namespace lakeqa::ingest
