// XLSX → CSV and DOCX → text with libarchive. Only the parts needed are read, each through a bounded
// loop, so decompressed bytes never exceed the caller's cap.
#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <map>
#include <memory>

#include "ingest/build_internal.h"
#include "ingest/documents.h"
#include "lakeqa/common/csv.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::ingest {
namespace {

// Reads the zip entries `wanted` says yes to, bounded by max_bytes in total.
Result<std::map<std::string, std::string>> ReadZipParts(std::string_view zip, size_t max_bytes,
                                                        const std::function<bool(std::string_view)>& wanted) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), archive_read_free);
  archive_read_support_format_zip(a.get());
  if (archive_read_open_memory(a.get(), zip.data(), zip.size()) != ARCHIVE_OK) {
    return ParseError(std::string("corrupt zip: ") + archive_error_string(a.get()));
  }
  std::map<std::string, std::string> parts;
  size_t total = 0;
  archive_entry* e = nullptr;
  while (true) {
    int r = archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      return ParseError(std::string("corrupt zip: ") + archive_error_string(a.get()));
    }
    const char* p = archive_entry_pathname(e);
    std::string name = p ? p : "";
    if (!wanted(name)) continue;
    std::string& data = parts[name];
    char buf[65536];
    while (true) {
      la_ssize_t n = archive_read_data(a.get(), buf, sizeof buf);
      if (n < 0) return ParseError("corrupt zip entry " + name + ": " + archive_error_string(a.get()));
      if (n == 0) break;
      total += static_cast<size_t>(n);
      if (total > max_bytes) {
        return ResourceExhausted("zip expands beyond " + std::to_string(max_bytes) + " bytes (at entry " +
                                 name + "); not converted");
      }
      data.append(buf, static_cast<size_t>(n));
    }
  }
  return parts;
}

template <typename F>
void ForEachTag(std::string_view xml, F&& f) {
  // f(tag_text_without_brackets, text_after_tag_until_next_tag)
  size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string_view::npos) {
    size_t gt = xml.find('>', pos);
    if (gt == std::string_view::npos) return;
    size_t next = xml.find('<', gt);
    std::string_view text = xml.substr(gt + 1, (next == std::string_view::npos ? xml.size() : next) - gt - 1);
    f(xml.substr(pos + 1, gt - pos - 1), text);
    pos = gt + 1;
  }
}

std::string_view TagName(std::string_view tag) {
  size_t e = tag.find_first_of(" \t\r\n/");
  if (!tag.empty() && tag[0] == '/') {
    size_t e2 = tag.find_first_of(" \t\r\n", 1);
    return tag.substr(1, (e2 == std::string_view::npos ? tag.size() : e2) - 1);
  }
  return tag.substr(0, e == 0 ? tag.size() : e);
}

std::string Attr(std::string_view tag, std::string_view name) {
  std::string pat = " " + std::string(name) + "=";
  size_t p = tag.find(pat);
  if (p == std::string_view::npos || p + pat.size() >= tag.size()) return "";
  char q = tag[p + pat.size()];
  if (q != '"' && q != '\'') return "";
  size_t start = p + pat.size() + 1;
  size_t e = tag.find(q, start);
  return e == std::string_view::npos ? "" : DecodeXmlEntities(tag.substr(start, e - start));
}

std::vector<std::string> SharedStrings(std::string_view xml) {
  std::vector<std::string> out;
  std::string cur;
  bool in_si = false, in_t = false, in_rph = false;
  ForEachTag(xml, [&](std::string_view tag, std::string_view text) {
    std::string_view name = TagName(tag);
    bool closing = !tag.empty() && tag[0] == '/';
    bool self = !tag.empty() && tag.back() == '/';
    if (name == "si") {
      if (closing) {
        out.push_back(cur);
        in_si = false;
      } else if (self) {
        out.emplace_back();
      } else {
        in_si = true;
        cur.clear();
      }
    } else if (name == "rPh") {
      in_rph = !closing && !self;  // phonetic runs are not cell text
    } else if (name == "t") {
      in_t = !closing && !self;
      if (in_t && in_si && !in_rph) cur += DecodeXmlEntities(text);
    }
  });
  return out;
}

std::string SheetToCsv(std::string_view xml, const std::vector<std::string>& shared, size_t max_bytes,
                       bool& truncated) {
  std::string csv;
  std::vector<std::string> row;
  std::string type, value, inline_text;
  size_t col = 0;
  bool in_v = false, in_is = false, in_row = false;
  auto flush = [&]() {
    while (!row.empty() && row.back().empty()) row.pop_back();
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) csv += ',';
      AppendCsvField(row[i], csv);
    }
    csv += '\n';
    row.clear();
  };
  ForEachTag(xml, [&](std::string_view tag, std::string_view text) {
    if (truncated) return;
    std::string_view name = TagName(tag);
    bool closing = !tag.empty() && tag[0] == '/';
    bool self = !tag.empty() && tag.back() == '/';
    if (name == "row") {
      if (closing || self) {
        flush();
        in_row = false;
        if (csv.size() > max_bytes) truncated = true;
      } else {
        in_row = true;
        col = 0;
      }
    } else if (name == "c" && in_row) {
      if (!closing) {
        std::string r = Attr(tag, "r");
        if (!r.empty()) col = XlsxColumnOf(r);
        type = Attr(tag, "t");
        value.clear();
        inline_text.clear();
      }
      if (closing || self) {
        std::string v = value;
        if (type == "s") {
          size_t idx = 0;
          bool ok = !value.empty() &&
                    std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
          if (ok) idx = std::stoul(value);
          v = ok && idx < shared.size() ? shared[idx] : "";
        } else if (type == "inlineStr") {
          v = inline_text;
        } else if (type == "b") {
          v = value == "1" ? "TRUE" : "FALSE";
        }
        if (col < 16384) {
          if (row.size() <= col) row.resize(col + 1);
          row[col] = v;
        }
        ++col;
      }
    } else if (name == "v") {
      in_v = !closing && !self;
      if (in_v) value = DecodeXmlEntities(text);
    } else if (name == "is") {
      in_is = !closing && !self;
    } else if (name == "t" && in_is && !closing) {
      inline_text += DecodeXmlEntities(text);
    }
  });
  return csv;
}

}  // namespace

std::string OoxmlKind(std::string_view zip) {
  if (zip.size() < 4 || zip.substr(0, 4) != std::string_view("PK\x03\x04", 4)) return "";
  auto parts = ReadZipParts(zip, 1 << 20, [](std::string_view n) { return n == "[Content_Types].xml"; });
  if (!parts.ok() || parts->empty()) return "";
  const std::string& ct = parts->begin()->second;
  if (ct.find("spreadsheetml") != std::string::npos) return "xlsx";
  if (ct.find("wordprocessingml") != std::string::npos) return "docx";
  return "";
}

Result<std::vector<SheetCsv>> XlsxToCsv(std::string_view zip, size_t max_bytes) {
  LAKEQA_ASSIGN_OR_RETURN(auto parts, ReadZipParts(zip, max_bytes, [](std::string_view n) {
                            return n == "xl/workbook.xml" || n == "xl/_rels/workbook.xml.rels" ||
                                   n == "xl/sharedStrings.xml" || StartsWith(n, "xl/worksheets/sheet");
                          }));
  std::vector<std::string> shared;
  if (parts.count("xl/sharedStrings.xml")) shared = SharedStrings(parts["xl/sharedStrings.xml"]);
  std::map<std::string, std::string> rel_target;
  ForEachTag(parts["xl/_rels/workbook.xml.rels"], [&](std::string_view tag, std::string_view) {
    if (TagName(tag) == "Relationship") {
      std::string target = Attr(tag, "Target");
      if (StartsWith(target, "/xl/")) target = target.substr(4);
      rel_target[Attr(tag, "Id")] = "xl/" + target;
    }
  });
  std::vector<std::pair<std::string, std::string>> sheets;  // name, part
  ForEachTag(parts["xl/workbook.xml"], [&](std::string_view tag, std::string_view) {
    if (TagName(tag) == "sheet") {
      auto it = rel_target.find(Attr(tag, "r:id"));
      if (it != rel_target.end()) sheets.emplace_back(Attr(tag, "name"), it->second);
    }
  });
  if (sheets.empty()) {
    for (const auto& [name, data] : parts) {
      if (StartsWith(name, "xl/worksheets/sheet") && EndsWith(name, ".xml"))
        sheets.emplace_back(name.substr(14), name);
    }
  }
  if (sheets.empty()) return ParseError("xlsx without worksheets");
  std::vector<SheetCsv> out;
  size_t total = 0;
  for (const auto& [name, part] : sheets) {
    auto it = parts.find(part);
    if (it == parts.end()) continue;
    bool truncated = false;
    SheetCsv s{name, SheetToCsv(it->second, shared, max_bytes - std::min(total, max_bytes), truncated)};
    if (truncated)
      return ResourceExhausted("xlsx sheet '" + name + "' converts to more than " +
                               std::to_string(max_bytes) + " bytes");
    total += s.csv.size();
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::string> DocxToText(std::string_view zip, size_t max_bytes) {
  LAKEQA_ASSIGN_OR_RETURN(
      auto parts, ReadZipParts(zip, max_bytes, [](std::string_view n) { return n == "word/document.xml"; }));
  if (parts.empty()) return ParseError("docx without word/document.xml");
  std::string out;
  int cell_depth = 0;
  bool in_t = false;
  ForEachTag(parts.begin()->second, [&](std::string_view tag, std::string_view text) {
    std::string_view name = TagName(tag);
    bool closing = !tag.empty() && tag[0] == '/';
    bool self = !tag.empty() && tag.back() == '/';
    if (name == "w:t") {
      in_t = !closing && !self;
      if (in_t) out += DecodeXmlEntities(text);
    } else if (name == "w:tab") {
      out += '\t';
    } else if (name == "w:br" || name == "w:cr") {
      out += cell_depth ? ' ' : '\n';
    } else if (name == "w:p" && closing) {
      out += cell_depth ? ' ' : '\n';
    } else if (name == "w:tc") {
      if (closing) {
        --cell_depth;
        out += " | ";
      } else if (!self) {
        ++cell_depth;
      }
    } else if (name == "w:tr" && closing) {
      while (EndsWith(out, " | ") || EndsWith(out, " "))
        out.resize(out.size() - (EndsWith(out, " | ") ? 3 : 1));
      out += '\n';
    }
  });
  if (out.size() > max_bytes) out.resize(TruncateUtf8(out, max_bytes).size());
  return out;
}

std::string NormalizeWhitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  int blank_run = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line =
        text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    std::string clean;
    bool space = false;
    for (char c : line) {
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        space = !clean.empty();
      } else {
        if (space) clean += ' ';
        space = false;
        clean += c;
      }
    }
    if (clean.empty()) {
      ++blank_run;
      continue;
    }
    if (!out.empty()) out += blank_run > 0 ? "\n\n" : "\n";
    blank_run = 0;
    out += clean;
  }
  return out;
}

}  // namespace lakeqa::ingest
