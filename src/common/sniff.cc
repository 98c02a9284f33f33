// Format by content: magic numbers first, then the shape of the text (include/lakeqa/common/sniff.h).
#include "lakeqa/common/sniff.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "lakeqa/common/encoding.h"
#include "lakeqa/common/strings.h"

namespace lakeqa {

std::string_view FormatName(FileFormat f) {
  switch (f) {
    case FileFormat::kUnknown: return "unknown";
    case FileFormat::kEmpty: return "empty";
    case FileFormat::kCsv: return "csv";
    case FileFormat::kJson: return "json";
    case FileFormat::kJsonLines: return "jsonl";
    case FileFormat::kGeoJson: return "geojson";
    case FileFormat::kXml: return "xml";
    case FileFormat::kHtml: return "html";
    case FileFormat::kPdf: return "pdf";
    case FileFormat::kXlsx: return "xlsx";
    case FileFormat::kDocx: return "docx";
    case FileFormat::kZip: return "zip";
    case FileFormat::kText: return "text";
    case FileFormat::kBinary: return "binary";
  }
  return "unknown";
}

FileFormat FormatFromName(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(FileFormat::kBinary); ++i) {
    if (FormatName(static_cast<FileFormat>(i)) == name) return static_cast<FileFormat>(i);
  }
  return FileFormat::kUnknown;
}

namespace {

constexpr size_t kSniffRecords = 32;
constexpr size_t kSniffBytes = 16 * 1024;  // dialect evidence: 32 records or 16 KiB, whichever ends first

// Splits up to max_records complete records of head with the given delimiter (quote-aware).
std::vector<std::vector<std::string>> SplitRecords(std::string_view head, char delim, size_t max_records,
                                                   bool* complete_last) {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> rec;
  std::string field;
  bool inq = false;
  size_t i = 0;
  *complete_last = true;
  for (; i < head.size() && out.size() < max_records; ++i) {
    char c = head[i];
    if (inq) {
      if (c == '"') {
        if (i + 1 < head.size() && head[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          inq = false;
        }
      } else {
        field += c;
      }
    } else if (c == '"' && field.empty()) {
      inq = true;
    } else if (c == delim) {
      rec.push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < head.size() && head[i + 1] == '\n') ++i;
      rec.push_back(std::move(field));
      field.clear();
      out.push_back(std::move(rec));
      rec.clear();
    } else {
      field += c;
    }
  }
  if (out.size() < max_records && (!rec.empty() || !field.empty())) {
    // The head's last line may be cut by the 64 KiB limit: count it only if the file ended there.
    rec.push_back(std::move(field));
    out.push_back(std::move(rec));
    *complete_last = false;
  }
  return out;
}

bool LooksBinary(std::string_view head) {
  if (head.empty()) return false;
  size_t control = 0;
  size_t n = std::min<size_t>(head.size(), 8192);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(head[i]);
    if (c == 0) return true;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) ++control;
  }
  return control * 10 > n;
}

std::string_view SkipSpace(std::string_view s) {
  size_t i = 0;
  if (StartsWith(s, "\xEF\xBB\xBF")) i = 3;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// Whether the opening brackets are followed by what JSON allows there. Wikitext such as "{{Infobox" or
// "[[Category:X]]" also starts with a bracket; it is text, not malformed JSON.
bool OpensLikeJson(std::string_view text) {
  for (size_t i = 0, depth = 0; i < text.size() && depth < 16; ++depth) {
    char open = text[i];
    std::string_view rest = SkipSpace(text.substr(i + 1));
    if (rest.empty()) return true;  // a head cut right after the bracket
    char c = rest.front();
    if (open == '{') return c == '"' || c == '}';
    if (c == '{' || c == '[') {
      i = text.size() - rest.size();
      continue;
    }
    return c == '"' || c == ']' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
  }
  return true;
}

bool IsJsonLines(std::string_view text) {
  // Two non-empty lines, each starting with '{' (or '['), the first one closing on its own line.
  size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return false;
  std::string_view first = Trim(text.substr(0, nl));
  std::string_view rest = SkipSpace(text.substr(nl + 1));
  if (first.empty() || rest.empty()) return false;
  char open = first.front(), close = first.back();
  return ((open == '{' && close == '}') || (open == '[' && close == ']')) &&
         (rest.front() == '{' || rest.front() == '[');
}

}  // namespace

std::optional<CsvShape> DetectCsvShape(std::string_view head) {
  bool cut = head.size() > kSniffBytes;
  head = head.substr(0, kSniffBytes);
  std::optional<CsvShape> best;
  double best_score = 0;
  for (char d : {',', '\t', ';', '|'}) {
    bool complete_last = true;
    auto recs = SplitRecords(head, d, kSniffRecords, &complete_last);
    if ((!complete_last || cut) && recs.size() > 1 && recs.size() < kSniffRecords) recs.pop_back();
    // A first line longer than the sniff window: its last field is cut short (and could look like a
    // duplicate header name), so it does not vote.
    if (cut && !complete_last && recs.size() == 1 && recs[0].size() > 2) recs[0].pop_back();
    // Blank lines do not vote.
    std::map<size_t, size_t> counts;
    size_t voters = 0;
    for (auto& r : recs) {
      if (r.size() == 1 && r[0].empty()) continue;
      ++counts[r.size()];
      ++voters;
    }
    if (voters == 0) continue;
    auto mode =
        std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) { return a.second < b.second; });
    if (mode->first < 2) continue;
    double consistency = static_cast<double>(mode->second) / static_cast<double>(voters);
    // Prefer consistent tables, then more columns (a comma inside prose is not a table).
    double score = consistency * (1.0 + 0.01 * static_cast<double>(std::min<size_t>(mode->first, 50)));
    if (voters == 1) score *= 0.5;  // a single line is weak evidence
    if (consistency < 0.6) continue;
    if (score > best_score) {
      best_score = score;
      best = CsvShape{d, mode->first, consistency, std::move(recs)};
    }
  }
  return best;
}

bool IsSingleColumnText(std::string_view head) {
  if (StartsWith(head, "\xEF\xBB\xBF")) head.remove_prefix(3);
  // Whole records only (a record cut by the end of the head is not counted), tracking double quotes across
  // lines so that a quoted newline does not end a record.
  bool complete = head.size() < 64 * 1024;
  size_t records = 0;
  bool in_quotes = false, any = false;
  for (size_t i = 0; i < head.size() && records < 50; ++i) {
    char c = head[i];
    if (c == '"') {
      in_quotes = !in_quotes;
    } else if (!in_quotes && (c == '\n' || c == '\r')) {
      if (c == '\r' && i + 1 < head.size() && head[i + 1] == '\n') ++i;
      if (any) ++records;
      any = false;
      continue;
    } else if (!in_quotes && (c == ',' || c == '\t' || c == ';' || c == '|')) {
      return false;
    }
    any = true;
  }
  if (complete && any && !in_quotes) ++records;
  if (records < 2) return false;
  for (std::string_view line : Split(head.substr(0, std::min<size_t>(head.size(), 4096)), '\n')) {
    if (Trim(line).size() > 64) return false;
  }
  return true;
}

bool IsParquet(std::string_view head) { return StartsWith(head, "PAR1"); }

FileFormat SniffFormat(std::string_view head, std::string_view name_hint, std::optional<CsvShape>* csv) {
  if (head.empty()) return FileFormat::kEmpty;
  if (StartsWith(head, "%PDF-")) return FileFormat::kPdf;
  // A zip may be an XLSX or a DOCX: ingest's profiler looks inside.
  if (StartsWith(head, "PK\x03\x04") || StartsWith(head, "PK\x05\x06")) return FileFormat::kZip;
  static const char* kBinaryMagic[] = {"\x89PNG",
                                       "\xFF\xD8\xFF",
                                       "GIF8",
                                       "\x1F\x8B",
                                       "BZh",
                                       "\xFD"
                                       "7zXZ",
                                       "PAR1",
                                       "SQLite format 3",
                                       "\x7F"
                                       "ELF",
                                       "RIFF",
                                       "ID3",
                                       "OggS"};
  for (const char* m : kBinaryMagic) {
    if (StartsWith(head, m)) return FileFormat::kBinary;
  }
  Encoding utf16 = StartsWith(head, "\xFF\xFE")   ? Encoding::kUtf16Le
                   : StartsWith(head, "\xFE\xFF") ? Encoding::kUtf16Be
                                                  : GuessUtf16WithoutBom(head);
  if (utf16 != Encoding::kUtf8) {
    // Sniff the converted text (its structure, not its bytes); the profiler converts it the same way.
    std::string text(Transcoder(utf16).Convert(head));
    if (text.empty()) return FileFormat::kText;
    return SniffFormat(text, name_hint, csv);
  }
  if (LooksBinary(head)) return FileFormat::kBinary;
  std::string_view text = SkipSpace(head);
  if (text.empty()) return FileFormat::kText;
  if ((text.front() == '{' || text.front() == '[') && OpensLikeJson(text)) {
    // GeoJSON announces itself near the top.
    std::string_view top = text.substr(0, 4096);
    if (top.find("\"FeatureCollection\"") != std::string_view::npos) return FileFormat::kGeoJson;
    // One Feature per line (GeoJSONSeq) is JSON Lines; one Feature alone is GeoJSON.
    if (IsJsonLines(text)) return FileFormat::kJsonLines;
    if ((top.find("\"features\"") != std::string_view::npos ||
         top.find("\"Feature\"") != std::string_view::npos) &&
        text.find("\"geometry\"") != std::string_view::npos) {
      return FileFormat::kGeoJson;
    }
    return FileFormat::kJson;
  }
  if (text.front() == '<') {
    std::string lower = ToLowerAscii(text.substr(0, 2048));
    if (lower.find("<!doctype html") != std::string::npos || lower.find("<html") != std::string::npos ||
        lower.find("<body") != std::string::npos || lower.find("<head") != std::string::npos ||
        lower.find("<div") != std::string::npos || lower.find("<p>") != std::string::npos ||
        lower.find("<table") != std::string::npos) {
      return FileFormat::kHtml;
    }
    return FileFormat::kXml;
  }
  if (auto shape = DetectCsvShape(head)) {
    if (csv) *csv = std::move(shape);
    return FileFormat::kCsv;
  }
  std::string lname = ToLowerAscii(name_hint);
  if (EndsWith(lname, ".csv") || EndsWith(lname, ".tsv")) return FileFormat::kCsv;
  return FileFormat::kText;
}

}  // namespace lakeqa
