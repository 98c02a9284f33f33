// Edge cases of the profiler: every chunk split, header and type detection, encodings without a BOM,
// JSON escapes and malformed JSON, XML paths, spreadsheets without cell references, bounded memory on
// hostile single-line files, and the child-process runner behind PDF extraction.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "ingest/build_test_util.h"
#include "ingest/subprocess.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/profile.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::ingest {
namespace {

FileProfile ProfileBytes(std::string_view data, std::string_view name = "file.txt", size_t chunk = 0,
                         bool truncated = false) {
  Profiler p(name);
  if (chunk == 0) {
    p.Feed(data);
  } else {
    for (size_t i = 0; i < data.size(); i += chunk) {
      if (!p.Feed(data.substr(i, chunk))) break;
    }
  }
  auto r = p.Finish(truncated);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : FileProfile{};
}

const ColumnProfile* Col(const FileProfile& p, const std::string& name) {
  for (const auto& c : p.columns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

bool HasPath(const FileProfile& p, const std::string& path) {
  return std::find(p.json_paths.begin(), p.json_paths.end(), path) != p.json_paths.end();
}

bool Warned(const FileProfile& p, const std::string& what) {
  for (const auto& w : p.warnings) {
    if (w.find(what) != std::string::npos) return true;
  }
  return false;
}

std::string ToUtf16(std::string_view ascii, bool little_endian) {
  std::string out;
  for (char c : ascii) {
    if (little_endian) {
      out += c;
      out += '\0';
    } else {
      out += '\0';
      out += c;
    }
  }
  return out;
}

TEST(CsvEdges, EverySplitPointGivesTheSameProfile) {
  std::string csv =
      "id;\"na;me\";note\r\n"
      "1;\"a \"\"quoted\"\" word\";\"line1\r\nline2\"\r\n"
      "2;\"\";\"x;y\"\n"
      "3;plain;\"\"\"\"\r\n";
  FileProfile whole = ProfileBytes(csv, "rows.txt");
  ASSERT_EQ(whole.format, Format::kCsv);
  EXPECT_EQ(whole.delimiter, ';');
  EXPECT_EQ(whole.rows, 3u);
  ASSERT_EQ(whole.columns.size(), 3u);
  EXPECT_EQ(whole.columns[1].name, "na;me");
  EXPECT_EQ(whole.columns[1].samples, (std::vector<std::string>{"a \"quoted\" word", "plain"}));
  EXPECT_EQ(whole.columns[2].samples, (std::vector<std::string>{"line1\r\nline2", "x;y", "\""}));
  Json expected = whole.ToJson();
  // Two chunks split at every byte, and one byte at a time.
  for (size_t cut = 0; cut <= csv.size(); ++cut) {
    Profiler p("rows.txt");
    p.Feed(std::string_view(csv).substr(0, cut));
    p.Feed(std::string_view(csv).substr(cut));
    auto r = p.Finish();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->ToJson(), expected) << "split at " << cut;
  }
  EXPECT_EQ(ProfileBytes(csv, "rows.txt", 1).ToJson(), expected);
}

TEST(CsvEdges, RandomTablesAreChunkingInvariant) {
  std::mt19937 rng(777);
  const char* values[] = {"12", "-3.5", "\"a,b\"", "\"q\"\"\"", "\"multi\nline\"", "", "2023-01-02", "x y"};
  for (int t = 0; t < 30; ++t) {
    std::string csv = "c1,c2,c3\n";
    int rows = static_cast<int>(rng() % 60);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < 3; ++c) csv += std::string(c ? "," : "") + values[rng() % 8];
      csv += rng() % 3 == 0 ? "\r\n" : "\n";
    }
    Json whole = ProfileBytes(csv, "t.csv").ToJson();
    EXPECT_EQ(whole["rows"], rows) << csv;
    EXPECT_EQ(ProfileBytes(csv, "t.csv", 1 + rng() % 13).ToJson(), whole) << "table " << t;
  }
}

TEST(CsvEdges, HeaderDetection) {
  // Names over numbers: a header.
  EXPECT_TRUE(ProfileBytes("city,population\nAustin,961855\nDallas,1304379\n").has_header);
  // All strings, but the first row never reappears as data and the table is consistent: a header.
  FileProfile names = ProfileBytes("first,last\nAda,Lovelace\nAlan,Turing\n");
  EXPECT_TRUE(names.has_header);
  EXPECT_EQ(names.columns[0].name, "first");
  // All numbers: no header, every line is a row.
  FileProfile nums = ProfileBytes("1,2\n3,4\n5,6\n");
  EXPECT_FALSE(nums.has_header);
  EXPECT_EQ(nums.rows, 3u);
  EXPECT_EQ(nums.columns[1].name, "column2");
  // A first row that repeats as a value below it is data.
  FileProfile rep = ProfileBytes("x,y\nx,y\nz,w\n");
  EXPECT_FALSE(rep.has_header);
  EXPECT_EQ(rep.rows, 3u);
}

TEST(CsvEdges, ColumnTypes) {
  FileProfile p = ProfileBytes(
      "i,f,b,d,us,dt,mixed,sep,code,blank\n"
      "1,1.5,true,2023-01-31,01/31/2023,2023-01-31T10:00:00,1,\"1,234\",007,\n"
      "-2,2e3,FALSE,2024-12-01,1/2/2024,2023-02-01 09:30,x,\"12,345,678\",008,\n"
      "3,4,True,1999-07-04,12/25/1999,2023-03-01T00:00Z,2.5,5,009,\n");
  EXPECT_EQ(Col(p, "i")->type, "integer");
  EXPECT_EQ(Col(p, "f")->type, "float");
  EXPECT_EQ(Col(p, "b")->type, "boolean");
  EXPECT_EQ(Col(p, "d")->type, "date");
  EXPECT_EQ(Col(p, "us")->type, "date");
  EXPECT_EQ(Col(p, "dt")->type, "datetime");
  EXPECT_EQ(Col(p, "mixed")->type, "string");
  EXPECT_EQ(Col(p, "sep")->type, "integer");
  EXPECT_EQ(Col(p, "code")->type, "string");  // leading zeros: an identifier, not a number
  EXPECT_EQ(Col(p, "blank")->type, "empty");
  EXPECT_EQ(Col(p, "blank")->non_empty, 0u);
}

TEST(CsvEdges, InvalidUtf8AfterTheHeadIsSanitized) {
  // The head is valid UTF-8, so the file is read as UTF-8; a broken byte later must not leak into samples.
  std::string csv = "name,n\n";
  for (int i = 0; i < 4000; ++i)
    csv += "plain value " + std::to_string(i % 5) + "," + std::to_string(i) + "\n";
  csv += "bad \xC3\x28 value,1\n";
  ProfileOptions opt;
  opt.max_samples_per_column = 10;
  Profiler p("rows.txt", opt);
  p.Feed(csv);
  auto r = p.Finish();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->encoding, "utf-8");
  EXPECT_EQ(r->rows, 4001u);
  ASSERT_EQ(r->columns[0].samples.size(), 6u);
  for (const auto& s : r->columns[0].samples) EXPECT_TRUE(IsValidUtf8(s)) << s;
  EXPECT_TRUE(IsValidUtf8(r->ToJson().dump()));
}

TEST(CsvEdges, RaggedHeaderWithMoreFieldsThanColumnsIsBounded) {
  // A first line of 2 million fields: only max_columns are kept, and later rows are not all "ragged".
  ProfileOptions opt;
  opt.max_columns = 8;
  Profiler p("wide.csv", opt);
  for (int rep = 0; rep < 2000; ++rep) {
    std::string line;
    for (int i = 0; i < 1000; ++i) line += "h" + std::to_string(rep * 1000 + i) + ",";
    p.Feed(line);
  }
  p.Feed("last\n");
  size_t peak = p.BufferedBytes();
  std::string row;
  for (int i = 0; i < 2000000; ++i) row += i ? ",1" : "1";
  p.Feed(row + "\n");
  auto r = p.Finish();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->columns.size(), 8u);
  EXPECT_EQ(r->rows, 1u);
  EXPECT_LT(peak, 1u << 20);
  EXPECT_TRUE(Warned(*r, "only the first 8 of 2000001 columns")) << r->ToJson().dump();
  EXPECT_TRUE(Warned(*r, "ragged rows: 1 of 1"));
}

TEST(Memory, TwoHundredMegabyteSingleLinesStayBounded) {
  std::string chunk(1 << 20, 'q');
  // CSV: one field of 200 MB.
  {
    Profiler p("rows.txt");
    p.Feed("id,blob\n7,");
    size_t peak = 0;
    for (int i = 0; i < 200; ++i) {
      p.Feed(chunk);
      peak = std::max(peak, p.BufferedBytes());
    }
    p.Feed("\n");
    auto r = p.Finish();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->format, Format::kCsv);
    EXPECT_EQ(r->rows, 1u);
    EXPECT_EQ(r->bytes_read, 200u * (1u << 20) + 11);
    EXPECT_LT(peak, 256u << 10) << "profiler holds " << peak << " bytes";
  }
  // JSON Lines whose second record carries a 200 MB string.
  {
    Profiler p("data.txt");
    p.Feed("{\"k\": 1, \"s\": \"short\"}\n{\"k\": 2, \"s\": \"");
    size_t peak = 0;
    for (int i = 0; i < 200; ++i) {
      p.Feed(chunk);
      peak = std::max(peak, p.BufferedBytes());
    }
    p.Feed("\"}\n");
    auto r = p.Finish();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->format, Format::kJsonLines);
    EXPECT_EQ(r->rows, 2u);
    EXPECT_TRUE(r->corrupt.empty()) << r->corrupt;
    ASSERT_NE(Col(*r, "s"), nullptr);
    EXPECT_LE(Col(*r, "s")->samples.back().size(), 100u);
    EXPECT_LT(peak, 256u << 10) << "profiler holds " << peak << " bytes";
  }
  // Plain text: a 200 MB line.
  {
    Profiler p("notes.txt");
    p.Feed("A readme line.\n");
    size_t peak = 0;
    std::string words(1 << 20, ' ');
    for (size_t j = 0; j < words.size(); j += 5) words[j] = 'w';
    for (int i = 0; i < 200; ++i) {
      p.Feed(words);
      peak = std::max(peak, p.BufferedBytes());
    }
    auto r = p.Finish();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->format, Format::kText);
    EXPECT_EQ(r->rows, 2u);
    EXPECT_LE(r->text_sample.size(), 2000u);
    EXPECT_LT(peak, 256u << 10) << "profiler holds " << peak << " bytes";
  }
}

TEST(Encodings, Utf16WithoutBom) {
  FileProfile le = ProfileBytes(ToUtf16("name,score\nAda,1\nAlan,2\n", true), "rows.txt", 5);
  EXPECT_EQ(le.encoding, "utf-16le");
  EXPECT_EQ(le.format, Format::kCsv);
  EXPECT_EQ(le.rows, 2u);
  ASSERT_NE(Col(le, "name"), nullptr);
  EXPECT_EQ(Col(le, "name")->samples, (std::vector<std::string>{"Ada", "Alan"}));
  FileProfile be = ProfileBytes(ToUtf16("[{\"a\": 1}, {\"a\": 2}]", false), "x.json");
  EXPECT_EQ(be.encoding, "utf-16be");
  EXPECT_EQ(be.format, Format::kJson);
  EXPECT_EQ(be.rows, 2u);
  // UTF-16 JSON with a BOM is sniffed on its converted text as well.
  FileProfile bom = ProfileBytes(
      "\xFF\xFE" + ToUtf16("{\"type\": \"FeatureCollection\", \"features\": []}", true), "data.txt");
  EXPECT_EQ(bom.format, Format::kGeoJson);
  // A UTF-8 BOM is not part of the first column's name.
  FileProfile u8 = ProfileBytes("\xEF\xBB\xBFid,v\n1,2\n", "rows.txt", 1);
  EXPECT_EQ(u8.encoding, "utf-8-bom");
  ASSERT_FALSE(u8.columns.empty());
  EXPECT_EQ(u8.columns[0].name, "id");
}

TEST(JsonEdges, EscapesAreDecoded) {
  FileProfile p = ProfileBytes(
      R"([{"name": "Jos\u00e9", "emoji": "\ud83d\ude00", "q": "a\"b\\c\/d", "lone": "\ud800x"}])", "x.json",
      3);
  EXPECT_TRUE(p.corrupt.empty()) << p.corrupt;
  EXPECT_EQ(Col(p, "name")->samples[0], "Jos\xC3\xA9");
  EXPECT_EQ(Col(p, "emoji")->samples[0], "\xF0\x9F\x98\x80");
  EXPECT_EQ(Col(p, "q")->samples[0], "a\"b\\c/d");
  EXPECT_EQ(Col(p, "lone")->samples[0], "\xEF\xBF\xBDx");
}

TEST(JsonEdges, MalformedJsonIsCorruptWithAPosition) {
  FileProfile unquoted = ProfileBytes("{\"a\": 1, b: 2}", "x.json");
  EXPECT_NE(unquoted.corrupt.find("expected a quoted key"), std::string::npos) << unquoted.corrupt;
  EXPECT_NE(unquoted.corrupt.find("at byte 9"), std::string::npos) << unquoted.corrupt;
  FileProfile literal = ProfileBytes("[1, tru, 3]", "x.json");
  EXPECT_NE(literal.corrupt.find("invalid token 'tru'"), std::string::npos) << literal.corrupt;
  FileProfile mismatch = ProfileBytes("[{\"a\": 1]", "x.json");
  EXPECT_NE(mismatch.corrupt.find("closes an object"), std::string::npos) << mismatch.corrupt;
  FileProfile escape = ProfileBytes("[\"bad \\q escape\"]", "x.json");
  EXPECT_NE(escape.corrupt.find("invalid escape"), std::string::npos) << escape.corrupt;
  FileProfile in_string = ProfileBytes("{\"a\": \"never closed", "x.json");
  EXPECT_NE(in_string.corrupt.find("inside a string"), std::string::npos) << in_string.corrupt;
  // Python writes NaN; that is accepted. A number cut by a head read is not an error.
  EXPECT_TRUE(ProfileBytes("[{\"v\": NaN}, {\"v\": -1.5e3}]", "x.json").corrupt.empty());
  EXPECT_TRUE(ProfileBytes("[{\"v\": 1.", "x.json", 0, /*truncated=*/true).corrupt.empty());
}

TEST(JsonEdges, SingleFeatureAndHeadModeGeoJson) {
  FileProfile f = ProfileBytes(R"({"type": "Feature", "properties": {"NAME": "Lake Travis", "ACRES": 18929},
                          "geometry": {"type": "Polygon", "coordinates": []}})",
                               "data.txt");
  EXPECT_EQ(f.format, Format::kGeoJson);
  EXPECT_EQ(f.rows, 1u);
  ASSERT_NE(Col(f, "ACRES"), nullptr);
  EXPECT_EQ(Col(f, "ACRES")->type, "integer");
  EXPECT_EQ(f.geometry_types.at("Polygon"), 1u);

  // A large FeatureCollection read in head mode through a store: columns, samples and paths from 64 KiB.
  std::string g = R"({"type": "FeatureCollection", "crs": {"type": "name"}, "features": [)";
  for (int i = 0; i < 5000; ++i) {
    g += std::string(i ? "," : "") + R"({"type": "Feature", "properties": {"ZIP": ")" +
         std::to_string(78700 + i % 50) + R"(", "COUNT": )" + std::to_string(i) +
         R"(}, "geometry": {"type": "Point", "coordinates": [-97.7, 30.2]}})";
  }
  g += "]}";
  auto dir = *MakeTempDir("lakeqa-prof-edge-");
  lake::LocalStore store(dir);
  ASSERT_TRUE(store.Write("datagov/parks/data.txt", g).ok());
  ProfileOptions head;
  head.max_bytes = 64 * 1024;
  auto h = ProfileObject(store, "datagov/parks/data.txt", head);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->format, Format::kGeoJson);
  EXPECT_FALSE(h->rows_exact);
  EXPECT_GT(h->rows, 100u);
  EXPECT_LT(h->rows, 5000u);
  EXPECT_TRUE(h->corrupt.empty()) << h->corrupt;
  ASSERT_NE(Col(*h, "ZIP"), nullptr);
  EXPECT_EQ(Col(*h, "ZIP")->samples.size(), 20u);
  EXPECT_EQ(Col(*h, "COUNT")->type, "integer");
  EXPECT_TRUE(HasPath(*h, "features[].properties.ZIP"));
  EXPECT_TRUE(HasPath(*h, "features[].geometry.coordinates"));
  auto full = ProfileObject(store, "datagov/parks/data.txt", ProfileOptions{});
  ASSERT_TRUE(full.ok());
  EXPECT_TRUE(full->rows_exact);
  EXPECT_EQ(full->rows, 5000u);
  EXPECT_EQ(full->geometry_types.at("Point"), 5000u);
  (void)RemoveAll(dir);
}

TEST(XmlProfile, ElementPaths) {
  FileProfile p = ProfileBytes(
      "<?xml version=\"1.0\"?>\n<!-- export -->\n<response><row><row _id=\"1\"><name>A &amp; "
      "B</name><br/></row>"
      "<row _id=\"2\"><name>C</name><![CDATA[<fake>]]></row></row></response>",
      "rows.xml");
  EXPECT_EQ(p.format, Format::kXml);
  EXPECT_EQ(p.json_paths, (std::vector<std::string>{"response", "response/row", "response/row/row",
                                                    "response/row/row/name", "response/row/row/br"}));
  EXPECT_NE(p.text_sample.find("A & B"), std::string::npos) << p.text_sample;
}

using lakeqa::ingest::testing::MakeZip;  // tests/ingest/build_test_util.h

TEST(XlsxEdges, CellsWithoutReferencesAndAnotherSheetName) {
  std::string xlsx = MakeZip({
      {"xl/workbook.xml", R"(<workbook><sheets><sheet name="Data" sheetId="1"/></sheets></workbook>)"},
      {"xl/worksheets/data.xml",
       R"(<worksheet><sheetData><row><c t="inlineStr"><is><t>Year</t></is></c><c t="inlineStr"><is><t>Count</t></is></c></row>)"
       R"(<row><c><v>2021</v></c><c><v>14</v></c></row><row><c><v>2022</v></c><c><v>15.5</v></c></row></sheetData></worksheet>)"},
  });
  FileProfile p = ProfileBytes(xlsx, "counts.xlsx", 100);
  EXPECT_EQ(p.format, Format::kXlsx);
  EXPECT_EQ(p.rows, 2u);
  ASSERT_EQ(p.columns.size(), 2u);
  EXPECT_EQ(p.columns[0].name, "Year");
  EXPECT_EQ(p.columns[0].type, "integer");
  EXPECT_EQ(p.columns[1].name, "Count");
  EXPECT_EQ(p.columns[1].type, "float");
  // A zip that is neither workbook nor document is a plain zip with its entry names.
  FileProfile zip =
      ProfileBytes(MakeZip({{"a/readme.txt", "hello"}, {"a/data.csv", "x\n1\n"}}), "bundle.zip");
  EXPECT_EQ(zip.format, Format::kZip);
  EXPECT_EQ(zip.json_paths, (std::vector<std::string>{"a/readme.txt", "a/data.csv"}));
  // The same workbook cut in half: a warning or a corrupt mark, never a crash.
  FileProfile cut = ProfileBytes(xlsx.substr(0, xlsx.size() / 2), "counts.xlsx");
  EXPECT_TRUE(!cut.corrupt.empty() || !cut.warnings.empty()) << cut.ToJson().dump();
}

TEST(Subprocess, MissingProgramChildThatIgnoresStdinAndTimeout) {
  auto missing = RunCapture({"lakeqa-no-such-program"}, "", 1000, 100);
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  // `true` exits without reading 16 MB of stdin: the writer sees EPIPE, not a process-killing SIGPIPE.
  auto ignored = RunCapture({"true"}, std::string(16u << 20, 'x'), 10000, 100);
  ASSERT_TRUE(ignored.ok()) << ignored.status().ToString();
  EXPECT_EQ(ignored->exit_code, 0);
  auto slow = RunCapture({"sleep", "30"}, "", 200, 100);
  ASSERT_TRUE(slow.ok());
  EXPECT_TRUE(slow->timed_out);
  // Output beyond the cap is cut and flagged.
  auto big = RunCapture({"head", "-c", "100000", "/dev/zero"}, "", 10000, 1000);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->out.size(), 1000u);
  EXPECT_TRUE(big->truncated);
  EXPECT_EQ(big->exit_code, 0);
}

TEST(Subprocess, ConcurrentRunsFromThreads) {
  // The catalog builder profiles on worker threads; each run must get its own output.
  std::vector<std::thread> threads;
  std::vector<std::string> outs(6);
  for (size_t i = 0; i < outs.size(); ++i) {
    threads.emplace_back([&, i] {
      auto r = RunCapture({"cat"}, "thread " + std::to_string(i), 10000, 1000);
      if (r.ok()) outs[i] = r->out;
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < outs.size(); ++i) EXPECT_EQ(outs[i], "thread " + std::to_string(i));
}

TEST(PdfEdges, TruncatedAndEncryptedLookingPdfsAreNotCrashes) {
  if (std::system("command -v pdftotext >/dev/null 2>&1") != 0) GTEST_SKIP() << "pdftotext not installed";
  std::string pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pa";
  FileProfile p = ProfileBytes(pdf, "report.pdf");
  EXPECT_EQ(p.format, Format::kPdf);
  EXPECT_FALSE(p.corrupt.empty() && p.text_sample.empty() && p.warnings.empty()) << p.ToJson().dump();
  // Head mode never runs the converter on a partial PDF.
  Profiler head("big.pdf");
  head.Feed(pdf);
  auto h = head.Finish(/*truncated=*/true);
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(Warned(*h, "PDF text not extracted"));
}

TEST(ProfileJson, RoundTripOfEveryField) {
  FileProfile p;
  p.format = Format::kGeoJson;
  p.encoding = "utf-8";
  p.columns.push_back({"NAME", "string", 2, {"a", "b"}});
  p.rows = 2;
  p.rows_exact = false;
  p.json_paths = {"features[].properties.NAME"};
  p.geometry_types = {{"Point", 2}};
  p.text_sample = "{\"type\"";
  p.bytes_read = 65536;
  p.warnings = {"w"};
  p.corrupt = "malformed JSON: x at byte 3";
  auto back = FileProfile::FromJson(p.ToJson());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ToJson(), p.ToJson());
  EXPECT_EQ(back->geometry_types.at("Point"), 2u);
  EXPECT_FALSE(back->rows_exact);
  FileProfile csv;
  csv.format = Format::kCsv;
  csv.delimiter = '\t';
  csv.has_header = true;
  auto back_csv = FileProfile::FromJson(csv.ToJson());
  ASSERT_TRUE(back_csv.ok());
  EXPECT_EQ(back_csv->delimiter, '\t');
  EXPECT_TRUE(back_csv->has_header);
  EXPECT_EQ(FileProfile::FromJson(Json{{"format", "csv"}, {"columns", {{{"type", "x"}}}}}).status().code(),
            ErrorCode::kCorrupt);
}

}  // namespace
}  // namespace lakeqa::ingest
