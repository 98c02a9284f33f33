// Format by content: magic numbers first, then the shape of the text. The file name only breaks ties
// (a single-column ".csv" is still CSV).
#include <cstring>

#include "ingest/csv_profile.h"
#include "ingest/encoding.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/profile.h"

namespace lakeqa::ingest {

std::string_view FormatName(Format f) {
  switch (f) {
    case Format::kUnknown: return "unknown";
    case Format::kEmpty: return "empty";
    case Format::kCsv: return "csv";
    case Format::kJson: return "json";
    case Format::kJsonLines: return "jsonl";
    case Format::kGeoJson: return "geojson";
    case Format::kXml: return "xml";
    case Format::kHtml: return "html";
    case Format::kPdf: return "pdf";
    case Format::kXlsx: return "xlsx";
    case Format::kDocx: return "docx";
    case Format::kZip: return "zip";
    case Format::kText: return "text";
    case Format::kBinary: return "binary";
  }
  return "unknown";
}

Format FormatFromName(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(Format::kBinary); ++i) {
    if (FormatName(static_cast<Format>(i)) == name) return static_cast<Format>(i);
  }
  return Format::kUnknown;
}

namespace {

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
  return ((open == '{' && close == '}') || (open == '[' && close == ']')) && (rest.front() == '{' || rest.front() == '[');
}

}  // namespace

Format SniffFormat(std::string_view head, std::string_view name_hint) {
  return SniffFormatAndDialect(head, name_hint, nullptr);
}

Format SniffFormatAndDialect(std::string_view head, std::string_view name_hint, std::optional<CsvDialect>* dialect) {
  if (head.empty()) return Format::kEmpty;
  if (StartsWith(head, "%PDF-")) return Format::kPdf;
  if (StartsWith(head, "PK\x03\x04") || StartsWith(head, "PK\x05\x06")) return Format::kZip;  // refined later
  static const char* kBinaryMagic[] = {"\x89PNG", "\xFF\xD8\xFF", "GIF8", "\x1F\x8B", "BZh", "\xFD" "7zXZ",
                                       "PAR1", "SQLite format 3", "\x7F" "ELF", "RIFF", "ID3", "OggS"};
  for (const char* m : kBinaryMagic) {
    if (StartsWith(head, m)) return Format::kBinary;
  }
  Encoding utf16 = StartsWith(head, "\xFF\xFE")   ? Encoding::kUtf16Le
                   : StartsWith(head, "\xFE\xFF") ? Encoding::kUtf16Be
                                                  : GuessUtf16WithoutBom(head);
  if (utf16 != Encoding::kUtf8) {
    // Sniff the converted text (its structure, not its bytes); the profiler converts it the same way.
    std::string text(Transcoder(utf16).Convert(head));
    if (text.empty()) return Format::kText;
    return SniffFormatAndDialect(text, name_hint, dialect);
  }
  if (LooksBinary(head)) return Format::kBinary;
  std::string_view text = SkipSpace(head);
  if (text.empty()) return Format::kText;
  if ((text.front() == '{' || text.front() == '[') && OpensLikeJson(text)) {
    // GeoJSON announces itself near the top.
    std::string_view top = text.substr(0, 4096);
    if (top.find("\"FeatureCollection\"") != std::string_view::npos) return Format::kGeoJson;
    // One Feature per line (GeoJSONSeq) is JSON Lines; one Feature alone is GeoJSON.
    if (IsJsonLines(text)) return Format::kJsonLines;
    if ((top.find("\"features\"") != std::string_view::npos || top.find("\"Feature\"") != std::string_view::npos) &&
        text.find("\"geometry\"") != std::string_view::npos) {
      return Format::kGeoJson;
    }
    return Format::kJson;
  }
  if (text.front() == '<') {
    std::string lower = ToLowerAscii(text.substr(0, 2048));
    if (lower.find("<!doctype html") != std::string::npos || lower.find("<html") != std::string::npos ||
        lower.find("<body") != std::string::npos || lower.find("<head") != std::string::npos ||
        lower.find("<div") != std::string::npos || lower.find("<p>") != std::string::npos ||
        lower.find("<table") != std::string::npos) {
      return Format::kHtml;
    }
    return Format::kXml;
  }
  if (auto d = DetectCsvDialect(head)) {
    if (dialect) *dialect = d;
    return Format::kCsv;
  }
  std::string lname = ToLowerAscii(name_hint);
  if (EndsWith(lname, ".csv") || EndsWith(lname, ".tsv")) return Format::kCsv;
  return Format::kText;
}

}  // namespace lakeqa::ingest
