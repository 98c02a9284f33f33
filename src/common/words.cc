#include "lakeqa/common/words.h"

#include <cctype>

namespace lakeqa {

namespace {

std::vector<std::string> SplitWords(std::string_view s, bool lower) {
  std::vector<std::string> out;
  std::string w;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c >= 0x80) {
      w += static_cast<char>(lower ? std::tolower(c) : c);
    } else if (!w.empty()) {
      out.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

}  // namespace

std::vector<std::string> LowerWords(std::string_view s) { return SplitWords(s, true); }

std::vector<std::string> Words(std::string_view s) { return SplitWords(s, false); }

}  // namespace lakeqa
