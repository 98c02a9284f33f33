#include "cmdbench/routing_text.h"

#include <cctype>

#include "lakeqa/common/words.h"

namespace lakeqa::cmdbench::internal {

std::string PlainQuery(std::string question) {
  for (char& c : question) {
    if (c == ':' || c == '"' || c == '*' || c == '(' || c == ')') c = ' ';
  }
  return question;
}

std::string SplitSchemaName(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i] == '_' ? ' ' : name[i];
    if (i > 0 && std::isupper(static_cast<unsigned char>(c)) &&
        std::islower(static_cast<unsigned char>(name[i - 1])))
      out += ' ';
    out += c;
  }
  return out;
}

std::string JoinWords(const std::vector<std::string>& words, size_t from, size_t n) {
  std::string out;
  for (size_t i = from; i < from + n; ++i) out += (i > from ? " " : "") + words[i];
  return out;
}

std::string LowerWordText(std::string_view text) {
  std::vector<std::string> w = LowerWords(text);
  return JoinWords(w, 0, w.size());
}

}  // namespace lakeqa::cmdbench::internal
