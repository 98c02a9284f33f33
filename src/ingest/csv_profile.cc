#include "ingest/csv_profile.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxFieldBytes = 4096;  // kept per field; longer ones are truncated (and counted)

// The delimiter is the sniffer's (lakeqa/common/sniff.h); whether the first record is a header is decided
// here, from the value types under it.
std::optional<CsvDialect> DialectOf(std::optional<CsvShape> shape) {
  if (!shape) return std::nullopt;
  CsvDialect dialect;
  dialect.delimiter = shape->delimiter;
  dialect.columns = shape->columns;
  dialect.consistency = shape->consistency;
  // Header: the first record's fields are non-empty, non-numeric and distinct, and some column's later
  // values have a type the header cell does not (numbers under a name), or the names are all short.
  const auto& recs = shape->records;
  const auto& first = recs.front();
  bool header = first.size() == shape->columns;
  std::vector<std::string> uniq(first.begin(), first.end());
  std::sort(uniq.begin(), uniq.end());
  header = header && std::adjacent_find(uniq.begin(), uniq.end()) == uniq.end();
  bool typed_below = false;
  for (size_t c = 0; header && c < first.size(); ++c) {
    ValueType t = ClassifyValue(first[c]);
    if (t != ValueType::kString) header = false;
    ValueType below = ValueType::kEmpty;
    for (size_t r = 1; r < recs.size(); ++r) {
      if (c < recs[r].size()) below = WidenType(below, ClassifyValue(recs[r][c]));
    }
    if (below != ValueType::kString && below != ValueType::kEmpty) typed_below = true;
  }
  if (header && !typed_below) {
    // All-string table: a header still if no header cell reappears as a value below it.
    for (size_t c = 0; header && c < first.size(); ++c) {
      for (size_t r = 1; r < recs.size(); ++r) {
        if (c < recs[r].size() && recs[r][c] == first[c]) header = false;
      }
    }
  }
  dialect.has_header = header;
  return dialect;
}

}  // namespace

std::optional<CsvDialect> DetectCsvDialect(std::string_view head) { return DialectOf(DetectCsvShape(head)); }

Format SniffFormatAndDialect(std::string_view head, std::string_view name_hint,
                             std::optional<CsvDialect>* dialect) {
  std::optional<CsvShape> shape;
  Format f = SniffFormat(head, name_hint, dialect ? &shape : nullptr);
  if (dialect && f == Format::kCsv) *dialect = DialectOf(std::move(shape));
  return f;
}

CsvProfiler::CsvProfiler(const CsvDialect& dialect, const ProfileOptions& options)
    : dialect_(dialect), options_(options) {
  std::fill(std::begin(cls_), std::end(cls_), 0);
  cls_[static_cast<unsigned char>(dialect.delimiter)] = 1;
  cls_[static_cast<unsigned char>('"')] = 2;
  cls_[static_cast<unsigned char>('\n')] = 3;
  cls_[static_cast<unsigned char>('\r')] = 4;
  field_.reserve(256);
}

void CsvProfiler::EndField() {
  if (field_truncated_) ++long_fields_;
  if (!header_done_) {
    // A first line of millions of fields keeps only the columns that will be profiled.
    if (first_record_.size() < options_.max_columns) first_record_.push_back(field_);
  } else if (field_index_ < columns_.size()) {
    ColumnAccumulator& col = columns_[field_index_];
    if (col.Saturated()) col.CountOnly(!Trim(field_).empty());
    else col.Add(field_);
  }
  ++field_index_;
  field_.clear();
  field_truncated_ = false;
  field_started_ = false;
}

void CsvProfiler::EndRecord() {
  // A blank line is not a record.
  if (field_index_ == 0 && field_.empty() && !field_started_) return;
  EndField();
  if (!header_done_) {
    header_done_ = true;
    size_t n = std::min(first_record_.size(), options_.max_columns);
    for (size_t i = 0; i < n; ++i) {
      std::string name = dialect_.has_header ? SanitizeUtf8(TruncateUtf8(Trim(first_record_[i]), 200))
                                             : "column" + std::to_string(i + 1);
      columns_.emplace_back(std::move(name), options_.max_samples_per_column,
                            options_.max_sample_value_bytes);
    }
    if (!dialect_.has_header) {
      for (size_t i = 0; i < n; ++i) columns_[i].Add(first_record_[i]);
      ++records_;
    }
    header_fields_ = field_index_;
    max_fields_seen_ = field_index_;
    first_record_.clear();
    first_record_.shrink_to_fit();
  } else {
    ++records_;
    if (field_index_ != header_fields_) ++ragged_;
    max_fields_seen_ = std::max(max_fields_seen_, field_index_);
  }
  field_index_ = 0;
}

const char* CsvProfiler::ScanPlain(const char* p, const char* end) const {
  // SWAR: a word has a byte equal to c iff haszero(word ^ c×0x01..01) (Hacker's Delight, 6-1).
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  auto has = [&](uint64_t w, uint64_t pattern) {
    uint64_t x = w ^ pattern;
    return (x - kOnes) & ~x & kHighs;
  };
  const uint64_t d = kOnes * static_cast<unsigned char>(dialect_.delimiter), q = kOnes * '"',
                 n = kOnes * '\n', r = kOnes * '\r';
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if (has(w, d) | has(w, q) | has(w, n) | has(w, r)) break;
    p += 8;
  }
  while (p < end && cls_[static_cast<unsigned char>(*p)] == 0) ++p;
  return p;
}

void CsvProfiler::Feed(std::string_view chunk) {
  const char* p = chunk.data();
  const char* end = p + chunk.size();
  while (p < end) {
    if (in_quotes_) {
      if (quote_pending_) {
        quote_pending_ = false;
        if (*p == '"') {  // "" inside quotes: a literal quote
          if (field_.size() < kMaxFieldBytes) field_ += '"';
          ++p;
          continue;
        }
        in_quotes_ = false;  // that quote closed the field; fall through to handle *p unquoted
        continue;
      }
      // Fast path inside quotes: copy up to the next quote.
      const char* q = static_cast<const char*>(std::memchr(p, '"', static_cast<size_t>(end - p)));
      const char* stop = q ? q : end;
      size_t room = field_.size() < kMaxFieldBytes ? kMaxFieldBytes - field_.size() : 0;
      size_t n = static_cast<size_t>(stop - p);
      if (n > room) field_truncated_ = true;
      field_.append(p, std::min(n, room));
      p = stop;
      if (q) {
        quote_pending_ = true;
        ++p;
      }
      continue;
    }
    unsigned char c = static_cast<unsigned char>(*p);
    switch (cls_[c]) {
      case 0: {
        if (after_cr_) after_cr_ = false;
        // Fast path: scan plain bytes until the next special one, eight at a time.
        const char* s = p;
        p = ScanPlain(p, end);
        size_t n = static_cast<size_t>(p - s);
        size_t room = field_.size() < kMaxFieldBytes ? kMaxFieldBytes - field_.size() : 0;
        if (n > room) field_truncated_ = true;
        field_.append(s, std::min(n, room));
        field_started_ = true;
        continue;
      }
      case 1:
        after_cr_ = false;
        EndField();
        field_started_ = true;  // the next field exists even if empty
        break;
      case 2:
        after_cr_ = false;
        if (field_.empty()) {
          in_quotes_ = true;
          field_started_ = true;
        } else if (field_.size() < kMaxFieldBytes) {
          field_ += '"';  // a stray quote mid-field is data (lenient, as most readers are)
        }
        break;
      case 3:
        if (after_cr_) {
          after_cr_ = false;  // CRLF: the record already ended at CR
        } else {
          EndRecord();
        }
        break;
      case 4:
        EndRecord();
        after_cr_ = true;
        break;
    }
    ++p;
  }
}

size_t CsvProfiler::BufferedBytes() const {
  size_t n = sizeof(*this) + field_.capacity();
  for (const auto& f : first_record_) n += sizeof(f) + f.capacity();
  for (const auto& c : columns_) n += c.ApproxBytes();
  return n;
}

void CsvProfiler::Finish(FileProfile& out) {
  if (in_quotes_ && !quote_pending_) out.warnings.push_back("file ends inside a quoted field");
  in_quotes_ = false;
  if (!field_.empty() || field_index_ > 0 || field_started_) EndRecord();
  if (!header_done_) {
    field_started_ = false;
    EndRecord();
  }
  out.format = Format::kCsv;
  out.delimiter = dialect_.delimiter;
  out.has_header = dialect_.has_header;
  out.rows = records_;
  for (const auto& c : columns_) out.columns.push_back(c.Build());
  if (ragged_ > 0) {
    out.warnings.push_back("ragged rows: " + std::to_string(ragged_) + " of " + std::to_string(records_) +
                           " rows do not have the first row's " + std::to_string(header_fields_) +
                           " fields (up to " + std::to_string(max_fields_seen_) + ")");
  }
  if (header_fields_ > columns_.size()) {
    out.warnings.push_back("only the first " + std::to_string(columns_.size()) + " of " +
                           std::to_string(header_fields_) + " columns were profiled");
  }
  if (long_fields_ > 0) {
    out.warnings.push_back(std::to_string(long_fields_) + " fields longer than " +
                           std::to_string(kMaxFieldBytes) + " bytes were truncated for profiling");
  }
}

}  // namespace lakeqa::ingest
