// Private to src/graph: RFC 4180 records (quoted fields may hold commas, quotes and newlines), read from
// and written to memory, with the 1-based line each record starts on for error messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lakeqa::graph {

class CsvRecords {
 public:
  explicit CsvRecords(std::string_view text) : s_(text) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // byte-order mark
  }
  // The next record; false at the end. Blank lines are skipped.
  bool Next(std::vector<std::string>& fields, uint64_t& line);

 private:
  std::string_view s_;
  size_t pos_ = 0;
  uint64_t line_ = 1;
};

// Appends one field: empty stays empty (read back as null), anything else is quoted.
void AppendCsvValue(std::string_view value, std::string& out);

}  // namespace lakeqa::graph
