#include "lakeqa/common/words.h"

#include <cctype>

namespace lakeqa {

std::vector<std::string> LowerWords(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c >= 0x80) {
      w += static_cast<char>(std::tolower(c));
    } else if (!w.empty()) {
      out.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

}  // namespace lakeqa
