// Text out of documents: HTML (gumbo), OOXML spreadsheets and Word files (libarchive, with bounded
// decompression so a zip bomb costs at most the cap), PDF (pdftotext as a child process with time and
// output limits). Used by the profiler for text samples and columns.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/ingest/profile.h"

namespace lakeqa::ingest {

// Whitespace runs (space, tab, newline, CR, FF, VT) → one space; leading and trailing ones dropped.
std::string Squeeze(std::string_view s);

// Visible text of an HTML document (script/style dropped, block elements on their own lines); the
// <title> first when present.
std::string HtmlToText(std::string_view html, size_t max_bytes);

// The document's <table>s (html_tables.cc): each listed in json_paths with its caption and size; the one
// with the most rows gives the profile's columns (first row as header), types, samples and row count.
void ProfileHtmlTables(std::string_view html, const ProfileOptions& options, FileProfile& out);

// Which OOXML kind a zip holds: kXlsx, kDocx, or kZip for anything else. Fills the profile (columns and
// rows of the first sheet, sheet names in json_paths; or the document text).
Status ProfileZip(std::string_view data, const ProfileOptions& options, FileProfile& out);

// An XLSX's profile from its parts: sheet names from the workbook, columns from the sheet's first row, then
// types, samples and the row count. Parts may be prefixes (ranged reads, zip_ranges.h): a row or string cut
// at the end is dropped, and a cell whose shared string lies beyond the prefix reads as empty.
void ProfileXlsxParts(std::string_view workbook, std::string_view shared, std::string_view sheet,
                      const ProfileOptions& options, FileProfile& out);

// A DOCX's profile from word/document.xml (or its prefix): the start of its text.
void ProfileDocxPart(std::string_view document, const ProfileOptions& options, FileProfile& out);

// pdftotext on the bytes (first pages only), at most max_bytes of UTF-8 text.
Result<std::string> PdfToText(std::string_view pdf, size_t max_bytes, int timeout_ms = 10000);

// Distinct element paths of an XML document in document order ("root", "root/record", ...), at most
// max_paths, read from at most the first max_scan bytes. Tolerant of mismatched tags.
std::vector<std::string> XmlElementPaths(std::string_view xml, size_t max_paths, size_t max_scan = 8u << 20);

// Text of XML elements, tags stripped, entities decoded (for DOCX, XML samples).
std::string StripTags(std::string_view xml, size_t max_bytes);

// The 0-based column of a spreadsheet cell reference's letters ("BC12" -> 54): XLSX profiling and conversion
// place cells by it.
size_t XlsxColumnOf(std::string_view ref);

}  // namespace lakeqa::ingest
