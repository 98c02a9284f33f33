#include "lakeqa/common/http_header.h"

#include "lakeqa/common/strings.h"

namespace lakeqa {

bool ParseHeaderLine(std::string_view line, std::string& name, std::string_view& value) {
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  name = ToLowerAscii(line.substr(0, colon));
  value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
    value.remove_suffix(1);
  return true;
}

}  // namespace lakeqa
