#include "lakeqa/text/normalize.h"

#include <utf8proc.h>

#include <cstdlib>

namespace lakeqa::text {
namespace {

// Accents are only decoration in Latin, Greek and Cyrillic text; in other scripts (the Japanese voicing
// mark in デ, Indic vowel signs) marks change the word, so they stay.
bool LatinGreekCyrillic(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // Lead bytes up to 0xD4 encode code points below U+0530; combining marks (U+0300..U+036F) included.
    if (c >= 0xD5) return false;
  }
  return true;
}

}  // namespace

void FoldAppend(std::string_view in, bool strip_accents, std::string& out) {
  bool ascii = true;
  for (unsigned char c : in) {
    if (c >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    for (unsigned char c : in) out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
    return;
  }
  int flags = UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD | UTF8PROC_IGNORE;
  if (strip_accents && LatinGreekCyrillic(in)) flags |= UTF8PROC_STRIPMARK;
  utf8proc_uint8_t* mapped = nullptr;
  utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(in.data()),
                   static_cast<utf8proc_ssize_t>(in.size()), &mapped, static_cast<utf8proc_option_t>(flags));
  if (n >= 0) {
    out.append(reinterpret_cast<const char*>(mapped), static_cast<size_t>(n));
    std::free(mapped);
    return;
  }
  // Invalid UTF-8: fold the valid code points one at a time and drop the bad bytes.
  std::free(mapped);
  size_t i = 0;
  while (i < in.size()) {
    utf8proc_int32_t cp = -1;
    utf8proc_ssize_t len = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(in.data() + i),
                                            static_cast<utf8proc_ssize_t>(in.size() - i), &cp);
    if (len <= 0 || cp < 0) {
      ++i;
      continue;
    }
    FoldAppend(in.substr(i, static_cast<size_t>(len)), strip_accents, out);
    i += static_cast<size_t>(len);
  }
}

std::string FoldKeyword(std::string_view in) {
  std::string folded;
  FoldAppend(in, /*strip_accents=*/false, folded);
  std::string out;
  out.reserve(folded.size());
  bool space = false;
  for (char c : folded) {
    bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    if (ws) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace lakeqa::text
