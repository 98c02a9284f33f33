// Issue 30: what a model sees of each tool's result (the compact view, items 1-3) and where the tools now
// behave as the reference harness does (item 13): empty prefix lists, folders inside a dataset, large limits,
// max_lines 0, the reference's keys. The whole-protocol check is tests/agent/model_view_test.cc.
#include "lakeqa/tools/model_view.h"

#include <gtest/gtest.h>

#include "ingest/build_test_util.h"
#include "tools/fixture.h"

namespace lakeqa::tools::testing {
namespace {

using ModelViewTools = ToolsFixture;
using ModelViewPython = PythonToolsFixture;

TEST_F(ModelViewTools, CompactOnRequestFullByDefaultAndABadViewIsRefused) {
  Json full = Call("search_keyword", {{"keywords", {"austin"}}});
  ASSERT_EQ(Code(full), "") << full.dump();
  ASSERT_TRUE(full["results"][0].is_object());
  Json compact = Call("search_keyword", {{"keywords", {"austin"}}, {"view", "compact"}});
  ASSERT_EQ(Code(compact), "") << compact.dump();
  ASSERT_EQ(compact["results"].size(), full["results"].size());
  for (size_t i = 0; i < full["results"].size(); ++i) {
    std::string line = compact["results"][i];
    EXPECT_EQ(line.rfind(full["results"][i]["id"].get<std::string>() + " | ", 0), 0u) << line;
  }
  EXPECT_FALSE(compact.contains("facets"));
  EXPECT_LT(DumpJson(compact).size(), DumpJson(full).size());
  // The view is the caller's argument: in the schema of every tool but submit_answer, and checked.
  for (const Json& t : ToolSet::Schemas())
    EXPECT_EQ(t["inputSchema"]["properties"].contains("view"), t["name"] != "submit_answer") << t["name"];
  Json bad = Call("search", {{"prefixes", {"austin"}}, {"view", "short"}});
  EXPECT_EQ(Code(bad), "invalid_argument");
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("\"short\""), std::string::npos) << bad.dump();
}

TEST_F(ModelViewTools, CompactSearchListsEachIdOnceAndNamesPrefixesThatFoundNothing) {
  Json full = Call("search", {{"prefixes", {"apd", "austin", "zz-none"}}});
  Json compact = Call("search", {{"prefixes", {"apd", "austin", "zz-none"}}, {"view", "compact"}});
  std::string text = DumpJson(compact);
  for (const Json& r : full["results"]) {
    std::string id = r["id"];
    size_t first = text.find(id + "\"");
    if (first == std::string::npos) first = text.find(id + " |");
    ASSERT_NE(first, std::string::npos) << id << " in " << text;
    EXPECT_EQ(text.find("\"" + id, first + 1), std::string::npos) << id << " twice in " << text;
  }
  EXPECT_EQ(compact["prefixes_without_results"], (Json{"zz-none"}));
  EXPECT_FALSE(compact.contains("results_by_prefix"));
}

TEST_F(ModelViewTools, CompactKeywordHitsFitFifteenInTheHeadWhateverTheirWidth) {
  // Twenty hits with long ids, titles and column names: the tiers shrink until 15 fit 2,500 characters.
  Json hits = Json::array();
  for (int i = 0; i < 20; ++i) {
    std::string id = "datagov/a-very-long-dataset-identifier-for-the-parks-inventory-of-district-" +
                     std::to_string(10 + i);
    Json cols = Json::array();
    for (int c = 0; c < 12; ++c) cols.push_back("An Unusually Long Column Name Number " + std::to_string(c));
    hits.push_back({{"id", id},
                    {"title", std::string(150, 'T')},
                    {"description", std::string(300, 'd')},
                    {"columns", cols},
                    {"columns_total", 40},
                    {"rows", 1234},
                    {"rows_exact", true},
                    {"years", "2001-2020"},
                    {"score", 12.3456},
                    {"matched", {{"title", {"parks"}}}}});
  }
  Json full = {{"results", hits}, {"count", 20}, {"total_matches", 99}, {"truncated", true}};
  Json compact = CompactView("search_keyword", full);
  std::string text = DumpJson(compact);
  std::string head = text.size() > 4000 ? text.substr(0, kCompactHeadChars) : text;
  int seen = 0;
  for (const Json& h : hits) seen += head.find(h["id"].get<std::string>()) != std::string::npos;
  EXPECT_GE(seen, 15) << text;
  EXPECT_NE(text.find("rows 1234"), std::string::npos) << text;
  EXPECT_NE(text.find("score 12.3"), std::string::npos) << text;
  // Errors and tools without a compact form come back as they were.
  Json err = ErrorJson(NotFound("x"));
  EXPECT_EQ(CompactView("search_keyword", err), err);
  Json other = {{"a", 1}};
  EXPECT_EQ(CompactView("get_sandbox_info", other), other);
}

TEST_F(ModelViewTools, InspectFileShowsATextPageAndAWorkbooksSheets) {
  std::string page;
  for (int i = 0; i < 12; ++i)
    page += "Line " + std::to_string(i) + " of a page about Austin, Texas, the capital.\n";
  ASSERT_GT(page.size(), 500u);
  Put("wikipedia/Austin,_Texas/content.txt", page);
  Json r = Call("inspect_file", {{"dataset_id", "Austin,_Texas"}, {"file_path", "content.txt"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["text_preview"], page) << r.dump();
  EXPECT_EQ(r["text_preview_complete"], true);
  EXPECT_TRUE(r.contains("delimiter_guess")) << r.dump();
  EXPECT_FALSE(r.contains("line_preview"));

  // A workbook over 64 KB, its sheet behind a large incompressible entry: the sheets are named anyway.
  std::string noise;
  uint32_t x = 12345;
  for (int i = 0; i < 150000; ++i) {
    x = x * 1103515245u + 12345u;
    noise += static_cast<char>(x >> 24);
  }
  std::string book = ingest::testing::MakeZip({
      {"xl/media/image1.png", noise},
      {"[Content_Types].xml",
       "<Types><Override "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
       "</Types>"},
      {"xl/workbook.xml",
       "<workbook><sheets><sheet name=\"Stations\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"},
      {"xl/_rels/workbook.xml.rels",
       "<Relationships><Relationship Id=\"rId1\" Type=\"worksheet\" "
       "Target=\"worksheets/sheet1.xml\"/></Relationships>"},
      {"xl/sharedStrings.xml", "<sst><si><t>station</t></si><si><t>ph</t></si><si><t>A</t></si></sst>"},
      {"xl/worksheets/sheet1.xml",
       "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" "
       "t=\"s\"><v>1</v></c></row>"
       "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>2</v></c><c "
       "r=\"B2\"><v>7.1</v></c></row></sheetData></worksheet>"},
  });
  ASSERT_GT(book.size(), 64u * 1024);
  Put("datagov/austin-water/files/stations.xlsx", book);
  r = Call("inspect_file", {{"dataset_id", "austin-water"}, {"file_path", "files/stations.xlsx"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["format"], "xlsx") << r.dump();
  ASSERT_TRUE(r["sheets"].is_array()) << r.dump();
  EXPECT_EQ(r["sheets"][0]["name"], "Stations");
  EXPECT_EQ(r["sheets"][0]["rows"], 2);
  EXPECT_EQ(r["sheets"][0]["first_rows"][0], "station,ph");
}

TEST_F(ModelViewTools, ReferenceHarnessArgumentsAreAcceptedAsItAcceptsThem) {
  Json none = Call("search", {{"prefixes", Json::array()}});
  ASSERT_EQ(Code(none), "") << none.dump();
  EXPECT_EQ(none["count"], 0);
  EXPECT_EQ(Code(Call("search", Json::object())), "invalid_argument");
  // Limits above the cap are taken as the cap; max_lines 0 means 5.
  EXPECT_EQ(Code(Call("search", {{"prefixes", {"austin"}}, {"limit", 500}})), "");
  EXPECT_EQ(Code(Call("search_keyword", {{"keywords", {"austin"}}, {"limit", 1000}})), "");
  EXPECT_EQ(Code(Call("list_files", {{"dataset_ids", {"austin-water"}}, {"limit", 5000}})), "");
  Json five = Call(
      "inspect_file",
      {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}, {"max_lines", 0}});
  ASSERT_EQ(Code(five), "") << five.dump();
  EXPECT_EQ(five["line_preview"].size(), 5u);
  EXPECT_EQ(Code(Call("inspect_file", {{"dataset_id", "datagov/apd-searches-by-type"},
                                       {"file_path", "files/rows.txt"},
                                       {"max_lines", -1}})),
            "invalid_argument");
}

TEST_F(ModelViewTools, AFolderInsideADatasetIsFoundListedAndRead) {
  for (const char* p : {"austin-water/", "austin-water/fi", "datagov/austin-water/files/"}) {
    Json r = Call("search", {{"prefixes", {p}}});
    ASSERT_EQ(Code(r), "") << r.dump();
    ASSERT_EQ(r["count"], 1) << p << ": " << r.dump();
    EXPECT_EQ(r["results"][0]["id"], "datagov/austin-water") << p;
  }
  EXPECT_EQ(Call("search", {{"prefixes", {"austin-water/nope"}}})["count"], 0);
  Json listed = Call("list_files", {{"dataset_ids", {"austin-water/files"}}});
  ASSERT_EQ(Code(listed), "") << listed.dump();
  const Json& entry = listed["by_dataset"]["austin-water/files"];
  ASSERT_EQ(entry["count"], 1) << listed.dump();
  EXPECT_EQ(entry["files"][0]["path"], "data.csv");
  Json inspected = Call("inspect_file", {{"dataset_id", "austin-water/files"}, {"file_path", "data.csv"}});
  ASSERT_EQ(Code(inspected), "") << inspected.dump();
  EXPECT_EQ(inspected["header_columns"], (Json{"station", "ph"}));
  Json got =
      Call("download", {{"files", {{{"dataset_id", "austin-water/files"}, {"file_path", "data.csv"}}}}});
  ASSERT_EQ(Code(got), "") << got.dump();
  EXPECT_EQ(got["downloaded"][0]["relative_path"], "datagov/austin-water/files/data.csv");
  // Still nothing outside the dataset can be named.
  EXPECT_EQ(Call("list_files", {{"dataset_ids", {"austin-water/../geo"}}})["failed_count"], 1);
}

TEST_F(ModelViewPython, TracebackKeyAndTheLastPrintedLineSurvivesEveryCap) {
  Json failed = Call("execute_code", {{"code", "print('before')\n1/0\n"}});
  ASSERT_EQ(failed["success"], false) << failed.dump();
  std::string tb = failed["traceback"];
  EXPECT_EQ(tb.rfind("Traceback (most recent call last):", 0), 0u) << tb;
  EXPECT_NE(tb.find("ZeroDivisionError"), std::string::npos) << tb;
  Json ok = Call("execute_code", {{"code", "print(1)"}});
  EXPECT_FALSE(ok.contains("traceback"));
  // 200 KB of output, the answer last: kept by the runner's cap, the tools' 20,000-character cap, and the
  // compact view's order under the paper's cut (the last 1,000 characters).
  Json big = Call("execute_code", {{"code", "for i in range(20000): print('row', i)\nprint('ANSWER 42')"},
                                   {"view", "compact"}});
  ASSERT_EQ(big["success"], true) << DumpJson(big).substr(0, 2000);
  std::string text = DumpJson(big);
  EXPECT_NE(text.substr(text.size() - 1000).find("ANSWER 42"), std::string::npos)
      << text.substr(text.size() - 1000);
}

}  // namespace
}  // namespace lakeqa::tools::testing
