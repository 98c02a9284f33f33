// --provide-provenance, table questions: the gold table's first rows as CSV, streamed from the lake.
#include "cmdbench/provenance_gold.h"

namespace lakeqa::cmdbench::provenance {

Result<GoldTable> ReadGoldTable(lake::Store& lake, const std::string& key, size_t max_rows,
                                size_t max_bytes) {
  GoldTable t;
  std::string record;
  bool quoted = false, header = true, full = false;
  auto end_record = [&] {
    if (!record.empty() && record != "\r") {
      if (header) {
        t.csv = record + "\n";
        header = false;
      } else {
        ++t.rows_total;
        // Rows stay in file order: once one is left out, so is every later one.
        full = full || t.rows_kept >= max_rows || t.csv.size() + record.size() + 1 > max_bytes;
        if (!full) {
          t.csv += record + "\n";
          ++t.rows_kept;
        }
      }
    }
    record.clear();
  };
  // Records end at a newline outside double quotes (RFC 4180), so a quoted cell may hold line breaks.
  Status st = lake.ReadStream(key, [&](std::string_view chunk) {
    for (char c : chunk) {
      if (c == '"') quoted = !quoted;
      if (c == '\n' && !quoted) {
        end_record();
      } else {
        record += c;
      }
    }
    return true;
  });
  if (!st.ok()) return st.WithContext("reading the gold table " + key + " from the lake");
  end_record();  // a last record without a newline
  if (header) return InvalidArgument("the gold table " + key + " in the lake is empty");
  return t;
}

}  // namespace lakeqa::cmdbench::provenance
