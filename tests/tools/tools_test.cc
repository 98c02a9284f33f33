// The tools end to end over a real local lake, catalog, text index, DuckDB and the Python sandbox.
#include <thread>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "lakeqa/exec/python.h"

#include "exec/access_watch.h"
#include "lakeqa/common/build_paths.h"
#include "support/require_protection.h"
#include "tools/fixture.h"

namespace lakeqa::tools::testing {
namespace {

using ToolsTest = ToolsFixture;

std::vector<std::string> Ids(const Json& results) {
  std::vector<std::string> out;
  for (const auto& r : results)
    out.push_back(r["namespace"].get<std::string>() + "/" + r["dataset_id"].get<std::string>());
  return out;
}

TEST_F(ToolsTest, SchemasAreJsonSchemaObjects) {
  const Json& s = ToolSet::Schemas();
  std::vector<std::string> names;
  for (const auto& t : s) {
    names.push_back(t["name"]);
    EXPECT_EQ(t["inputSchema"]["type"], "object");
    EXPECT_TRUE(t["inputSchema"]["properties"].is_object());
    for (const auto& r : t["inputSchema"]["required"])
      EXPECT_TRUE(t["inputSchema"]["properties"].contains(r));
    EXPECT_FALSE(t["description"].get<std::string>().empty());
    EXPECT_TRUE(ToolSet::Known(t["name"].get<std::string>()));
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"search", "search_keyword", "list_files", "download", "inspect_file",
                                      "query", "execute_code", "get_sandbox_info", "submit_answer",
                                      "graph_find_nodes", "graph_neighbors", "graph_query"}));
}

TEST_F(ToolsTest, SearchIsIdPrefixPerNamespace) {
  Json r = Call("search", {{"prefixes", {"apd", "Austin"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(Ids(r["results"]),
            (std::vector<std::string>{"datagov/apd-searches-by-type", "wikipedia/apd-searches-by-type",
                                      "wikipedia/Austin,_Texas"}));
  EXPECT_EQ(r["results_by_prefix"]["Austin"].size(), 1u);
  // The LakeQA schema's singular form, and a namespace-scoped prefix.
  r = Call("search", {{"prefix", "datagov/a"}});
  EXPECT_EQ(Ids(r["results"]),
            (std::vector<std::string>{"datagov/apd-searches-by-type", "datagov/austin-water"}));
  // The limit reached with more left out, and exactly `limit` matches (complete: not truncated).
  r = Call("search", {{"prefixes", {"datagov/a"}}, {"limit", 1}});
  EXPECT_EQ(r["truncated"], true);
  EXPECT_EQ(r["truncated_prefixes"], (Json{"datagov/a"}));
  EXPECT_EQ(r["count"], 1);
  EXPECT_TRUE(r["total"].is_null());  // unknown, not 0
  r = Call("search", {{"prefixes", {"au"}}, {"limit", 1}});
  EXPECT_EQ(r["truncated"], false);
  EXPECT_EQ(r["count"], 1);
  EXPECT_EQ(r["total"], 1);
  EXPECT_FALSE(r.contains("truncated_prefixes"));
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace[0]["returned"].size(), 3u);
  EXPECT_EQ(trace[0]["accessed"].size(), 0u);
}

TEST_F(ToolsTest, SearchKeywordRanksWithSnippetsColumnsAndFacets) {
  Json r = Call("search_keyword", {{"keywords", {"police searches"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  ASSERT_GE(r["results"].size(), 1u);
  EXPECT_EQ(r["results"][0]["id"], "datagov/apd-searches-by-type");
  EXPECT_EQ(r["results"][0]["dataset_id"], "apd-searches-by-type");
  EXPECT_EQ(r["results"][0]["title"], "APD Searches by Type");
  EXPECT_TRUE(r["results"][0].contains("snippet"));
  r = Call("search_keyword", {{"keywords", {"station", "Texas"}}, {"limit", 5}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["results_by_keyword"]["station"][0]["dataset_id"], "austin-water");
  EXPECT_EQ(r["results_by_keyword"]["Texas"][0]["dataset_id"], "Austin,_Texas");
  bool matched = false;
  for (const auto& h : r["results"]) {
    if (h["id"] == "datagov/austin-water")
      matched = h.contains("matched_columns") && h["matched_columns"][0] == "station";
  }
  EXPECT_TRUE(matched) << r.dump();
  EXPECT_TRUE(r["facets"].contains("namespace"));
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["returned"].size(), 2u);
}

TEST_F(ToolsTest, ListFilesAndInspect) {
  Json r = Call("list_files", {{"dataset_ids", {"austin-water", "datagov/geo", "missing"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["count"], 2);
  EXPECT_EQ(r["files"][0]["path"], "files/data.csv");
  EXPECT_EQ(r["files"][0]["size"], 23);
  EXPECT_EQ(r["by_dataset"]["missing"]["error"]["code"], "not_found");
  r = Call(
      "inspect_file",
      {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}, {"max_lines", 2}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["format"], "csv");
  EXPECT_EQ(r["delimiter_guess"], ",");
  EXPECT_EQ(r["header_columns"], (Json{"Occurred Year", "TCOLE Search Based On", "Sector"}));
  EXPECT_EQ(r["line_preview"].size(), 2u);
  EXPECT_EQ(r["size_bytes"], std::string(kRows).size());
  r = Call("inspect_file", {{"dataset_id", "geo"}, {"file_path", "files/data.txt"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["format"], "geojson");
  EXPECT_EQ(r["looks_like_json"], true);
  EXPECT_TRUE(r.contains("json_keys"));
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace[0]["accessed"], (Json{"datagov/austin-water", "datagov/geo"}));
  EXPECT_EQ(trace[2]["accessed"], (Json{"datagov/geo"}));
}

TEST_F(ToolsTest, DownloadLandsInNamespaceFolderThroughTheSharedCache) {
  Json r = Call("download",
                {{"files", {{{"dataset_id", "apd-searches-by-type"}, {"file_path", "files/rows.txt"}}}}});
  EXPECT_EQ(Code(r), "invalid_argument");  // ambiguous across namespaces
  r = Call("download",
           {{"files", {{{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}}}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  const Json& d = r["downloaded"][0];
  EXPECT_EQ(d["relative_path"], "datagov/apd-searches-by-type/files/rows.txt");
  EXPECT_EQ(d["cached"], false);
  EXPECT_EQ(d["sha256"].get<std::string>().size(), 64u);
  // The agent sees the sandbox as /sandbox, never its host path.
  EXPECT_EQ(d["local_path"], "/sandbox/datagov/apd-searches-by-type/files/rows.txt");
  std::string local = session_->sandbox_dir() + "/" + d["relative_path"].get<std::string>();
  EXPECT_EQ(*ReadFile(local), kRows);
  // A second session gets the same bytes by hard link, not a copy.
  auto other = Session::Create(root_ + "/sessions", "s2");
  ASSERT_TRUE(other.ok());
  Json r2 = tools_->Call(**other, "download",
                         {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}});
  ASSERT_EQ(Code(r2), "") << r2.dump();
  EXPECT_EQ(r2["downloaded"][0]["cached"], true);
  struct stat a {
  }, b{};
  ASSERT_EQ(::stat(local.c_str(), &a), 0);
  ASSERT_EQ(
      ::stat(
          ((*other)->sandbox_dir() + "/" + r2["downloaded"][0]["relative_path"].get<std::string>()).c_str(),
          &b),
      0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  EXPECT_EQ(a.st_mode & 0222, 0u);  // the shared copy is read-only
  Json info = Call("get_sandbox_info", Json::object());
  EXPECT_EQ(info["file_count"], 1);
  EXPECT_EQ(info["files"][0]["dataset"], "datagov/apd-searches-by-type");
  EXPECT_EQ(session_->downloaded_bytes(), std::string(kRows).size());
}

TEST_F(ToolsTest, QueryOverDownloadedFiles) {
  ASSERT_EQ(Code(Call("download",
                      {{"files",
                        {{{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}},
                         {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}}})),
            "");
  Json r = Call("query", {{"sql",
                           "SELECT Sector, count(*) AS n FROM 'datagov/apd-searches-by-type/files/rows.txt' "
                           "WHERE \"Occurred Year\" = 2022 GROUP BY Sector ORDER BY n DESC, Sector"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["rows"][0][0], "Adam");
  EXPECT_EQ(r["rows"][0][1], 2);
  EXPECT_GE(r["views"].size(), 2u);
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["accessed"], (Json{"datagov/apd-searches-by-type"}));
  // The hostile cases are refused with a JSON error; the session goes on.
  EXPECT_NE(Code(Call("query", {{"sql", "SELECT * FROM read_csv('/etc/passwd')"}})), "");
  EXPECT_NE(Code(Call("query", {{"sql", "COPY (SELECT 1) TO 'x.csv'"}})), "");
  EXPECT_NE(Code(Call("query", {{"sql", "ATTACH '/tmp/x.db'"}})), "");
  EXPECT_EQ(Code(Call("query", {{"sql", "SELECT 1; SELECT 2"}})), "invalid_argument");
  EXPECT_EQ(Code(Call("query", {{"sql", "SELECT count(*) FROM sandbox_files"}})), "");
}

TEST_F(ToolsTest, OutputCapKeepsTheFullResultInTheSandbox) {
  SessionLimits lim;
  lim.max_output_chars = 2000;
  NewSession(lim, "capped");
  ASSERT_EQ(Code(Call("download",
                      {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}})),
            "");
  Json r = Call("query", {{"sql", "SELECT range AS i, repeat('x', 50) AS pad FROM range(500)"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["output_capped"], true);
  EXPECT_EQ(r["truncated"], false);  // the row limit did not stop the query: only the cap cut it
  EXPECT_EQ(r["row_count"], r["rows"].size());
  EXPECT_EQ(r["total"], 500);
  EXPECT_LE(DumpJson(r).size(), 2000u);
  std::string path = r["full_output_path"];
  auto full = ReadFile(session_->sandbox_dir() + "/" + path);
  ASSERT_TRUE(full.ok());
  auto j = ParseJson(*full, path);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["rows"].size(), 500u);
  EXPECT_LT(r["rows"].size(), 500u);
  EXPECT_NE(r["truncation_notice"].get<std::string>().find(path), std::string::npos);
  // The saved output is hidden from FILES and views.
  EXPECT_EQ(Call("get_sandbox_info", Json::object())["file_count"], 1);
}

TEST(ShrinkJson, CutsLongestThingsFirstAndFits) {
  Json j = {{"output", std::string(50000, 'a')}, {"rows", Json::array()}, {"ok", true}};
  for (int i = 0; i < 1000; ++i) j["rows"].push_back(i);
  ASSERT_TRUE(ShrinkJson(j, 3000));
  EXPECT_LE(DumpJson(j).size(), 3000u);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["output"].get<std::string>().substr(0, 10), "aaaaaaaaaa");
  Json small = {{"a", 1}};
  EXPECT_FALSE(ShrinkJson(small, 100));
}

TEST_F(ToolsTest, SubmitAnswerOnce) {
  Json r = Call(
      "submit_answer",
      {{"answer", "[Adam]"}, {"reasoning", "most searches"}, {"sources", {"datagov/apd-searches-by-type"}}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["status"], "answer_submitted");
  EXPECT_EQ(r["answer"], "Adam");
  EXPECT_EQ(r["raw_answer"], "[Adam]");
  ASSERT_TRUE(session_->answer.has_value());
  EXPECT_EQ(Code(Call("submit_answer", {{"answer", "[Baker]"}})), "already_exists");
}

using PythonToolsTest = PythonToolsFixture;

TEST_F(PythonToolsTest, ExecuteCodeSeesDownloadsAndReportsErrors) {
  ASSERT_EQ(Code(Call("download", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}})), "");
  Json r = Call("execute_code", {{"code", "df = pd.read_csv(FILES[0])\nprint(round(df['ph'].mean(), 2))"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  EXPECT_EQ(r["success"], true) << r.dump();
  EXPECT_EQ(r["output"], "7.0\n");
  EXPECT_EQ(r["datasets_in_sandbox"], (Json{"datagov/austin-water"}));
  r = Call("execute_code", {{"code", "raise ValueError('boom')"}});
  EXPECT_EQ(r["success"], false);
  EXPECT_EQ(r["error"], "ValueError: boom");
  r = Call("execute_code", {{"code", "import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=2)"}});
  EXPECT_EQ(r["success"], false) << r.dump();
}

// D_acc for execute_code comes from what the run really opened (issue 14, item 10): a forged access log
// and a file written into a dataset-shaped folder do not count; reads through a glob or FILES do.
TEST_F(PythonToolsTest, ForgedAccessLogDoesNotCountButGlobAndFilesReadsDo) {
  std::string why;
  if (!exec::CanObserveOpens(&why)) LAKEQA_SKIP_MISSING_PROTECTION("opens cannot be observed here: " + why);
  ASSERT_EQ(Code(Call("download", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}})), "");
  Json r = Call(
      "execute_code",
      {{"code",
        "import glob, os\n"
        "for p in glob.glob('*/*/files/*.csv'): open(p).read()\n"
        "os.makedirs('datagov/forged/files', exist_ok=True)\n"
        "open('datagov/forged/files/x.csv', 'w').write('a\\n1\\n')\n"
        "open('datagov/forged/files/x.csv').read()\n"
        "for log in [os.environ.get('LAKEQA_ACCESS_LOG', ''), SANDBOX_DIR + '/.lakeqa/accessed.jsonl']:\n"
        "    if log:\n"
        "        try:\n"
        "            with open(log, 'a') as f:\n"
        "                f.write('{\"op\": \"get_object\", \"bucket\": \"b\", \"key\": "
        "\"datagov/apd-searches-by-type/files/rows.txt\"}\\n')\n"
        "        except OSError:\n"
        "            pass  # the sandbox's .lakeqa is read-only: refused is as good as ignored\n"
        "print('ok')\n"}});
  ASSERT_EQ(r["success"], true) << r.dump();
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["accessed"], (Json{"datagov/austin-water"})) << trace.back().dump();
  EXPECT_FALSE(trace.back().contains("accessed_unverified"));
  ASSERT_EQ(Code(Call("download",
                      {{"dataset_id", "datagov/apd-searches-by-type"}, {"file_path", "files/rows.txt"}})),
            "");
  r = Call("execute_code", {{"code", "for f in FILES:\n    if 'apd' in f: open(f).read()\nprint('ok')\n"}});
  ASSERT_EQ(r["success"], true) << r.dump();
  trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["accessed"], (Json{"datagov/apd-searches-by-type"})) << trace.back().dump();
}

// A real LakeQA task `fact` (it reads the lake with boto3) runs unchanged through execute_code against
// the file placed in the test lake at its key; the key it read is in D_acc.
TEST_F(PythonToolsTest, RealTaskFactReadsTheLakeThroughBoto3) {
  std::string task =
      lakeqa::build_paths::SourceDir() + "/../shared/data/lakeqa-tasks/lakeqa_mini/k-2-d-3/task_1.json";
  auto text = ReadFile(task);
  if (!text.ok()) GTEST_SKIP() << "LakeQA tasks not available: " << text.status().ToString();
  auto j = ParseJson(*text, task);
  ASSERT_TRUE(j.ok());
  std::string fact;
  for (const auto& [id, node] : (*j)["nodes"].items()) {
    if (node["source"] == "datagov/apd-searches-by-type/files/rows.txt") fact = node["fact"];
  }
  ASSERT_NE(fact.find("boto3"), std::string::npos);
  Json r = Call("execute_code", {{"code", fact + "\nprint(answer)\n"}});
  ASSERT_EQ(r["success"], true) << r.dump();
  EXPECT_EQ(r["output"], "Adam\n");  // the answer over this test lake's rows
  auto trace = *session_->ReadTrace();
  EXPECT_EQ(trace.back()["accessed"], (Json{"datagov/apd-searches-by-type"}));
}

// A k-1-d-1 fact reads its file by sandbox-relative path after `download`.
TEST_F(PythonToolsTest, RealTaskFactReadsADownloadedFile) {
  std::string task =
      lakeqa::build_paths::SourceDir() + "/../shared/data/lakeqa-tasks/lakeqa_mini/k-1-d-1/task_2.json";
  auto text = ReadFile(task);
  if (!text.ok()) GTEST_SKIP() << "LakeQA tasks not available: " << text.status().ToString();
  auto j = ParseJson(*text, task);
  ASSERT_TRUE(j.ok());
  const Json& node = (*j)["nodes"].begin().value();
  std::string source =
      node["source"];  // datagov/lottery-ny-lotto-winning-numbers-beginning-2001/files/rows.txt
  std::string rows = "Draw Date,Winning Numbers,Bonus #,Extra #\n";
  for (int y = 2003; y <= 2012; ++y) {
    for (int k = 0; k < 3; ++k)
      rows += "01/0" + std::to_string(k + 1) + "/" + std::to_string(y) + ",1 2 3 4 5 6," +
              std::to_string(y == 2007 ? 40 + k : 10 + k) + ",\n";
  }
  Put(source, rows);
  ::chmod((lake_ + "/" + source).c_str(), 0644);
  std::string ds = source.substr(0, source.find("/files/"));
  Json r = Call("download", {{"dataset_id", ds}, {"file_path", "files/rows.txt"}});
  ASSERT_EQ(Code(r), "") << r.dump();
  r = Call("execute_code", {{"code", node["fact"].get<std::string>() + "\nprint(answer)\n"}});
  ASSERT_EQ(r["success"], true) << r.dump();
  EXPECT_EQ(r["output"], node["answer"].get<std::string>() + "\n");
}

TEST_F(PythonToolsTest, ConcurrentSessionsAreIsolated) {
  auto s2 = Session::Create(root_ + "/sessions", "other");
  ASSERT_TRUE(s2.ok());
  ASSERT_EQ(Code(Call("download", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}})), "");
  Json a, b;
  std::thread t1([&] {
    a = Call("execute_code", {{"code", "open('mine.txt','w').write('1')\nprint(sorted(FILES))"}});
  });
  std::thread t2([&] {
    b = tools_->Call(**s2, "execute_code",
                     {{"code", "import os\nprint(os.path.exists('mine.txt'), len(FILES))"}});
  });
  t1.join();
  t2.join();
  EXPECT_EQ(a["success"], true) << a.dump();
  EXPECT_EQ(b["output"], "False 0\n") << b.dump();
  Json info = tools_->Call(**s2, "get_sandbox_info", Json::object());
  EXPECT_EQ(info["file_count"], 0);
}

// Hostile code through the tool: a flood of output is capped (the full text kept in the sandbox) and a
// busy loop is stopped at the call's time limit; the session keeps working.
TEST_F(PythonToolsTest, HugeOutputAndRunawayCodeAreContained) {
  SessionLimits lim;
  lim.call_timeout_ms = 2000;
  NewSession(lim, "hostile");
  Json r = Call("execute_code", {{"code", "print('x' * 5000000)"}});
  ASSERT_EQ(Code(r), "") << r.dump().substr(0, 500);
  EXPECT_EQ(r["output_capped"], true);
  EXPECT_LE(DumpJson(r).size(), lim.max_output_chars);
  r = Call("execute_code", {{"code", "while True:\n    pass"}});
  EXPECT_EQ(r["success"], false) << r.dump();
  EXPECT_NE(r["error"].get<std::string>().find("TimeoutError"), std::string::npos) << r.dump();
  r = Call("execute_code", {{"code", "open('/etc/lakeqa-escape', 'w').write('x')"}});
  EXPECT_EQ(r["success"], false);
  EXPECT_FALSE(PathExists("/etc/lakeqa-escape"));
  r = Call("execute_code", {{"code", "print(1 + 1)"}});
  EXPECT_EQ(r["output"], "2\n");
}

}  // namespace
}  // namespace lakeqa::tools::testing
