// RFC 4180 CSV in memory, the one reader and the one writer of records for every module (the graph's node
// and relation files, the lake builder's converted tables, CMDBench's dumps). Quoted fields may hold
// commas, quotes and newlines; each record carries the 1-based line it starts on, for error messages.
// The profiler's streaming dialect detection (ingest/csv_profile.h) is a different job and stays there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lakeqa {

class CsvRecords {
 public:
  explicit CsvRecords(std::string_view text) : s_(text) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // byte-order mark
  }
  // The next record; false at the end. Blank lines are skipped; a carriage return outside quotes is dropped.
  bool Next(std::vector<std::string>& fields, uint64_t& line);

 private:
  std::string_view s_;
  size_t pos_ = 0;
  uint64_t line_ = 1;
};

// The fields of the first record of `text` (a header); empty when there is none.
std::vector<std::string> CsvFirstRecord(std::string_view text);

enum class CsvQuote {
  kWhenNeeded,  // only fields holding a comma, quote, line end, or a leading or trailing space
  kNonEmpty,    // every non-empty field, so that an empty field reads back as null and "" as text
};

// Appends one field (no separator); an empty field stays empty either way.
void AppendCsvField(std::string_view field, std::string& out, CsvQuote quote = CsvQuote::kWhenNeeded);

}  // namespace lakeqa
