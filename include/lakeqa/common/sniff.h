// The one content sniffer: what a file is, from its first bytes (up to 64 KiB), for every module that must
// know (the profiler in ingest, the SQL sandbox's views in exec). Magic numbers first, then the shape of the
// text; the file name only breaks ties (a single-column ".csv" is still CSV, a single-column "notes.txt" is
// text: by content alone a one-column table and short lines of prose look the same).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lakeqa {

enum class FileFormat {
  kUnknown,
  kEmpty,
  kCsv,        // any delimited text (comma, tab, semicolon, pipe); see CsvShape
  kJson,       // one JSON document
  kJsonLines,  // one JSON value per line
  kGeoJson,    // a FeatureCollection/Feature
  kXml,
  kHtml,
  kPdf,
  kXlsx,    // never sniffed: a zip is refined by looking inside (ingest's profiler)
  kDocx,    // likewise
  kZip,     // a zip container
  kText,    // plain text (prose, fixed-width)
  kBinary,  // images, archives, Parquet, SQLite, ... (Parquet: IsParquet)
};
std::string_view FormatName(FileFormat f);  // "csv", "geojson", ...
FileFormat FormatFromName(std::string_view name);

// Delimited text as the head shows it: the delimiter whose records have the most consistent field count.
struct CsvShape {
  char delimiter = ',';
  size_t columns = 0;      // modal field count in the head
  double consistency = 0;  // share of the voting records with the modal count
  // The head's records the vote was taken on (at most 32, a cut-off last one dropped), split with
  // `delimiter`, quote-aware: what a caller's header test looks at.
  std::vector<std::vector<std::string>> records;
};

// The best delimiter for the head, or nullopt when none gives a consistent table of two or more columns.
// Looks at the first 32 records or 16 KiB, whichever ends first.
std::optional<CsvShape> DetectCsvShape(std::string_view head);

// Format from the head plus the name as a tie-breaker only. UTF-16 text is sniffed once converted.
// csv: when given and the head is delimited text, receives its shape (so the head is analysed once).
FileFormat SniffFormat(std::string_view head, std::string_view name_hint,
                       std::optional<CsvShape>* csv = nullptr);

// Text that DuckDB reads as a one-column table: two or more lines, no `,` `\t` `;` `|` outside quotes in
// the first 50 whole lines, none of the first 4 KiB longer than 64 bytes. SniffFormat calls it text unless
// the name says .csv or .tsv, since short lines of prose look the same: the catalog must not call a README a
// table. The SQL sandbox still gives it a view: a view of prose costs nothing, a missing view of a list of
// names (a LakeQA "rows.txt" of one column) loses the data.
bool IsSingleColumnText(std::string_view head);

// Parquet's magic number ("PAR1"): the sniffer calls Parquet binary (no text to profile); DuckDB reads it.
bool IsParquet(std::string_view head);

}  // namespace lakeqa
