// Helpers for the lake-build tests: real bzip2 (libbz2), MediaWiki XML export pages, temp folders and
// a walk over a built lake.
#pragma once

#include <bzlib.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"

namespace lakeqa::ingest::testing {

inline std::string Bz2(const std::string& data, int block_100k = 9) {
  unsigned int cap = static_cast<unsigned int>(data.size() + data.size() / 100 + 600);
  std::string out(cap, '\0');
  int rc = BZ2_bzBuffToBuffCompress(out.data(), &cap, const_cast<char*>(data.data()),
                                    static_cast<unsigned int>(data.size()), block_100k, 0, 0);
  EXPECT_EQ(rc, BZ_OK);
  out.resize(cap);
  return out;
}

inline std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

struct PageSpec {
  std::string title;
  int ns = 0;
  uint64_t id = 0;
  std::string text;
  std::string redirect;
};

inline std::string PageXml(const PageSpec& p) {
  std::string x = "  <page>\n    <title>" + XmlEscape(p.title) + "</title>\n    <ns>" + std::to_string(p.ns) +
                  "</ns>\n    <id>" + std::to_string(p.id) + "</id>\n";
  if (!p.redirect.empty()) x += "    <redirect title=\"" + XmlEscape(p.redirect) + "\" />\n";
  x += "    <revision>\n      <id>" + std::to_string(p.id * 10) + "</id>\n      <parentid>1</parentid>\n" +
       "      <timestamp>2024-05-01T12:00:00Z</timestamp>\n      <contributor>\n        "
       "<username>Bot</username>\n" +
       "        <id>42</id>\n      </contributor>\n      <model>wikitext</model>\n      "
       "<format>text/x-wiki</format>\n" +
       "      <text bytes=\"" + std::to_string(p.text.size()) + "\" xml:space=\"preserve\">" +
       XmlEscape(p.text) + "</text>\n      <sha1>abc</sha1>\n    </revision>\n  </page>\n";
  return x;
}

inline const char* kDumpHeader =
    "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" version=\"0.10\" xml:lang=\"en\">\n"
    "  <siteinfo>\n    <sitename>Wikipedia</sitename>\n    <namespaces>\n"
    "      <namespace key=\"0\" case=\"first-letter\" />\n      <namespace key=\"1\" "
    "case=\"first-letter\">Talk</namespace>\n"
    "    </namespaces>\n  </siteinfo>\n";
inline const char* kDumpFooter = "</mediawiki>\n";

inline void WriteBytes(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

inline std::string Slurp(const std::string& path) {
  auto r = ReadFile(path);
  return r.ok() ? *r : std::string("<missing " + path + ">");
}

inline Json SlurpJson(const std::string& path) {
  auto r = ParseJson(Slurp(path), path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : Json();
}

// Every file under root, relative paths.
inline std::vector<std::string> Walk(const std::string& root) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), root).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class TempDir {
 public:
  TempDir() {
    auto d = MakeTempDir("lakeqa-build-test-");
    EXPECT_TRUE(d.ok());
    path_ = d.ok() ? *d : "/tmp";
  }
  ~TempDir() { (void)RemoveAll(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace lakeqa::ingest::testing

#include <archive.h>
#include <archive_entry.h>

#include <cstdio>

namespace lakeqa::ingest::testing {

// A minimal valid PDF with one line of text; xref offsets exact. `encrypt` adds an /Encrypt dictionary
// (with no usable key), which pdftotext refuses.
inline std::string MakePdf(const std::string& text, bool encrypt = false) {
  std::vector<std::string> objs = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R "
      ">> >> >>",
      "",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      "<< /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 /O (0123456789abcdef0123456789abcdef) "
      "/U (fedcba9876543210fedcba9876543210) >>"};
  std::string stream = "BT /F1 12 Tf 10 50 Td (" + text + ") Tj ET";
  objs[3] = "<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "\nendstream";
  std::string pdf = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objs.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objs[i] + "\nendobj\n";
  }
  size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objs.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t o : offsets) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%010zu 00000 n \n", o);
    pdf += buf;
  }
  pdf +=
      "trailer\n<< /Size " + std::to_string(objs.size() + 1) + " /Root 1 0 R" +
      (encrypt ? " /Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]"
               : "") +
      " >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

inline std::string MakeZip(const std::vector<std::pair<std::string, std::string>>& entries) {
  size_t total = 1 << 16;
  for (const auto& e : entries) total += e.second.size() + e.first.size() + 256;
  std::vector<char> buf(total);
  size_t used = 0;
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  archive_write_open_memory(a, buf.data(), buf.size(), &used);
  for (const auto& [name, data] : entries) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return std::string(buf.data(), used);
}

inline std::string MakeXlsx() {
  return MakeZip({
      {"[Content_Types].xml",
       "<Types><Override "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
       "</Types>"},
      {"xl/workbook.xml",
       "<workbook><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"},
      {"xl/_rels/workbook.xml.rels",
       "<Relationships><Relationship Id=\"rId1\" Type=\"worksheet\" "
       "Target=\"worksheets/sheet1.xml\"/></Relationships>"},
      {"xl/sharedStrings.xml", "<sst><si><t>city</t></si><si><t>pop</t></si><si><t>Ames, IA</t></si></sst>"},
      {"xl/worksheets/sheet1.xml",
       "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" "
       "t=\"s\"><v>1</v></c></row>"
       "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>2</v></c><c r=\"C2\"><v>66000</v></c></row>"
       "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t>Inline &amp; co</t></is></c><c r=\"B3\" "
       "t=\"b\"><v>1</v></c>"
       "</row></sheetData></worksheet>"},
  });
}

inline std::string MakeDocx() {
  return MakeZip({
      {"[Content_Types].xml",
       "<Types><Override "
       "ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>"
       "</Types>"},
      {"word/document.xml",
       "<w:document><w:body><w:p><w:r><w:t>Water   quality</w:t></w:r><w:r><w:t xml:space=\"preserve\"> "
       "report</w:t>"
       "</w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>Site</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>pH</"
       "w:t>"
       "</w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:r><w:t>End &amp; "
       "notes</w:t></w:r></w:p></w:body></w:document>"},
  });
}

}  // namespace lakeqa::ingest::testing
