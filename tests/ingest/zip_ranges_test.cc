// Head profiles that see inside a zip larger than the head: the central directory read from the end of
// the object with ranged reads, then the workbook, shared strings and first sheet (ingest/zip_ranges.h).
// XLSX files are real: written by libarchive here, and by openpyxl when /usr/bin/python3 has it; read from
// a folder and through a real S3 server.
#include "ingest/zip_ranges.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "ingest/build_test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/profile.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/lake/s3_store.h"
#include "support/s3_server.h"

namespace lakeqa::ingest {
namespace {

using testing::MakeZip;
using testing::TempDir;

constexpr uint64_t kHead = 64 * 1024;

ProfileOptions Head() {
  ProfileOptions o;
  o.max_bytes = kHead;
  return o;
}

// A workbook of two sheets whose first sheet has 20,000 rows of pseudo-random numbers: its zip is several
// times the 64 KiB head, and the sheet is far past it.
constexpr uint64_t kRows = 20000;

std::string BigXlsx() {
  std::mt19937 rng(7);
  std::ostringstream sheet;
  sheet
      << R"(<worksheet><dimension ref="A1:D20001"/><sheetData>)"
      << R"(<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>)"
      << R"(<c r="D1" t="inlineStr"><is><t>Tumor_purity</t></is></c></row>)";
  for (uint64_t r = 2; r <= kRows + 1; ++r) {
    sheet << "<row r=\"" << r << "\"><c r=\"A" << r << "\" t=\"s\"><v>" << 3 + r % 3 << "</v></c><c r=\"B"
          << r << "\"><v>" << rng() % 100000 << "</v></c><c r=\"C" << r << "\"><v>"
          << (rng() % 1000000) / 1000.0 << "</v></c><c r=\"D" << r << "\"><v>0." << rng() % 1000000
          << "</v></c></row>";
  }
  sheet << "</sheetData></worksheet>";
  return MakeZip({
      {"[Content_Types].xml", "<Types/>"},
      {"xl/workbook.xml",
       R"(<workbook><sheets><sheet name="UCEC_meta_table" sheetId="1"/><sheet name="Notes &amp; legend" sheetId="2"/></sheets></workbook>)"},
      {"xl/worksheets/sheet1.xml", sheet.str()},
      {"xl/worksheets/sheet2.xml",
       R"(<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>6</v></c></row></sheetData></worksheet>)"},
      {"xl/sharedStrings.xml",
       "<sst><si><t>Proteomics_Participant_ID</t></si><si><t>Age</t></si><si><t>Histologic_Grade_FIGO</t></"
       "si>"
       "<si><t>Serous</t></si><si><t>Endometrioid</t></si><si><t>Clear "
       "cell</t></si><si><t>legend</t></si></sst>"},
  });
}

std::vector<std::string> Names(const FileProfile& p) {
  std::vector<std::string> out;
  for (const auto& c : p.columns) out.push_back(c.name);
  return out;
}

const std::vector<std::string> kHeader = {"Proteomics_Participant_ID", "Age", "Histologic_Grade_FIGO",
                                          "Tumor_purity"};

TEST(ZipRanges, HeadProfileOfALargeXlsxHasItsSheetsAndColumns) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  std::string xlsx = BigXlsx();
  ASSERT_GT(xlsx.size(), 4 * kHead);
  ASSERT_TRUE(store.Write("kb/mmc1/mmc1.xlsx", xlsx).ok());

  HeadRead read;
  auto p = ProfileHead(store, "kb/mmc1/mmc1.xlsx", xlsx.size(), "mmc1.xlsx", Head(), &read);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->format, Format::kXlsx);
  EXPECT_EQ(Names(*p), kHeader);
  EXPECT_EQ(p->json_paths, (std::vector<std::string>{"sheet:UCEC_meta_table", "sheet:Notes & legend"}));
  // Only a prefix of the sheet was read: a lower bound, said as such.
  EXPECT_FALSE(p->rows_exact);
  EXPECT_GT(p->rows, 100u);
  EXPECT_LT(p->rows, kRows);
  EXPECT_EQ(p->columns[0].samples.front(), "Clear cell");  // row 2: 3 + 2 % 3 = 5
  EXPECT_EQ(p->columns[1].type, "integer");
  // The head, the tail with the directory, workbook, shared strings and sheet: five reads, well under the
  // file.
  EXPECT_EQ(read.requests, 5u);
  EXPECT_EQ(p->bytes_read, read.bytes_read);
  EXPECT_LT(read.bytes_read, xlsx.size());

  // The full profile agrees on what the head profile holds, and counts every row.
  ProfileOptions full;
  auto f = ProfileObject(store, "kb/mmc1/mmc1.xlsx", full);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Names(*f), kHeader);
  EXPECT_EQ(f->json_paths, p->json_paths);
  EXPECT_TRUE(f->rows_exact);
  EXPECT_EQ(f->rows, kRows);
}

TEST(ZipRanges, SmallerThanTheHeadIsProfiledFromTheHeadAlone) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  std::string xlsx = testing::MakeXlsx();
  ASSERT_LT(xlsx.size(), kHead);
  ASSERT_TRUE(store.Write("a/b/x.xlsx", xlsx).ok());
  HeadRead read;
  auto p = ProfileHead(store, "a/b/x.xlsx", xlsx.size(), "x.xlsx", Head(), &read);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(read.requests, 1u);
  EXPECT_EQ(p->format, Format::kXlsx);
  EXPECT_EQ(Names(*p), (std::vector<std::string>{"city", "pop"}));
  EXPECT_TRUE(p->rows_exact);
}

TEST(ZipRanges, LargeDocxAndPlainZip) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  std::mt19937 rng(3);
  std::string noise;
  for (int i = 0; i < 40000; ++i) noise += std::to_string(rng()) + " ";
  std::string docx = MakeZip({{"word/document.xml",
                               "<w:document><w:body><w:p><w:r><w:t>Data dictionary of the "
                               "beach water survey</w:t></w:r></w:p><w:p><w:r><w:t>" +
                                   noise + "</w:t></w:r></w:p></w:body></w:document>"}});
  ASSERT_GT(docx.size(), kHead);
  ASSERT_TRUE(store.Write("a/b/dict.docx", docx).ok());
  auto d = ProfileHead(store, "a/b/dict.docx", docx.size(), "dict.docx", Head());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->format, Format::kDocx);
  EXPECT_EQ(d->text_sample.rfind("Data dictionary of the beach water survey", 0), 0u)
      << d->text_sample.substr(0, 80);

  std::vector<std::pair<std::string, std::string>> entries = {
      {"a.bin", noise}, {"arrays/lat.npy", "x"}, {"arrays/lon.npy", "y"}};
  std::string zip = MakeZip(entries);
  ASSERT_TRUE(store.Write("a/b/grid.npz", zip).ok());
  auto z = ProfileHead(store, "a/b/grid.npz", zip.size(), "grid.npz", Head());
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->format, Format::kZip);
  // The entries after the head, too: they come from the central directory.
  EXPECT_EQ(z->json_paths, (std::vector<std::string>{"a.bin", "arrays/lat.npy", "arrays/lon.npy"}));
}

TEST(ZipRanges, BrokenZipsKeepTheHeadProfileWithAReason) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  std::string xlsx = BigXlsx();
  // Cut: the end record is gone.
  std::string cut = xlsx.substr(0, xlsx.size() - 5000);
  ASSERT_TRUE(store.Write("a/b/cut.xlsx", cut).ok());
  auto p = ProfileHead(store, "a/b/cut.xlsx", cut.size(), "cut.xlsx", Head());
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->columns.empty());
  ASSERT_FALSE(p->warnings.empty());
  EXPECT_NE(p->warnings.back().find("no end of central directory record"), std::string::npos)
      << p->warnings.back();

  // A directory offset that points past the end (a hostile or damaged end record).
  std::string bad = xlsx;
  size_t eocd = bad.rfind("PK\x05\x06");
  ASSERT_NE(eocd, std::string::npos);
  bad[eocd + 16] = bad[eocd + 17] = bad[eocd + 18] = static_cast<char>(0x7f);
  ASSERT_TRUE(store.Write("a/b/bad.xlsx", bad).ok());
  auto b = ProfileHead(store, "a/b/bad.xlsx", bad.size(), "bad.xlsx", Head());
  ASSERT_TRUE(b.ok());
  EXPECT_NE(b->warnings.back().find("lies outside"), std::string::npos) << b->warnings.back();

  // Garbage after a zip signature, larger than the head.
  std::string junk = "PK\x03\x04" + std::string(100000, 'z');
  ASSERT_TRUE(store.Write("a/b/junk.zip", junk).ok());
  auto j = ProfileHead(store, "a/b/junk.zip", junk.size(), "junk.zip", Head());
  ASSERT_TRUE(j.ok());
  EXPECT_FALSE(j->warnings.empty());

  // A corrupt deflate stream in the sheet: the workbook still names the sheets, the sheet is a warning.
  std::string dam = xlsx;
  auto z = RangedZip::Open(store, "kb/none", 0);
  EXPECT_FALSE(z.ok());
  ASSERT_TRUE(store.Write("a/b/dam.xlsx", dam).ok());
  auto zz = RangedZip::Open(store, "a/b/dam.xlsx", dam.size());
  ASSERT_TRUE(zz.ok());
  const ZipEntry* sheet = zz->Find("xl/worksheets/sheet1.xml");
  ASSERT_NE(sheet, nullptr);
  for (uint64_t i = sheet->offset + 200; i < sheet->offset + 400; ++i) dam[i] = static_cast<char>(0xff);
  ASSERT_TRUE(store.Write("a/b/dam.xlsx", dam).ok());
  auto d = ProfileHead(store, "a/b/dam.xlsx", dam.size(), "dam.xlsx", Head());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->format, Format::kXlsx);
  EXPECT_EQ(d->json_paths.size(), 2u);
  bool said = false;
  for (const auto& w : d->warnings) said |= w.find("xl/worksheets/sheet1.xml") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(ZipRanges, ThroughTheS3ServerAsFromAFolder) {
  auto server = lakeqa::testing::S3TestServer::Start({"lake"});
  if (!server.ok()) GTEST_SKIP() << server.status().ToString();
  lake::S3Options so;
  so.endpoint = (*server)->endpoint();
  so.access_key = lakeqa::testing::S3TestServer::kAccessKey;
  so.secret_key = lakeqa::testing::S3TestServer::kSecretKey;
  lake::S3Store s3("lake", "mirror", so);
  TempDir dir;
  lake::LocalStore local(dir.path());
  std::string xlsx = BigXlsx();
  ASSERT_TRUE(s3.Write("kb/mmc1/mmc1.xlsx", xlsx).ok());
  ASSERT_TRUE(local.Write("kb/mmc1/mmc1.xlsx", xlsx).ok());
  HeadRead rs, rl;
  auto a = ProfileHead(s3, "kb/mmc1/mmc1.xlsx", xlsx.size(), "mmc1.xlsx", Head(), &rs);
  auto b = ProfileHead(local, "kb/mmc1/mmc1.xlsx", xlsx.size(), "mmc1.xlsx", Head(), &rl);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Names(*a), kHeader);
  EXPECT_EQ(a->ToJson(), b->ToJson());
  EXPECT_EQ(rs.requests, rl.requests);
  EXPECT_EQ(rs.bytes_read, rl.bytes_read);
}

// A workbook as Excel users make them, written by openpyxl (wider than the head, shared strings, styles).
TEST(ZipRanges, OpenpyxlWorkbook) {
  if (std::system("/usr/bin/python3 -c 'import openpyxl' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no openpyxl (apt-get install python3-openpyxl)";
  TempDir dir;
  std::string script = dir.path() + "/make.py";
  {
    std::ofstream f(script);
    f << "import random, sys, openpyxl\n"
         "random.seed(5)\n"
         "wb = openpyxl.Workbook()\n"
         "ws = wb.active\n"
         "ws.title = 'CPTAC3 clinical'\n"
         "ws.append(['idx', 'Proteomics_Participant_ID', 'Histologic_type', 'FIGO_stage', 'Age', 'BMI'])\n"
         "for i in range(6000):\n"
         "    ws.append([i, 'C3L-%05d' % random.randrange(99999), random.choice(['Serous', "
         "'Endometrioid']),\n"
         "               random.choice(['IA', 'IB', 'II', 'IIIA']), random.randrange(30, 90), "
         "random.random() * 40])\n"
         "wb.create_sheet('Legend').append(['term', 'meaning'])\n"
         "wb.save(sys.argv[1])\n";
  }
  std::string out = dir.path() + "/lake/kb/clinical/clinical.xlsx";
  ASSERT_TRUE(MakeDirs(dir.path() + "/lake/kb/clinical").ok());
  ASSERT_EQ(std::system(("/usr/bin/python3 " + script + " " + out).c_str()), 0);
  lake::LocalStore store(dir.path() + "/lake");
  auto info = store.Stat("kb/clinical/clinical.xlsx");
  ASSERT_TRUE(info.ok());
  ASSERT_GT(info->size, kHead);
  auto p = ProfileHead(store, "kb/clinical/clinical.xlsx", info->size, "clinical.xlsx", Head());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->format, Format::kXlsx);
  EXPECT_EQ(Names(*p), (std::vector<std::string>{"idx", "Proteomics_Participant_ID", "Histologic_type",
                                                 "FIGO_stage", "Age", "BMI"}));
  EXPECT_EQ(p->json_paths, (std::vector<std::string>{"sheet:CPTAC3 clinical", "sheet:Legend"}));
  EXPECT_FALSE(p->rows_exact);
  auto f = ProfileObject(store, "kb/clinical/clinical.xlsx", ProfileOptions{});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->rows, 6000u);
  EXPECT_EQ(Names(*f), Names(*p));
}

// KramaBench's biomedical workbook (shared data): 196 KB, one sheet of 179 columns.
TEST(ZipRanges, KramaBenchBiomedicalWorkbook) {
  std::string path = "../shared/data/kramabench/data/biomedical/input";
  for (std::string up : {"", "../", "../../", "../../../"}) {
    if (PathExists(up + path)) {
      path = up + path;
      break;
    }
  }
  if (!PathExists(path)) GTEST_SKIP() << "../shared/data/kramabench is absent";
  lake::LocalStore store(path);
  const std::string key = "1-s2.0-S0092867420301070-mmc1.xlsx";
  auto info = store.Stat(key);
  ASSERT_TRUE(info.ok());
  ASSERT_GT(info->size, kHead);
  auto p = ProfileHead(store, key, info->size, key, Head());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->json_paths, (std::vector<std::string>{"sheet:UCEC_CPTAC3_meta_table_V2.1"}));
  auto f = ProfileObject(store, key, ProfileOptions{});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Names(*p), Names(*f));
  EXPECT_GT(p->columns.size(), 100u);
  bool figo = false;
  for (const auto& n : Names(*p)) figo |= n == "Histologic_Grade_FIGO";
  EXPECT_TRUE(figo);
}

}  // namespace
}  // namespace lakeqa::ingest
