#include "lakeqa/common/csv.h"

namespace lakeqa {

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

std::vector<std::string> CsvFirstRecord(std::string_view text) {
  CsvRecords r(text);
  std::vector<std::string> fields;
  uint64_t line = 0;
  r.Next(fields, line);
  return fields;
}

void AppendCsvField(std::string_view field, std::string& out, CsvQuote quote) {
  if (field.empty()) return;
  bool needed = quote == CsvQuote::kNonEmpty || field.find_first_of(",\"\r\n") != std::string_view::npos ||
                field.front() == ' ' || field.back() == ' ';
  if (!needed) {
    out.append(field);
    return;
  }
  out += '"';
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace lakeqa
