#include "graph/csv.h"

namespace lakeqa::graph {

bool CsvRecords::Next(std::vector<std::string>& fields, uint64_t& line) {
  fields.clear();
  while (pos_ < s_.size() && (s_[pos_] == '\n' || s_[pos_] == '\r')) {
    if (s_[pos_] == '\n') ++line_;
    ++pos_;
  }
  if (pos_ >= s_.size()) return false;
  line = line_;
  std::string cur;
  bool quoted = false;
  while (pos_ < s_.size()) {
    char c = s_[pos_++];
    if (quoted) {
      if (c == '"') {
        if (pos_ < s_.size() && s_[pos_] == '"') {
          cur += '"';
          ++pos_;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line_;
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(cur));
      cur.clear();
    } else if (c == '\n') {
      ++line_;
      break;
    } else if (c != '\r') {
      cur += c;
    }
  }
  fields.push_back(std::move(cur));
  return true;
}

void AppendCsvValue(std::string_view value, std::string& out) {
  if (value.empty()) return;
  out += '"';
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace lakeqa::graph
