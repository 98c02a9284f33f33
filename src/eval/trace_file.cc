#include "lakeqa/eval/trace_file.h"

#include <cctype>

namespace lakeqa::eval {

std::string TraceFileName(const std::string& task_id) {
  std::string out;
  for (char c : task_id)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  if (out.empty() || out[0] == '.') out = "_" + out;
  return out;
}

}  // namespace lakeqa::eval
