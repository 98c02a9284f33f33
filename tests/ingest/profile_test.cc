#include "lakeqa/ingest/profile.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <random>

#include "ingest/build_test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::ingest {
namespace {

FileProfile ProfileWhole(std::string_view data, std::string_view name = "rows.txt", size_t chunk = 0) {
  Profiler p(name);
  if (chunk == 0) {
    p.Feed(data);
  } else {
    for (size_t i = 0; i < data.size(); i += chunk) {
      if (!p.Feed(data.substr(i, chunk))) break;
    }
  }
  auto r = p.Finish();
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : FileProfile{};
}

const ColumnProfile* Col(const FileProfile& p, const std::string& name) {
  for (const auto& c : p.columns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(Sniff, ByContentNotExtension) {
  EXPECT_EQ(SniffFormat("a,b,c\n1,2,3\n4,5,6\n", "rows.txt"), Format::kCsv);
  EXPECT_EQ(SniffFormat("{\"type\": \"FeatureCollection\", \"features\": []}", "data.txt"), Format::kGeoJson);
  EXPECT_EQ(SniffFormat("[{\"a\": 1}, {\"a\": 2}]", "x.csv"), Format::kJson);
  // Wikitext opens with brackets too; it is text, not malformed JSON.
  EXPECT_NE(SniffFormat("{{Infobox band|name=AC/DC}} AC/DC are a band.", "content.wikitext"), Format::kJson);
  EXPECT_NE(SniffFormat("[[Category:Stars]]\nAlpha", "x"), Format::kJson);
  EXPECT_EQ(SniffFormat("[[1, 2], [3]]", "x"), Format::kJson);
  EXPECT_EQ(SniffFormat("{ }", "x"), Format::kJson);
  EXPECT_EQ(SniffFormat("{\"a\": 1}\n{\"a\": 2}\n", "x"), Format::kJsonLines);
  EXPECT_EQ(SniffFormat("<!DOCTYPE html><html><body>x</body></html>", "a.txt"), Format::kHtml);
  EXPECT_EQ(SniffFormat("<?xml version=\"1.0\"?><root/>", "a.txt"), Format::kXml);
  EXPECT_EQ(SniffFormat("%PDF-1.4\n...", "x.txt"), Format::kPdf);
  EXPECT_EQ(SniffFormat("PK\x03\x04rest", "x.txt"), Format::kZip);
  EXPECT_EQ(SniffFormat(std::string("\x89PNG\r\n\x1a\n\0\0", 10), "x.txt"), Format::kBinary);
  EXPECT_EQ(SniffFormat(std::string("abc\0def", 7), "x.txt"), Format::kBinary);
  EXPECT_EQ(SniffFormat("This is a readme.\nIt has prose, and commas.\n", "readme.txt"), Format::kText);
  EXPECT_EQ(SniffFormat("", "x"), Format::kEmpty);
  EXPECT_EQ(SniffFormat("a;b;c\n1;2;3\n", "x"), Format::kCsv);
}

TEST(CsvProfile, DialectHeaderTypesSamples) {
  std::string csv =
      "Incident Number,Occurred Date,Occurred Year,Sector,Council District,Rate,Flag\r\n"
      "1001,01/05/2023,2023,Charlie,1,0.5,true\r\n"
      "1002,2023-02-11,2023,\"Adam, North\",2,1.25,false\r\n"
      "1003,03/07/2022,2022,Charlie,,3,true\r\n";
  FileProfile p = ProfileWhole(csv);
  EXPECT_EQ(p.format, Format::kCsv);
  EXPECT_EQ(p.delimiter, ',');
  EXPECT_TRUE(p.has_header);
  EXPECT_EQ(p.rows, 3u);
  EXPECT_TRUE(p.rows_exact);
  ASSERT_EQ(p.columns.size(), 7u);
  EXPECT_EQ(Col(p, "Incident Number")->type, "integer");
  EXPECT_EQ(Col(p, "Occurred Date")->type, "date");
  EXPECT_EQ(Col(p, "Sector")->type, "string");
  EXPECT_EQ(Col(p, "Sector")->samples, (std::vector<std::string>{"Charlie", "Adam, North"}));
  EXPECT_EQ(Col(p, "Council District")->non_empty, 2u);
  EXPECT_EQ(Col(p, "Rate")->type, "float");
  EXPECT_EQ(Col(p, "Flag")->type, "boolean");
  EXPECT_TRUE(p.warnings.empty());
}

TEST(CsvProfile, OtherDelimitersAndNoHeader) {
  FileProfile tsv = ProfileWhole("name\tcount\nx\t1\ny\t2\n");
  EXPECT_EQ(tsv.delimiter, '\t');
  EXPECT_EQ(tsv.rows, 2u);
  FileProfile semi = ProfileWhole("a;b;c\n1;2;3\n4;5;6\n");
  EXPECT_EQ(semi.delimiter, ';');
  FileProfile pipe = ProfileWhole("1|2|3\n4|5|6\n7|8|9\n");
  EXPECT_EQ(pipe.delimiter, '|');
  EXPECT_FALSE(pipe.has_header);
  EXPECT_EQ(pipe.rows, 3u);
  EXPECT_EQ(pipe.columns[0].name, "column1");
}

TEST(CsvProfile, EveryChunkBoundaryGivesTheSameProfile) {
  std::string csv =
      "id,text,\"quoted \"\"header\"\"\"\n"
      "1,\"multi\nline, with comma\",\"say \"\"hi\"\"\"\r\n"
      "2,plain,\"\"\n"
      "3,\"x\"\"\",end\r\n";
  FileProfile whole = ProfileWhole(csv);
  EXPECT_EQ(whole.rows, 3u);
  ASSERT_EQ(whole.columns.size(), 3u);
  EXPECT_EQ(whole.columns[2].name, "quoted \"header\"");
  EXPECT_EQ(whole.columns[1].samples[0], "multi\nline, with comma");
  EXPECT_EQ(whole.columns[2].samples[0], "say \"hi\"");
  for (size_t chunk : {1u, 2u, 3u, 5u, 7u}) {
    FileProfile p = ProfileWhole(csv, "rows.txt", chunk);
    EXPECT_EQ(p.ToJson(), whole.ToJson()) << "chunk " << chunk;
  }
}

TEST(CsvProfile, RaggedRowsAreWarningsNotErrors) {
  FileProfile p = ProfileWhole("a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n");
  EXPECT_EQ(p.rows, 4u);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("ragged rows: 2 of 4"), std::string::npos) << p.warnings[0];
}

TEST(CsvProfile, SamplesAreBoundedAndDistinct) {
  std::string csv = "k,v\n";
  for (int i = 0; i < 5000; ++i) csv += std::to_string(i % 100) + "," + std::string(500, 'x') + "\n";
  FileProfile p = ProfileWhole(csv);
  EXPECT_EQ(p.rows, 5000u);
  EXPECT_EQ(p.columns[0].samples.size(), 20u);
  EXPECT_EQ(p.columns[1].samples.size(), 1u);
  EXPECT_EQ(p.columns[1].samples[0].size(), 100u);
}

TEST(CsvProfile, HugeSingleLineStaysBounded) {
  // 256 MB on one line, fed in 1 MB chunks: the profile (and the profiler's buffers) stay small.
  Profiler p("rows.txt");
  std::string head = "a,b\n";
  p.Feed(head);
  std::string chunk(1 << 20, 'z');
  for (int i = 0; i < 256; ++i) p.Feed(chunk);
  p.Feed(",tail\n");
  auto r = p.Finish();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows, 1u);
  EXPECT_EQ(r->columns[1].samples, (std::vector<std::string>{"tail"}));
  EXPECT_LE(r->columns[0].samples[0].size(), 100u);
  EXPECT_LT(r->ToJson().dump().size(), 10000u);
  bool warned = false;
  for (auto& w : r->warnings) warned |= w.find("truncated for profiling") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(CsvProfile, RandomTablesMatchAReferenceRowCount) {
  std::mt19937 rng(12345);
  for (int t = 0; t < 50; ++t) {
    int cols = 2 + static_cast<int>(rng() % 5), rows = static_cast<int>(rng() % 200);
    std::string csv;
    for (int c = 0; c < cols; ++c) csv += (c ? "," : "") + std::string("h") + std::to_string(c);
    csv += "\n";
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        if (c) csv += ',';
        switch (rng() % 4) {
          case 0: csv += std::to_string(rng() % 1000); break;
          case 1: csv += "\"a,b\nc\""; break;
          case 2: csv += "\"q\"\"q\""; break;
          default: csv += "word"; break;
        }
      }
      csv += (rng() % 2) ? "\r\n" : "\n";
    }
    size_t chunk = 1 + rng() % 64;
    FileProfile p = ProfileWhole(csv, "t.csv", chunk);
    EXPECT_EQ(p.rows, static_cast<uint64_t>(rows)) << "table " << t;
    EXPECT_EQ(p.columns.size(), static_cast<size_t>(cols)) << "table " << t;
  }
}

TEST(CsvProfile, InvalidUtf8IsReadAsLatin1) {
  FileProfile p = ProfileWhole(
      "name,city\nJos\xE9,Montr\xE9"
      "al\nAnn,Paris\n");
  EXPECT_EQ(p.encoding, "latin-1");
  EXPECT_EQ(p.columns[0].samples[0], "Jos\xC3\xA9");
  EXPECT_EQ(p.rows, 2u);
}

TEST(CsvProfile, Utf16WithBom) {
  std::string utf8 = "a,b\n1,x\n2,y\n";
  std::string utf16 = "\xFF\xFE";
  for (char c : utf8) {
    utf16 += c;
    utf16 += '\0';
  }
  FileProfile p = ProfileWhole(utf16, "rows.txt", 3);
  EXPECT_EQ(p.encoding, "utf-16le");
  EXPECT_EQ(p.format, Format::kCsv);
  EXPECT_EQ(p.rows, 2u);
  EXPECT_EQ(p.columns[1].samples, (std::vector<std::string>{"x", "y"}));
}

TEST(JsonProfile, GeoJsonPropertiesBecomeColumns) {
  std::string g = R"({"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"NAME": "Travis", "POP": 1290188, "AREA": 1023.5},
     "geometry": {"type": "Point", "coordinates": [-97.7, 30.3]}},
    {"type": "Feature", "properties": {"NAME": "Hays", "POP": null, "AREA": 680},
     "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,1],[0,1],[0,0]]]}}]})";
  FileProfile p = ProfileWhole(g, "data.txt", 7);
  EXPECT_EQ(p.format, Format::kGeoJson);
  EXPECT_EQ(p.rows, 2u);
  ASSERT_NE(Col(p, "NAME"), nullptr);
  EXPECT_EQ(Col(p, "NAME")->samples, (std::vector<std::string>{"Travis", "Hays"}));
  EXPECT_EQ(Col(p, "POP")->type, "integer");
  EXPECT_EQ(Col(p, "POP")->non_empty, 1u);
  EXPECT_EQ(Col(p, "AREA")->type, "float");
  EXPECT_EQ(p.geometry_types.at("Point"), 1u);
  EXPECT_EQ(p.geometry_types.at("Polygon"), 1u);
  EXPECT_NE(std::find(p.json_paths.begin(), p.json_paths.end(), "features[].properties.NAME"),
            p.json_paths.end());
}

TEST(JsonProfile, ArraysJsonLinesAndTruncatedHeads) {
  FileProfile arr =
      ProfileWhole(R"([{"id": 1, "name": "a"}, {"id": 2, "name": "b", "extra": {"x": [1, 2]}}])");
  EXPECT_EQ(arr.format, Format::kJson);
  EXPECT_EQ(arr.rows, 2u);
  EXPECT_EQ(Col(arr, "id")->type, "integer");
  EXPECT_NE(std::find(arr.json_paths.begin(), arr.json_paths.end(), "[].extra.x"), arr.json_paths.end());

  FileProfile jl = ProfileWhole("{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": \"y\"}\n{\"a\": 3}\n");
  EXPECT_EQ(jl.format, Format::kJsonLines);
  EXPECT_EQ(jl.rows, 3u);
  EXPECT_EQ(Col(jl, "a")->non_empty, 3u);

  // A head read cut mid-document still yields keys; no "unclosed" warning since truncation was announced.
  std::string doc =
      R"({"meta": {"view": {"name": "Crimes", "columns": [{"fieldName": "sector"}]}}, "data": [[1, 2)";
  Profiler p("rows.json");
  p.Feed(doc);
  auto r = p.Finish(true);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->rows_exact);
  EXPECT_NE(std::find(r->json_paths.begin(), r->json_paths.end(), "meta.view.columns[].fieldName"),
            r->json_paths.end());
  EXPECT_TRUE(r->warnings.empty());
  // The same bytes as a complete file are reported as truncated JSON.
  FileProfile broken = ProfileWhole(doc, "x.json");
  EXPECT_NE(broken.corrupt.find("unclosed"), std::string::npos) << broken.corrupt;
  EXPECT_TRUE(r->corrupt.empty());
}

TEST(DocumentProfile, HtmlTextAndTitle) {
  FileProfile p = ProfileWhole(
      "<html><head><title>Austin Crime Report</title><style>p{}</style></head><body><h1>Summary</h1>"
      "<p>Crimes fell.</p><script>var x=1;</script></body></html>",
      "page.txt");
  EXPECT_EQ(p.format, Format::kHtml);
  EXPECT_NE(p.text_sample.find("Austin Crime Report"), std::string::npos);
  EXPECT_NE(p.text_sample.find("Crimes fell."), std::string::npos);
  EXPECT_EQ(p.text_sample.find("var x"), std::string::npos);
}

// A minimal valid PDF with one line of text, offsets computed so the xref table is exact.
std::string MakePdf(const std::string& text) {
  std::vector<std::string> objs = {"<< /Type /Catalog /Pages 2 0 R >>",
                                   "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                   "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R "
                                   "/Resources << /Font << /F1 5 0 R >> >> >>",
                                   "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
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
  pdf += "trailer\n<< /Size " + std::to_string(objs.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

TEST(DocumentProfile, PdfTextAndCorruptPdf) {
  if (std::system("command -v pdftotext >/dev/null 2>&1") != 0) GTEST_SKIP() << "pdftotext not installed";
  FileProfile p = ProfileWhole(MakePdf("Annual water quality report 2023"), "report.txt");
  EXPECT_EQ(p.format, Format::kPdf);
  EXPECT_NE(p.text_sample.find("Annual water quality report 2023"), std::string::npos) << p.text_sample;
  FileProfile bad = ProfileWhole("%PDF-1.4\nthis is not a pdf at all\n", "bad.pdf");
  EXPECT_EQ(bad.format, Format::kPdf);
  EXPECT_FALSE(bad.corrupt.empty());
}

using lakeqa::ingest::testing::MakeZip;  // tests/ingest/build_test_util.h

TEST(DocumentProfile, XlsxAndDocx) {
  std::string xlsx = MakeZip({
      {"[Content_Types].xml", "<Types/>"},
      {"xl/workbook.xml", R"(<workbook><sheets><sheet name="Schools" sheetId="1"/></sheets></workbook>)"},
      {"xl/sharedStrings.xml",
       R"(<sst><si><t>School</t></si><si><t>Score</t></si><si><t>P.S. 1</t></si><si><t>P.S. &amp; 2</t></si></sst>)"},
      {"xl/worksheets/sheet1.xml",
       R"(<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>)"
       R"(<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>87.5</v></c></row>)"
       R"(<row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3"><v>90</v></c></row></sheetData></worksheet>)"},
  });
  FileProfile x = ProfileWhole(xlsx, "School_Progress_Reports.xlsx");
  EXPECT_EQ(x.format, Format::kXlsx);
  EXPECT_EQ(x.rows, 2u);
  ASSERT_EQ(x.columns.size(), 2u);
  EXPECT_EQ(x.columns[0].name, "School");
  EXPECT_EQ(x.columns[0].samples, (std::vector<std::string>{"P.S. 1", "P.S. & 2"}));
  EXPECT_EQ(x.columns[1].type, "float");
  EXPECT_EQ(x.json_paths, (std::vector<std::string>{"sheet:Schools"}));

  std::string docx = MakeZip(
      {{"word/document.xml",
        R"(<w:document><w:body><w:p><w:r><w:t>Data dictionary</w:t></w:r></w:p>)"
        R"(<w:p><w:r><w:t xml:space="preserve">Column A: the year</w:t></w:r></w:p></w:body></w:document>)"}});
  FileProfile d = ProfileWhole(docx, "dictionary.docx");
  EXPECT_EQ(d.format, Format::kDocx);
  EXPECT_EQ(d.text_sample, "Data dictionary\nColumn A: the year");

  FileProfile corrupt = ProfileWhole(std::string("PK\x03\x04garbage-garbage-garbage", 25), "x.xlsx");
  EXPECT_FALSE(corrupt.corrupt.empty());
}

TEST(DocumentProfile, ZipBombIsBounded) {
  // 72 MiB of zeros (just over the 64 MiB per-entry cap) compress to ~70 KB; the profiler stops reading the
  // entry at its cap. Written in 1 MiB pieces so the test itself stays small.
  std::vector<char> buf(1 << 20);
  size_t used = 0;
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  archive_write_open_memory(a, buf.data(), buf.size(), &used);
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, "word/document.xml");
  archive_entry_set_size(e, la_int64_t{72} << 20);
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  archive_write_header(a, e);
  std::string zeros(1 << 20, '0');
  for (int i = 0; i < 72; ++i) archive_write_data(a, zeros.data(), zeros.size());
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
  std::string zip(buf.data(), used);
  ASSERT_LT(zip.size(), 1u << 20);
  FileProfile p = ProfileWhole(zip, "bomb.docx");
  bool capped = false;
  for (auto& w : p.warnings) capped |= w.find("zip bomb") != std::string::npos;
  EXPECT_TRUE(capped);
}

TEST(Profile, EmptyTextBinaryAndRoundTrip) {
  FileProfile e = ProfileWhole("");
  EXPECT_EQ(e.format, Format::kEmpty);
  EXPECT_EQ(e.rows, 0u);
  FileProfile t = ProfileWhole("Ridership readme\n\nThis dataset counts entries.\n", "ridershipreadme.txt");
  EXPECT_EQ(t.format, Format::kText);
  EXPECT_EQ(t.rows, 3u);
  EXPECT_NE(t.text_sample.find("Ridership readme"), std::string::npos);
  FileProfile b = ProfileWhole(std::string("\0\1\2\3\4binary", 11));
  EXPECT_EQ(b.format, Format::kBinary);
  FileProfile csv = ProfileWhole("a,b\n1,2\n");
  auto back = FileProfile::FromJson(csv.ToJson());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ToJson(), csv.ToJson());
  EXPECT_EQ(FileProfile::FromJson(Json{{"nope", 1}}).status().code(), ErrorCode::kCorrupt);
}

TEST(Profile, HeadModeThroughAStore) {
  auto dir = *MakeTempDir("lakeqa-prof-");
  lake::LocalStore store(dir);
  std::string csv = "year,value\n";
  for (int i = 0; i < 20000; ++i) csv += std::to_string(2000 + i % 20) + "," + std::to_string(i) + "\n";
  ASSERT_TRUE(store.Write("datagov/x/files/rows.txt", csv).ok());
  ProfileOptions head;
  head.max_bytes = 64 * 1024;
  auto h = ProfileObject(store, "datagov/x/files/rows.txt", head);
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(h->rows_exact);
  EXPECT_LT(h->rows, 20000u);
  EXPECT_EQ(h->bytes_read, 64u * 1024);
  auto full = ProfileObject(store, "datagov/x/files/rows.txt", ProfileOptions{});
  ASSERT_TRUE(full.ok());
  EXPECT_TRUE(full->rows_exact);
  EXPECT_EQ(full->rows, 20000u);
  EXPECT_EQ(ProfileObject(store, "datagov/missing", head).status().code(), ErrorCode::kNotFound);
  (void)RemoveAll(dir);
}

}  // namespace
}  // namespace lakeqa::ingest
