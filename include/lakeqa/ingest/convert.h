// Converters the lake builder applies to raw sources: MediaWiki wikitext → plain text (with the page's
// categories), and the reversible mapping between a page title (or any name) and a lake folder name.
// docs/lake-build.md describes both precisely.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::ingest {

struct WikiText {
  std::string text;                     // plain text, '\n'-separated lines, no trailing blank lines
  std::vector<std::string> categories;  // [[Category:X]] names in page order, without duplicates
};

// Plain text of a page: templates ({{...}}, nested), <ref>s, comments, files/images, interlanguage
// links and HTML tags removed; link text kept ([[a|b]] → b); bold/italic quotes removed; headings kept as
// their own lines; list items as "- item" (indented two spaces per extra level); tables as one line per
// row, cells joined by " | ". Broken markup (an unclosed {{, [[ or <ref>) drops only the opener, never
// the rest of the page. Character references (&nbsp;, &ndash;, &#8212;, ...) are decoded.
WikiText WikitextToText(std::string_view wikitext);

// Decodes HTML character references: numeric ones, the XML five and the common HTML named ones.
std::string DecodeHtmlEntities(std::string_view s);

// Longest folder name the builder writes, in bytes (file systems allow 255; the margin leaves room
// for the store's temporary-file suffix).
inline constexpr size_t kMaxFolderBytes = 200;

// Name → folder: '%', '/', '\\', control bytes and DEL are percent-encoded (%2F), as are a name that is
// "." or ".." and an empty name (%00 never occurs otherwise: "" → "%"); names longer than kMaxFolderBytes
// are cut at a character boundary and get the suffix "%%" + 16 hex digits of a hash of the whole name
// ("%%" never occurs in an untruncated folder, so truncation is recognisable).
std::string NameToFolder(std::string_view name);
// The inverse of NameToFolder; an error for a truncated name (its true name is in metadata.json) or an
// invalid escape.
Result<std::string> FolderToName(std::string_view folder);

// Wikipedia titles: as NameToFolder after replacing ' ' by '_' (a literal '_' is encoded as %5F, which
// MediaWiki titles never contain, so the mapping stays reversible).
std::string TitleToFolder(std::string_view title);
Result<std::string> FolderToTitle(std::string_view folder);

// Whether a folder name was truncated by NameToFolder.
bool IsTruncatedFolder(std::string_view folder);

// Office Open XML: every read from the zip is bounded by max_bytes of decompressed data in all, so a
// zip bomb costs at most that much memory and ends in a kResourceExhausted error.
struct SheetCsv {
  std::string name;  // sheet name from the workbook
  std::string csv;   // RFC 4180, shared strings resolved, gaps filled with empty cells
};
Result<std::vector<SheetCsv>> XlsxToCsv(std::string_view zip, size_t max_bytes);
// Paragraphs one per line; table rows as "cell | cell".
Result<std::string> DocxToText(std::string_view zip, size_t max_bytes);
// "xlsx", "docx", or "" for any other (or no) zip.
std::string OoxmlKind(std::string_view zip);

// Text clean-up for converted documents: spaces and tabs collapsed, lines trimmed, CRLF → LF, at most
// one blank line in a row, no leading or trailing blank lines.
std::string NormalizeWhitespace(std::string_view text);

}  // namespace lakeqa::ingest
