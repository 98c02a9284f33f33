// datagov: CKAN records with their resources → datasets; conversions (PDF, HTML, XLSX, DOCX), dropped
// binaries, deduplication, and the bad inputs (encrypted/corrupt PDF, zip bomb, bad JSON) as report lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "ingest/build_test_util.h"
#include "lakeqa/ingest/build.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::ingest {
namespace {

using namespace testing;

bool Has(const std::vector<ReportItem>& items, std::string_view item, std::string_view reason_part) {
  return std::any_of(items.begin(), items.end(), [&](const ReportItem& i) {
    return i.item.find(item) != std::string::npos && i.reason.find(reason_part) != std::string::npos;
  });
}

TEST(Ooxml, XlsxSheetsToCsvAndDocxToText) {
  auto sheets = XlsxToCsv(MakeXlsx(), 1 << 20);
  ASSERT_TRUE(sheets.ok()) << sheets.status().ToString();
  ASSERT_EQ(sheets->size(), 1u);
  EXPECT_EQ((*sheets)[0].name, "Data");
  EXPECT_EQ((*sheets)[0].csv, "city,pop\n\"Ames, IA\",,66000\nInline & co,TRUE\n");
  auto text = DocxToText(MakeDocx(), 1 << 20);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(NormalizeWhitespace(*text), "Water quality report\nSite | pH\nEnd & notes");
  EXPECT_EQ(OoxmlKind(MakeXlsx()), "xlsx");
  EXPECT_EQ(OoxmlKind(MakeDocx()), "docx");
  EXPECT_EQ(OoxmlKind(MakeZip({{"a.txt", "x"}})), "");
}

TEST(Ooxml, ZipBombIsBounded) {
  std::string bomb = MakeZip(
      {{"[Content_Types].xml", "wordprocessingml"}, {"word/document.xml", std::string(8u << 20, '\0')}});
  EXPECT_LT(bomb.size(), 100000u);
  auto text = DocxToText(bomb, 1 << 20);
  EXPECT_EQ(text.status().code(), ErrorCode::kResourceExhausted);
  auto corrupt = XlsxToCsv(std::string("PK\x03\x04garbage-garbage-garbage", 25), 1 << 20);
  EXPECT_FALSE(corrupt.ok());
}

TEST(NormalizeWhitespace, CollapsesSpacesAndBlankLines) {
  EXPECT_EQ(NormalizeWhitespace("  a \t b  \r\n\n\n\nc\f\n\n"), "a b\n\nc");
}

TEST(DatagovBuild, RecordsResourcesConversionsAndBadInput) {
  if (std::system("command -v pdftotext >/dev/null 2>&1") != 0) GTEST_SKIP() << "pdftotext not installed";
  TempDir t;
  std::string src = t.path() + "/src";
  ASSERT_TRUE(MakeDirs(src + "/water-quality/sub").ok());
  ASSERT_TRUE(MakeDirs(src + "/b1").ok());
  WriteBytes(src + "/water-quality.json",
             R"({"help": "package_show", "success": true, "result": {"name": "water-quality", "id": "wq1",
                 "title": "Water quality", "resources": [{"url": "https://x/report.pdf"}]}})");
  std::string dir = src + "/water-quality/";
  WriteBytes(dir + "report.pdf", MakePdf("Annual water quality report 2023"));
  WriteBytes(dir + "locked.pdf", MakePdf("secret", true));
  WriteBytes(dir + "broken.pdf", "%PDF-1.4\nthis is not a pdf at all\n");
  WriteBytes(dir + "page.html",
             "<html><head><title>Station list</title><script>var x=1;</script></head><body><h1>Stations</h1>"
             "<p>North   station</p><p>South station</p></body></html>");
  WriteBytes(dir + "data.csv", "site,ph\nA,7.1\n");
  WriteBytes(dir + "sub/copy-of-data.csv", "site,ph\nA,7.1\n");
  WriteBytes(dir + "photo.png", "\x89PNG\r\n\x1a\nrest-of-image");
  WriteBytes(dir + "blob.bin", std::string("\x01\x02\0\0binary", 10));
  WriteBytes(dir + "table.xlsx", MakeXlsx());
  WriteBytes(dir + "memo.docx", MakeDocx());
  WriteBytes(dir + "bomb.docx", MakeZip({{"[Content_Types].xml", "wordprocessingml"},
                                         {"word/document.xml", std::string(4u << 20, ' ')}}));
  WriteBytes(src + "/more.jsonl",
             "{\"name\": \"budget\", \"id\": \"b1\", \"title\": \"Budget\"}\n{not json\n"
             "{\"id\": \"nofiles\", \"title\": \"No files\"}\n[1, 2]\n");
  WriteBytes(src + "/b1/sheet.csv", "year,amount\n2024,5\n");
  WriteBytes(src + "/readme.md", "not a record");

  auto store = lake::OpenStore(t.path() + "/lake");
  ASSERT_TRUE(store.ok());
  BuildOptions o;
  o.jobs = 2;
  o.max_converted_bytes = 1 << 20;
  auto r = BuildLake(**store, SourceSpec{"datagov", src}, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string lake = t.path() + "/lake/datagov/";
  EXPECT_EQ(Walk(lake), (std::vector<std::string>{
                            "budget/files/sheet.csv", "budget/metadata.json", "nofiles/metadata.json",
                            "water-quality/files/data.csv", "water-quality/files/memo.txt",
                            "water-quality/files/page.txt", "water-quality/files/report.txt",
                            "water-quality/files/table.csv", "water-quality/metadata.json"}))
      << r->ToJson().dump(2);
  Json m = SlurpJson(lake + "water-quality/metadata.json");
  EXPECT_EQ(m["title"], "Water quality");
  EXPECT_EQ(m["id"], "wq1");
  EXPECT_NE(Slurp(lake + "water-quality/files/report.txt").find("Annual water quality report 2023"),
            std::string::npos);
  std::string page = Slurp(lake + "water-quality/files/page.txt");
  EXPECT_NE(page.find("Stations"), std::string::npos) << page;
  EXPECT_NE(page.find("North station"), std::string::npos) << page;
  EXPECT_EQ(page.find("var x"), std::string::npos) << page;
  EXPECT_EQ(Slurp(lake + "water-quality/files/table.csv"),
            "city,pop\n\"Ames, IA\",,66000\nInline & co,TRUE\n");
  EXPECT_EQ(Slurp(lake + "water-quality/files/memo.txt"), "Water quality report\nSite | pH\nEnd & notes\n");

  EXPECT_EQ(r->datasets.at("dataset"), 2u);
  EXPECT_EQ(r->datasets.at("dataset_without_files"), 1u);
  EXPECT_EQ(r->duplicate_files, 1u);
  EXPECT_TRUE(Has(r->skipped, "water-quality/sub/copy-of-data.csv",
                  "identical content already written as files/data.csv"));
  EXPECT_TRUE(Has(r->skipped, "water-quality/photo.png", "image dropped"));
  EXPECT_TRUE(Has(r->skipped, "water-quality/blob.bin", "binary file dropped"));
  EXPECT_TRUE(Has(r->skipped, "readme.md", "not a record"));
  EXPECT_TRUE(Has(r->errors, "water-quality/locked.pdf", "PDF")) << r->ToJson().dump(2);
  EXPECT_TRUE(Has(r->errors, "water-quality/broken.pdf", "corrupt PDF"));
  EXPECT_TRUE(Has(r->errors, "water-quality/bomb.docx", "zip expands beyond"));
  EXPECT_TRUE(Has(r->errors, "more.jsonl:2", "parse_error"));
  EXPECT_TRUE(Has(r->errors, "more.jsonl:4", "not a CKAN package record"));
  EXPECT_EQ(r->errors_total, 5u);
}

}  // namespace
}  // namespace lakeqa::ingest
