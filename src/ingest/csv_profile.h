// Delimited text: dialect detection on the head, then a streaming RFC 4180 scanner that carries its state
// across chunk boundaries (quotes, doubled quotes, CRLF, newlines inside quotes) and keeps memory bounded:
// a field longer than the cap is kept only as its prefix, so a 5 GB single-line file costs kilobytes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/value_type.h"
#include "lakeqa/ingest/profile.h"

namespace lakeqa::ingest {

struct CsvDialect {
  char delimiter = ',';
  bool has_header = true;
  size_t columns = 0;      // modal field count in the head
  double consistency = 0;  // share of sampled records with the modal count
};

// Best dialect for the head, or nullopt when no delimiter gives a consistent table of ≥ 2 columns: the
// sniffer's CsvShape (lakeqa/common/sniff.h) plus the header test.
std::optional<CsvDialect> DetectCsvDialect(std::string_view head);
// SniffFormat that also hands back the dialect it found for CSV, so the head is analysed once.
Format SniffFormatAndDialect(std::string_view head, std::string_view name_hint,
                             std::optional<CsvDialect>* dialect);

class CsvProfiler {
 public:
  CsvProfiler(const CsvDialect& dialect, const ProfileOptions& options);
  void Feed(std::string_view chunk);
  void Finish(FileProfile& out);
  size_t BufferedBytes() const;

 private:
  void EndField();
  void EndRecord();
  // First byte in [p, end) that is a delimiter, quote or line break.
  const char* ScanPlain(const char* p, const char* end) const;

  CsvDialect dialect_;
  ProfileOptions options_;
  unsigned char cls_[256];  // 0 plain, 1 delimiter, 2 quote, 3 '\n', 4 '\r'
  bool in_quotes_ = false;
  bool quote_pending_ = false;  // saw '"' inside quotes: either "" (escaped) or the closing quote
  bool after_cr_ = false;
  bool field_started_ = false;
  std::string field_;
  bool field_truncated_ = false;
  size_t field_index_ = 0;
  std::vector<std::string> first_record_;
  bool header_done_ = false;
  std::vector<ColumnAccumulator> columns_;
  uint64_t records_ = 0;
  uint64_t ragged_ = 0;
  uint64_t long_fields_ = 0;
  size_t max_fields_seen_ = 0;
  size_t header_fields_ = 0;  // fields in the first record (the column count rows are held to)
};

}  // namespace lakeqa::ingest
