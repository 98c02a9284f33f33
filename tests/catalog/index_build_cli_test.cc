// `lakeqa index build` over an index that already exists or fails half way (issue 14, defect 7): another
// lake's index is not replaced without --force; a failed first build leaves no index behind; a failed
// rebuild leaves the previous index usable.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"

namespace lakeqa::catalog {
namespace {

namespace fs = std::filesystem;

class IndexBuildCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("LAKEQA_BIN");
    if (!bin || !PathExists(bin)) GTEST_SKIP() << "LAKEQA_BIN (the lakeqa binary) is not set";
    bin_ = bin;
    dir_ = *MakeTempDir("lakeqa-index-build-");
    Put("a/datagov/parks/files/rows.csv", "name,acres\nA,10\nB,32\n");
    Put("a/datagov/parks/metadata.json", R"({"title": "City Parks Inventory"})");
    Put("b/datagov/libraries/files/rows.csv", "branch,books\nNorth,1200\n");
    Put("b/datagov/libraries/metadata.json", R"({"title": "Public Library Branches"})");
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  void Put(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(dir_ + "/" + rel).parent_path());
    std::ofstream(dir_ + "/" + rel) << text;
  }
  // Runs lakeqa with `args`; its stdout and stderr go to <dir>/<log>.
  int Lakeqa(const std::string& args, const std::string& log) {
    int rc = std::system((bin_ + " " + args + " > " + dir_ + "/" + log + " 2>&1").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  std::string Log(const std::string& log) { return ReadFile(dir_ + "/" + log).value_or(""); }
  Json Manifest() {
    return Json::parse(ReadFile(dir_ + "/idx/manifest.json").value_or("null"), nullptr, false);
  }

  std::string bin_, dir_;
};

TEST_F(IndexBuildCli, AnotherLakesIndexIsReplacedOnlyWithForce) {
  ASSERT_EQ(Lakeqa("index build -q --lake " + dir_ + "/a --index " + dir_ + "/idx", "a.log"), 0)
      << Log("a.log");
  EXPECT_EQ(Lakeqa("index build -q --lake " + dir_ + "/b --index " + dir_ + "/idx", "b.log"), 4)
      << Log("b.log");
  EXPECT_NE(Log("b.log").find("--force"), std::string::npos) << Log("b.log");
  EXPECT_NE(Log("b.log").find(dir_ + "/a"), std::string::npos) << Log("b.log");
  // Refused before anything changed: the index still describes lake a and still answers for it.
  EXPECT_NE(Manifest()["lake"].get<std::string>().find(dir_ + "/a"), std::string::npos);
  ASSERT_EQ(Lakeqa("catalog ls --json --index " + dir_ + "/idx", "ls.json"), 0) << Log("ls.json");
  EXPECT_NE(Log("ls.json").find("datagov/parks"), std::string::npos) << Log("ls.json");

  ASSERT_EQ(Lakeqa("index build -q --force --lake " + dir_ + "/b --index " + dir_ + "/idx", "forced.log"), 0)
      << Log("forced.log");
  EXPECT_NE(Log("forced.log").find("warning"), std::string::npos) << Log("forced.log");
  EXPECT_NE(Manifest()["lake"].get<std::string>().find(dir_ + "/b"), std::string::npos);
  // The same lake again needs no --force.
  EXPECT_EQ(Lakeqa("index build -q --lake " + dir_ + "/b --index " + dir_ + "/idx", "again.log"), 0)
      << Log("again.log");
}

// Issue 30, item 10: a copy of the lake at another path is the lake the index was built from (the
// catalog's content fingerprint agrees); the build goes on without --force and the manifest names the copy.
TEST_F(IndexBuildCli, ACopyOfTheLakeNeedsNoForce) {
  ASSERT_EQ(Lakeqa("index build -q --lake " + dir_ + "/a --index " + dir_ + "/idx", "a.log"), 0)
      << Log("a.log");
  EXPECT_FALSE(Manifest()["lake_content_sha256"].get<std::string>().empty());
  fs::copy(dir_ + "/a", dir_ + "/a-copy", fs::copy_options::recursive);
  ASSERT_EQ(Lakeqa("index build -q --lake " + dir_ + "/a-copy --index " + dir_ + "/idx", "copy.log"), 0)
      << Log("copy.log");
  EXPECT_NE(Manifest()["lake"].get<std::string>().find(dir_ + "/a-copy"), std::string::npos);
  // A copy with one file changed is another lake.
  fs::copy(dir_ + "/a", dir_ + "/a-changed", fs::copy_options::recursive);
  Put("a-changed/datagov/parks/files/rows.csv", "name,acres\nA,10\nB,32\nC,5\n");
  EXPECT_EQ(Lakeqa("index build -q --lake " + dir_ + "/a-changed --index " + dir_ + "/idx", "changed.log"), 4)
      << Log("changed.log");
}

// Issue 30, item 11: one bad file never fails the build. A symbolic link in the lake that leads outside it
// is a per-file error in the catalog and in the graph stage (and the paragraph stage) and the build goes
// on: the graph holds the readable files, exit 0.
TEST_F(IndexBuildCli, ASymlinkLeadingOutsideTheLakeIsAPerFileErrorInEveryStage) {
  Put("outside/secret.csv", "wikidata_id:ID(Player),name\nX1,Leaked\n");
  Put("g/nba/players/Player.csv", "wikidata_id:ID(Player),name\nP1,Dennis Rodman\n");
  Put("g/nba/players/metadata.json", R"({"title": "Players"})");
  Put("g/nba/teams/Team.csv", "wikidata_id:ID(Team),name\nT1,Detroit Pistons\n");
  Put("g/nba/teams/relation_playsFor.csv", ":START_ID(Player),:END_ID(Team)\nP1,T1\n");
  fs::create_symlink(dir_ + "/outside/secret.csv", dir_ + "/g/nba/players/leak.csv");
  Put("g/wikipedia/Detroit/content.txt", "Detroit is a city in Michigan.\n\nIt has a basketball team.");
  Put("outside/page.txt", "A page from outside the lake.");
  fs::create_directories(dir_ + "/g/wikipedia/Leak");
  fs::create_symlink(dir_ + "/outside/page.txt", dir_ + "/g/wikipedia/Leak/content.txt");
  ASSERT_EQ(Lakeqa("index build --json --lake " + dir_ + "/g --index " + dir_ + "/idx", "g.json"), 0)
      << Log("g.json");
  std::string out = Log("g.json");
  Json j = Json::parse(out.substr(out.find('{')), nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  EXPECT_EQ(j["graph"]["nodes"], 2) << j["graph"].dump(2);
  EXPECT_EQ(j["graph"]["edges"], 1) << j["graph"].dump(2);
  ASSERT_EQ(j["graph"]["errors"].size(), 1u) << j["graph"].dump(2);
  EXPECT_EQ(j["graph"]["errors"][0]["file"], "nba/players/leak.csv");
  EXPECT_EQ(j["graph"]["errors"][0]["code"], "permission_denied");
  EXPECT_EQ(out.find("Leaked"), std::string::npos) << out;
  // The catalog lists both links with their error; the page stage leaves the outside page out.
  EXPECT_GE(j["errors"].get<int>(), 2) << out;
  ASSERT_TRUE(j.contains("paragraphs")) << out;
  EXPECT_EQ(j["paragraphs"]["pages"], 1) << j["paragraphs"].dump(2);
  ASSERT_EQ(j["paragraphs"]["errors"], 1) << j["paragraphs"].dump(2);
  EXPECT_EQ(j["paragraphs"]["error_files"][0]["file"], "wikipedia/Leak/content.txt");
  EXPECT_EQ(out.find("A page from outside"), std::string::npos) << out;
}

TEST_F(IndexBuildCli, AFailedFirstBuildLeavesNoIndex) {
  // A lake that does not exist: refused before anything is created.
  EXPECT_EQ(Lakeqa("index build -q --lake " + dir_ + "/no-such-lake --index " + dir_ + "/idx", "missing.log"),
            3)
      << Log("missing.log");
  EXPECT_FALSE(PathExists(dir_ + "/idx")) << Log("missing.log");
  // A build that fails late (the embedding server is down, after the catalog and the text index were
  // written): no index stays; the catalog's progress is kept aside, where no reader looks.
  fs::create_directories(dir_ + "/mine");
  std::ofstream(dir_ + "/mine/notes.txt") << "the user's own file";
  EXPECT_NE(Lakeqa("index build -q --lake " + dir_ + "/a --index " + dir_ +
                       "/mine --vectors http:http://127.0.0.1:1",
                   "late.log"),
            0)
      << Log("late.log");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir_ + "/mine")) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{".partial-build", "notes.txt"})) << Log("late.log");
  // `search` then says there is no index, rather than searching an empty one.
  EXPECT_EQ(Lakeqa("search --index " + dir_ + "/mine parks", "search.log"), 3) << Log("search.log");
  // The next build of that folder resumes from the kept catalog: nothing is profiled again.
  ASSERT_EQ(Lakeqa("index build -q --json --lake " + dir_ + "/a --index " + dir_ + "/mine", "resume.json"), 0)
      << Log("resume.json");
  std::string out = Log("resume.json");
  Json resumed = Json::parse(out.substr(std::min(out.find('{'), out.size())), nullptr, false);
  EXPECT_EQ(resumed["profiled"], 0) << Log("resume.json");
  EXPECT_FALSE(PathExists(dir_ + "/mine/.partial-build"));
  EXPECT_EQ(Lakeqa("search --index " + dir_ + "/mine parks", "search2.log"), 0) << Log("search2.log");
}

TEST_F(IndexBuildCli, AFailedRebuildLeavesThePreviousIndexUsable) {
  ASSERT_EQ(Lakeqa("index build -q --lake " + dir_ + "/a --index " + dir_ + "/idx", "a.log"), 0)
      << Log("a.log");
  Put("a/datagov/trees/files/rows.csv", "species,count\nOak,3\n");
  EXPECT_NE(Lakeqa("index build -q --lake " + dir_ + "/a --index " + dir_ +
                       "/idx --vectors http:http://127.0.0.1:1",
                   "re.log"),
            0)
      << Log("re.log");
  // The catalog and text index of the lake as it now is were committed before the embedder failed; either
  // way the index answers.
  ASSERT_EQ(Lakeqa("search --json --index " + dir_ + "/idx parks", "search.json"), 0) << Log("search.json");
  EXPECT_NE(Log("search.json").find("datagov/parks"), std::string::npos) << Log("search.json");
  ASSERT_EQ(Lakeqa("catalog show --json --index " + dir_ + "/idx datagov/parks", "show.json"), 0)
      << Log("show.json");
}

// Item 4 of issue 25: the default profile is the whole file on a local lake (row counts exact), and a
// head profile still sees the sheets and columns of an XLSX larger than the head, so search finds it.
TEST_F(IndexBuildCli, LocalLakesAreProfiledWholeAndHeadProfilesSeeInsideLargeXlsx) {
  if (std::system("/usr/bin/python3 -c 'import zipfile, zlib' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with zipfile is needed to write the workbook";
  // A CSV of 9,000 rows (about 150 KB) and a real XLSX of about 300 KB (Python's zipfile, deflate).
  std::string csv = "site,reading\n";
  for (int i = 0; i < 9000; ++i)
    csv += "beach-" + std::to_string(i % 97) + "," + std::to_string(i * 7 % 1000) + "\n";
  Put("c/kramabench-biomedical/clinical/cities.csv", csv);
  Put("c/kramabench-biomedical/clinical/metadata.json", R"({"title": "clinical/mmc1"})");
  std::string script = dir_ + "/make_xlsx.py";
  Put("make_xlsx.py", R"(import random, sys, zipfile
random.seed(11)
rows = ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>']
for r in range(2, 12002):
    rows.append('<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d"><v>%d</v></c><c r="C%d"><v>%.6f</v></c></row>'
                % (r, r, random.randrange(10**6), r, random.randrange(30, 90), r, random.random()))
sheet = '<worksheet><sheetData>' + ''.join(rows) + '</sheetData></worksheet>'
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('[Content_Types].xml', '<Types/>')
    z.writestr('xl/workbook.xml', '<workbook><sheets><sheet name="UCEC_CPTAC3_meta_table" sheetId="1"/></sheets></workbook>')
    z.writestr('xl/worksheets/sheet1.xml', sheet)
    z.writestr('xl/sharedStrings.xml', '<sst><si><t>Proteomics_Participant_ID</t></si><si><t>Age</t></si>'
               '<si><t>Histologic_Grade_FIGO</t></si></sst>')
)");
  std::string xlsx = dir_ + "/c/kramabench-biomedical/mmc1/mmc1.xlsx";
  fs::create_directories(fs::path(xlsx).parent_path());
  ASSERT_EQ(std::system(("/usr/bin/python3 " + script + " " + xlsx).c_str()), 0);
  ASSERT_GT(fs::file_size(xlsx), 128u * 1024);

  // No --profile on a local lake: full, said before any read; the CSV's 9,000 rows are exact.
  ASSERT_EQ(Lakeqa("index build --lake " + dir_ + "/c --index " + dir_ + "/idx", "auto.log"), 0)
      << Log("auto.log");
  EXPECT_NE(Log("auto.log").find("profile=full"), std::string::npos) << Log("auto.log");
  EXPECT_EQ(Manifest()["build"]["profile"], "full");
  auto search = [&](const std::string& index, const std::string& query, const std::string& log) {
    EXPECT_EQ(Lakeqa("search --json --index " + dir_ + "/" + index + " '" + query + "'", log), 0) << Log(log);
    std::string out = Log(log);
    Json j = Json::parse(out.substr(std::min(out.find('{'), out.size())), nullptr, false);
    return j.is_object() && j.contains("hits") && !j["hits"].empty() ? j["hits"][0] : Json();
  };
  Json whole = search("idx", "beach reading", "full.json");
  EXPECT_EQ(whole["id"], "kramabench-biomedical/clinical") << Log("full.json");
  EXPECT_EQ(whole["rows"], 9000) << Log("full.json");
  EXPECT_EQ(whole["rows_exact"], true) << Log("full.json");

  // --profile head: the CSV's count is a lower bound (said so), the workbook's columns are read from its end.
  ASSERT_EQ(
      Lakeqa("index build -q --profile head --lake " + dir_ + "/c --index " + dir_ + "/head", "head.log"), 0)
      << Log("head.log");
  Json xl = search("head", "histologic grade figo", "xlsx.json");
  EXPECT_EQ(xl["id"], "kramabench-biomedical/mmc1") << Log("xlsx.json");
  Json part = search("head", "beach reading", "part.json");
  EXPECT_EQ(part["id"], "kramabench-biomedical/clinical") << Log("part.json");
  EXPECT_EQ(part["rows_exact"], false) << Log("part.json");
  ASSERT_TRUE(part["rows"].is_number()) << Log("part.json");
  EXPECT_LT(part["rows"].get<uint64_t>(), 9000u) << Log("part.json");
}

}  // namespace
}  // namespace lakeqa::catalog
