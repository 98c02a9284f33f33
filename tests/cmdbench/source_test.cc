// cmdbench: a small synthetic CMDBench lake, and the real one when present (the pg_dump reader it uses:
// tests/ingest/pg_dump_test.cc).
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "ingest/build_test_util.h"
#include "ingest/pg_dump_fixture.h"
#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/ingest/build.h"
#include "lakeqa/ingest/source_kind.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::cmdbench {
namespace {

using namespace ingest;
using namespace ingest::testing;

// The context table CMDBench ships beside its tables: it gives each WikiSQL table its page, section
// and caption.
const char* kContext =
    "CREATE TABLE metadata.nba_context (id text, page_title text, section_title text, caption text, doc "
    "jsonb);\n"
    "COPY metadata.nba_context (id, page_title, section_title, caption, doc) FROM stdin;\n"
    "1-1-1\tToronto Raptors all-time roster\tA\tA caption\t{\"header\": [\"Player\", \"No.\"]}\n"
    "\\.\n";

// Builds the CMDBench folder `src` into a new local lake at `lake_dir`.
Result<BuildReport> BuildCmdbenchLake(const std::string& src, const std::string& lake_dir, size_t jobs) {
  auto store = lake::OpenStore(lake_dir);
  if (!store.ok()) return store.status();
  BuildOptions o;
  o.jobs = jobs;
  return BuildLake(**store, SourceSpec{"cmdbench", src}, o);
}

TEST(CmdbenchBuild, TheSourceKindIsRegistered) {
  EXPECT_EQ(ParseSourceSpec("cmdbench:rel/path")->kind, "cmdbench");
}

TEST(CmdbenchBuild, SyntheticLake) {
  TempDir t;
  std::string src = t.path() + "/cmdbench";
  ASSERT_TRUE(MakeDirs(src + "/tables").ok());
  ASSERT_TRUE(MakeDirs(src + "/graph").ok());
  WriteBytes(src + "/tables/nba_wikisql.sql", kSql);
  WriteBytes(src + "/tables/metadata.sql", kContext);
  WriteBytes(src + "/graph/Player.csv", "wikidata_id:ID(Player),name\nQ1,\"Smith, \"\"J\"\"\"\nQ2,Jones\n");
  WriteBytes(src + "/graph/Team.csv", "wikidata_id:ID(Team),name\nQ9,Raptors\n");
  WriteBytes(src + "/graph/relation_playsFor.csv",
             ":START_ID(Player),:END_ID(Team),start_time\nQ1,Q9,2001\n");
  WriteBytes(src + "/graph/notes.csv", "a,b\n1,2\n");
  auto r = BuildCmdbenchLake(src, t.path() + "/lake", 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string lake = t.path() + "/lake/cmdbench/";
  EXPECT_EQ(Slurp(lake + "t_1_1_1/t_1_1_1.csv"),
            "player,no.\nQuincy Acy,4\n\"O'Neal, \"\"Shaq\"\"\",\nTab\tName,\"line\nbreak\"\n");
  Json m = SlurpJson(lake + "t_1_1_1/metadata.json");
  EXPECT_EQ(m["kind"], "table");
  EXPECT_EQ(m["wikisql_id"], "1-1-1");
  EXPECT_EQ(m["page_title"], "Toronto Raptors all-time roster");
  EXPECT_EQ(m["section_title"], "A");
  EXPECT_EQ(m["caption"], "A caption");
  EXPECT_EQ(m["header"], Json::array({"Player", "No."}));
  EXPECT_EQ(m["rows"], 3);
  EXPECT_EQ(Slurp(lake + "t_2_2_2/t_2_2_2.csv"), "\"Weird \"\"col\"\"\",b\nx,y\n");
  EXPECT_FALSE(SlurpJson(lake + "t_2_2_2/metadata.json").contains("page_title"));

  Json pm = SlurpJson(lake + "graph_nodes_Player/metadata.json");
  EXPECT_EQ(pm["kind"], "graph_nodes");
  EXPECT_EQ(pm["label"], "Player");
  EXPECT_EQ(pm["rows"], 2);
  EXPECT_EQ(pm["graph_schema"]["relations"][0]["start"], "Player");
  EXPECT_EQ(pm["graph_schema"]["nodes"].size(), 2u);
  Json rm = SlurpJson(lake + "graph_relation_playsFor/metadata.json");
  EXPECT_EQ(rm["start_label"], "Player");
  EXPECT_EQ(rm["end_label"], "Team");
  EXPECT_EQ(rm["properties"], Json::array({"start_time"}));
  EXPECT_EQ(Slurp(lake + "graph_relation_playsFor/relation_playsFor.csv"),
            ":START_ID(Player),:END_ID(Team),start_time\nQ1,Q9,2001\n");

  EXPECT_EQ(r->datasets.at("table"), 2u);
  EXPECT_EQ(r->datasets.at("graph_nodes"), 2u);
  EXPECT_EQ(r->datasets.at("graph_relations"), 1u);
  EXPECT_EQ(
      r->skipped_by_reason.count("CSV without :ID or :START_ID/:END_ID columns (not Neo4j import format)"),
      1u);
  EXPECT_EQ(r->errors_total, 1u);  // the one-field row
}

TEST(CmdbenchBuild, KiltDocumentExportKeepsParagraphIds) {
  // CMDBench's document collection as mongoexport writes it (one page per line, KILT fields), plus a
  // --jsonArray file and a malformed line.
  TempDir t;
  std::string src = t.path() + "/cmdbench";
  ASSERT_TRUE(MakeDirs(src + "/docs").ok());
  WriteBytes(
      src + "/docs/wiki-documents.jsonl",
      R"({"_id": {"$oid": "1"}, "wikipedia_id": "33074", "wikipedia_title": "Washington Wizards", "categories": "NBA teams", "text": ["Washington Wizards\n", "The Washington Wizards are an American professional basketball team.\n", "Section::::History.\n", "Founded in 1961 as the Chicago Packers.\n"]})"
      "\n{not json\n");
  WriteBytes(
      src + "/docs/more.json",
      R"([{"wikipedia_title": "Reggie Miller", "text": ["Reggie Miller\n", "Line one\nstill one\n"]}, {"title": "no kilt"}])");
  auto r = BuildCmdbenchLake(src, t.path() + "/lake", 1);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->datasets.at("article"), 2u);
  // The malformed line and the non-KILT object, and the two parts this export lacks (tables, graph): a
  // partial CMDBench folder is built and what is missing reported, never silently assumed.
  EXPECT_EQ(r->errors_total, 4u) << r->ToJson().dump(2);
  std::set<std::string> items;
  for (const auto& e : r->errors) items.insert(e.item);
  EXPECT_TRUE(items.count("docs/more.json[1]"));
  EXPECT_TRUE(items.count("docs/wiki-documents.jsonl:2"));
  EXPECT_TRUE(items.count(src + "/graph"));
  std::string lake = t.path() + "/lake/wikipedia/";
  // Line i of content.txt is KILT paragraph i (0 = the title).
  EXPECT_EQ(Slurp(lake + "Washington_Wizards/content.txt"),
            "Washington Wizards\nThe Washington Wizards are an American professional basketball team.\n"
            "Section::::History.\nFounded in 1961 as the Chicago Packers.\n");
  Json m = SlurpJson(lake + "Washington_Wizards/metadata.json");
  EXPECT_EQ(m["title"], "Washington Wizards");
  EXPECT_EQ(m["description"], "The Washington Wizards are an American professional basketball team.");
  EXPECT_EQ(m["wikipedia_id"], "33074");
  EXPECT_EQ(Slurp(lake + "Reggie_Miller/content.txt"), "Reggie Miller\nLine one still one\n");
}

std::string SharedData() {
  if (const char* env = std::getenv("LAKEQA_SHARED_DATA")) return env;
  return lakeqa::build_paths::SourceDir() + "/../shared/data";
}

TEST(CmdbenchBuild, RealNbaLake) {
  std::string src = SharedData() + "/cmdbench-nba";
  if (!PathExists(src + "/tables/nba_wikisql.sql")) {
    GTEST_SKIP() << "CMDBench NBA lake not found at " << src << " (set LAKEQA_SHARED_DATA)";
  }
  TempDir t;
  auto r = BuildCmdbenchLake(src, t.path() + "/lake", 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->datasets.at("table"), 1124u);
  EXPECT_EQ(r->datasets.at("graph_nodes"), 7u);
  EXPECT_EQ(r->datasets.at("graph_relations"), 8u);
  EXPECT_EQ(r->errors_total, 0u) << r->ToJson().dump(2);
  std::string lake = t.path() + "/lake/cmdbench/";
  std::string csv = Slurp(lake + "t_1_10015132_1/t_1_10015132_1.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n', csv.find('\n') + 1) + 1),
            "player,no.,nationality,position,years in toronto,school/club team\n"
            "Quincy Acy,4,United States,Forward,2012-present,Baylor\n");
  EXPECT_NE(csv.find("Rafer Alston,\"11, 12\",United States,Guard,\"2002-03, 2004-05\",Fresno State\n"),
            std::string::npos);
  Json m = SlurpJson(lake + "t_1_10015132_1/metadata.json");
  EXPECT_EQ(m["page_title"], "Toronto Raptors all-time roster");
  EXPECT_EQ(m["rows"], 11);
  Json g = SlurpJson(lake + "graph_relation_playsFor/metadata.json");
  EXPECT_EQ(g["graph_schema"]["nodes"].size(), 7u);
  EXPECT_EQ(g["graph_schema"]["relations"].size(), 8u);
  EXPECT_EQ(g["properties"], Json::array({"start_time", "end_time", "sport_number", "position"}));
}

}  // namespace
}  // namespace lakeqa::cmdbench
