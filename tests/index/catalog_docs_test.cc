// The catalog → text index path end to end on a tiny real lake (local folder, SQLite catalog, on-disk
// index): search finds the right dataset, rebuilds are incremental, facet counts equal a full scan, and
// prefix listing equals a brute-force S3 list-with-delimiter.
#include "lakeqa/index/catalog_docs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "index/test_util.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/near_duplicates.h"
#include "lakeqa/index/prefix.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

using testing::TempDir;

constexpr const char* kApd = R"({"metadata": {"title": "APD Searches by Type",
  "notes": "Searches conducted by Austin police officers, by type and district.",
  "organization": {"title": "City of Austin"}, "tags": [{"display_name": "police"}],
  "groups": [{"title": "Public Safety"}]}})";
constexpr const char* kParks = R"({"metadata": {"title": "Park Facilities",
  "notes": "Playgrounds, pools and picnic areas in city parks.", "organization": {"title": "City of Austin"},
  "tags": [{"display_name": "recreation"}], "groups": [{"title": "Recreation"}]}})";
constexpr const char* kBudget = R"({"metadata": {"title": "County Budget 2021",
  "notes": "Adopted operating budget by department.", "organization": {"title": "King County"},
  "tags": [{"display_name": "finance"}], "groups": [{"title": "Finance"}]}})";

catalog::BuildOptions QuietBuild() {
  catalog::BuildOptions o;
  o.progress = false;
  o.jobs = 1;
  return o;
}

TextBuildOptions QuietText() {
  TextBuildOptions o;
  o.progress = false;
  return o;
}

class CatalogDocsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = std::make_unique<lake::LocalStore>(lake_.path);
    Put("datagov/apd-searches/signed-metadata.txt", kApd);
    Put("datagov/apd-searches/files/rows.txt",
        "Occurred Year,Sector,Council District\n2023,Charlie,1\n2022,Adam,2\n");
    Put("datagov/parks/signed-metadata.txt", kParks);
    Put("datagov/parks/files/rows.txt", "Park Name,Facility\nZilker,Pool\nPease,Playground\n");
    Put("datagov/budget-2021/signed-metadata.txt", kBudget);
    Put("datagov/budget-2021/files/rows.txt", "Department,Amount\nSheriff,1000\nLibrary,200\n");
    Put("wikipedia/2020_in_film/content.txt",
        "2020 in film\n\nThe year 2020 in film was shaped by the pandemic, with cinemas closed for "
        "months.\n");
    // A cmdbench-style table: its metadata.json is not a data.gov record, so the title comes from the
    // profile's text sample (page and section titles).
    Put("cmdbench/t_1_13619135_7/metadata.json",
        R"({"kind": "table", "table": "t_1_13619135_7", "page_title": "1999-2000 Toronto Raptors season",)"
        R"( "section_title": "Game log", "caption": "March games"})");
    Put("cmdbench/t_1_13619135_7/t_1_13619135_7.csv",
        "game,date,team,high points\n60,March 19,Houston,Vince Carter (37)\n61,March 21,Boston,Vince Carter "
        "(31)\n");
  }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(store_->Write(key, data).ok()) << key;
  }

  void Build(TextBuildReport* report = nullptr, TextBuildOptions o = QuietText()) {
    auto r = catalog::BuildCatalog(*store_, index_.path, QuietBuild());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    auto cat = catalog::Catalog::Open(index_.path + "/catalog.sqlite");
    ASSERT_TRUE(cat.ok()) << cat.status().ToString();
    auto t = BuildTextIndex(**cat, index_.path, o);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    if (report) *report = *t;
  }

  SearchResult Search(const std::string& q, SearchOptions o = {}) {
    auto reader = IndexReader::Open(index_.path + "/text");
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    Searcher s(*reader);
    auto r = s.Search(q, o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : SearchResult{};
  }

  std::string Top(const std::string& q) {
    auto r = Search(q);
    return r.hits.empty() ? "" : r.hits[0].id;
  }

  TempDir lake_, index_;
  std::unique_ptr<lake::LocalStore> store_;
};

TEST_F(CatalogDocsTest, SearchFindsTheRightDataset) {
  TextBuildReport r;
  Build(&r);
  EXPECT_EQ(r.datasets, 5u);
  EXPECT_EQ(r.added, 5u);
  EXPECT_EQ(Top("police searches"), "datagov/apd-searches");  // title and description
  EXPECT_EQ(Top("playground pool"), "datagov/parks");         // description and cell values
  EXPECT_EQ(Top("department budget"), "datagov/budget-2021");
  EXPECT_EQ(Top("pandemic cinemas"), "wikipedia/2020_in_film");       // content sample
  EXPECT_EQ(Top("sector"), "datagov/apd-searches");                   // column name
  EXPECT_EQ(Top("Raptors game log"), "cmdbench/t_1_13619135_7");      // metadata.json fallback title
  EXPECT_EQ(Top("Vince Carter Houston"), "cmdbench/t_1_13619135_7");  // sampled values
  auto f = Search("namespace:wikipedia");
  ASSERT_EQ(f.hits.size(), 1u);
  EXPECT_EQ(f.hits[0].id, "wikipedia/2020_in_film");
  // Matched columns name the columns the query hit.
  auto c = Search("sector");
  ASSERT_FALSE(c.hits.empty());
  EXPECT_EQ(c.hits[0].matched_columns, std::vector<std::string>{"Sector"});
}

TEST_F(CatalogDocsTest, DocumentFieldsAreBoundedAndComplete) {
  ASSERT_TRUE(catalog::BuildCatalog(*store_, index_.path, QuietBuild()).ok());
  auto cat = catalog::Catalog::Open(index_.path + "/catalog.sqlite");
  ASSERT_TRUE(cat.ok());
  DocOptions tiny;
  tiny.max_values_bytes = 10;
  tiny.max_files = 1;
  bool seen = false;
  ASSERT_TRUE((*cat)
                  ->ForEachDataset(
                      [&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
                        if (d.FullId() != "datagov/apd-searches") return Status::Ok();
                        seen = true;
                        Document doc = DatasetDocument(d, files);
                        std::multimap<std::string, std::string> f(doc.fields.begin(), doc.fields.end());
                        EXPECT_EQ(doc.id, "datagov/apd-searches");
                        EXPECT_EQ(f.find("title")->second, "APD Searches by Type");
                        EXPECT_EQ(f.find("publisher")->second, "City of Austin");
                        EXPECT_EQ(f.find("namespace")->second, "datagov");
                        EXPECT_EQ(f.find("format")->second, "csv");
                        EXPECT_EQ(f.count("columns"), 3u);
                        EXPECT_EQ(f.count("file_names"), 2u);
                        Document small = DatasetDocument(d, files, tiny);
                        size_t value_bytes = 0, names = 0;
                        for (const auto& [k, v] : small.fields) {
                          if (k == "values") value_bytes += v.size();
                          if (k == "file_names") ++names;
                        }
                        EXPECT_LE(value_bytes, 10u);
                        EXPECT_EQ(names, 1u);
                        EXPECT_EQ(Fingerprint(doc), Fingerprint(DatasetDocument(d, files)));
                        EXPECT_NE(Fingerprint(doc), Fingerprint(small));
                        return Status::Ok();
                      })
                  .ok());
  EXPECT_TRUE(seen);
}

TEST_F(CatalogDocsTest, RebuildIsIncremental) {
  Build();
  TextBuildReport again;
  Build(&again);
  EXPECT_EQ(again.unchanged, 5u);
  EXPECT_EQ(again.added + again.updated + again.deleted, 0u);

  // One dataset changes, one disappears, one appears.
  Put("datagov/parks/files/rows.txt", "Park Name,Facility\nZilker,Skatepark\n");
  ASSERT_TRUE(RemoveAll(lake_.path + "/datagov/budget-2021").ok());
  Put("datagov/libraries/signed-metadata.txt",
      R"({"metadata": {"title": "Library Branches", "notes": "Branch hours.", "tags": ["books"]}})");
  TextBuildReport r;
  Build(&r);
  EXPECT_EQ(r.updated, 1u);
  EXPECT_EQ(r.deleted, 1u);
  EXPECT_EQ(r.added, 1u);
  EXPECT_EQ(r.unchanged, 3u);
  EXPECT_EQ(Top("skatepark"), "datagov/parks");
  EXPECT_TRUE(Search("pease").hits.empty());  // the old values are gone, not duplicated
  EXPECT_TRUE(Search("department budget").hits.empty());
  EXPECT_EQ(Top("library branches"), "datagov/libraries");
  auto reader = IndexReader::Open(index_.path + "/text");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_docs(), 5u);

  // Without its fingerprint file the index starts over instead of keeping stale documents.
  ASSERT_TRUE(RemoveAll(index_.path + "/text/datasets.state").ok());
  TextBuildReport fresh;
  Build(&fresh);
  EXPECT_EQ(fresh.added, 5u);
  reader = IndexReader::Open(index_.path + "/text");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_docs(), 5u);
}

// The merge policy: incremental builds each add a segment; past max_segments the index becomes one segment,
// without the deleted (replaced) documents, and searches give the same answers.
TEST_F(CatalogDocsTest, MergePolicyKeepsFewSegments) {
  TextBuildOptions o = QuietText();
  o.max_segments = 2;
  TextBuildReport r;
  Build(&r, o);
  EXPECT_EQ(r.merged, 0u);
  Put("datagov/parks/files/rows.txt", "Park Name,Facility\nZilker,Skatepark\n");
  Build(&r, o);
  EXPECT_EQ(r.merged, 0u);
  auto reader = IndexReader::Open(index_.path + "/text");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_segments(), 2u);
  Put("datagov/parks/files/rows.txt", "Park Name,Facility\nZilker,Boathouse\n");
  Build(&r, o);
  EXPECT_EQ(r.merged, 1u);
  reader = IndexReader::Open(index_.path + "/text");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_segments(), 1u);
  EXPECT_EQ((*reader)->num_docs(), 5u);
  EXPECT_EQ(Top("boathouse"), "datagov/parks");
  EXPECT_TRUE(Search("skatepark").hits.empty());
  EXPECT_EQ(Top("apd searches"), "datagov/apd-searches");
}

TEST_F(CatalogDocsTest, FacetCountsEqualAFullScan) {
  Build();
  auto cat = catalog::Catalog::Open(index_.path + "/catalog.sqlite");
  ASSERT_TRUE(cat.ok());
  std::map<std::string, Document> docs;
  ASSERT_TRUE(
      (*cat)
          ->ForEachDataset([&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& f) {
            docs[d.FullId()] = DatasetDocument(d, f);
            return Status::Ok();
          })
          .ok());
  const std::vector<std::string> facets = {"namespace", "format", "category", "tags", "publisher"};
  for (const std::string q : {"", "city", "2020 OR police", "vince"}) {
    SearchOptions o;
    o.k = 1000;
    o.facet_fields = facets;
    o.facet_limit = 1000;
    SearchResult r = Search(q, o);
    // Reference: count the (folded, distinct per document) keyword values of every matching document.
    std::map<std::string, std::map<std::string, uint64_t>> want;
    for (const auto& h : r.hits) {
      std::map<std::string, std::set<std::string>> per_doc;
      for (const auto& [k, v] : docs.at(h.id).fields) per_doc[k].insert(text::FoldKeyword(v));
      for (const auto& f : facets) {
        for (const auto& v : per_doc[f]) ++want[f][v];
      }
    }
    EXPECT_EQ(r.total, static_cast<int64_t>(r.hits.size())) << q;
    for (const auto& f : facets) {
      std::map<std::string, uint64_t> got;
      for (const auto& fv : r.facets[f]) got[text::FoldKeyword(fv.value)] = fv.count;  // shown as written
      EXPECT_EQ(got, want[f]) << "query '" << q << "' facet " << f;
    }
  }
}

TEST_F(CatalogDocsTest, ChunksWindowWithOverlap) {
  std::string words;
  for (int i = 0; i < 25; ++i) words += "w" + std::to_string(i) + " ";
  Put("wikipedia/Long_page/content.txt", "Long page\n\n" + words + "\n");
  TextBuildOptions o = QuietText();
  o.chunks = true;
  o.chunk.window = 10;
  o.chunk.overlap = 3;
  TextBuildReport r;
  Build(&r, o);
  EXPECT_GT(r.chunks, 5u);
  auto cat = catalog::Catalog::Open(index_.path + "/catalog.sqlite");
  ASSERT_TRUE(cat.ok());
  ASSERT_TRUE(
      (*cat)
          ->ForEachDataset([&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& f) {
            auto chunks = ChunkDocuments(d, f, o.chunk);
            // Reference: the words of every chunk, re-joined without the overlaps, are the dataset's words.
            std::vector<std::string> all;
            for (size_t i = 0; i < chunks.size(); ++i) {
              EXPECT_EQ(chunks[i].id, d.FullId() + "#" + std::to_string(i));
              std::string text;
              for (const auto& [k, v] : chunks[i].fields) {
                if (k == "text") text = v;
              }
              std::vector<std::string> w;
              for (auto p : Split(text, ' ')) w.emplace_back(p);
              EXPECT_LE(w.size(), 10u);
              if (i + 1 < chunks.size()) {
                EXPECT_EQ(w.size(), 10u);
              }
              if (i > 0) {
                EXPECT_TRUE(std::equal(all.end() - 3, all.end(), w.begin())) << d.FullId() << " chunk " << i;
                all.insert(all.end(), w.begin() + 3, w.end());
              } else {
                all = w;
              }
            }
            if (d.FullId() == "wikipedia/Long_page") {
              EXPECT_NE(std::find(all.begin(), all.end(), "w24"), all.end());
              EXPECT_EQ(std::count(all.begin(), all.end(), "w7"), 1);
            }
            return Status::Ok();
          })
          .ok());
  auto reader = IndexReader::Open(index_.path + "/chunks");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->num_docs(), r.chunks);
  Searcher s(*reader);
  auto hit = s.Search("w24");
  ASSERT_TRUE(hit.ok());
  ASSERT_EQ(hit->hits.size(), 1u);
  EXPECT_EQ(hit->hits[0].id.rfind("wikipedia/Long_page#", 0), 0u);

  ChunkOptions bad;
  bad.window = 5;
  bad.overlap = 5;
  EXPECT_FALSE(bad.Validate().ok());
}

TEST_F(CatalogDocsTest, YearRangesMatchTheirEndYear) {
  Put("cmdbench/t_9/metadata.json",
      R"({"page_title": "2008\u201309 Boston Celtics season", "section_title": "Roster"})");
  Put("cmdbench/t_9/t_9.csv", "player,years\nRay Allen,2007-12\n");
  Build();
  EXPECT_EQ(Top("2009 Celtics"), "cmdbench/t_9");
  EXPECT_EQ(Top("2010"), "cmdbench/t_9");  // inside the span in a cell value
}

TEST_F(CatalogDocsTest, RepeatedTextCountsOnceAndCoverageAndRowsAreKept) {
  // CMDBench's caption repeats the section title: it must not count twice.
  Put("cmdbench/t_2_7/metadata.json",
      R"({"kind": "table", "page_title": "2008\u201309 Utah Jazz season", "section_title": "Game log",)"
      R"( "caption": "Game log", "title": "2008\u201309 Utah Jazz season \u2014 Game log", "description": "Game log"})");
  Put("cmdbench/t_2_7/t_2_7.csv",
      "game,date,score\n50,February 2,W 100-90\n51,March 1,L 80-99\n52,March 3,W 1-0\n");
  Put("datagov/dated/signed-metadata.txt",
      R"({"metadata": {"title": "Permits", "notes": "Permits issued from 2019-03-15 to 04/30/2019. More below."}})");
  Put("datagov/dated/files/rows.txt", "Issued Date,Kind\n2019-03-15,fence\n2019-04-02,deck\n");
  ASSERT_TRUE(catalog::BuildCatalog(*store_, index_.path, QuietBuild()).ok());
  auto cat = catalog::Catalog::Open(index_.path + "/catalog.sqlite");
  ASSERT_TRUE(cat.ok());
  std::map<std::string, Document> docs;
  ASSERT_TRUE((*cat)
                  ->ForEachDataset(
                      [&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
                        docs[d.FullId()] = DatasetDocument(d, files);
                        return Status::Ok();
                      })
                  .ok());
  auto fields = [&](const std::string& id) {
    std::multimap<std::string, std::string> f(docs[id].fields.begin(), docs[id].fields.end());
    return f;
  };
  auto jazz = fields("cmdbench/t_2_7");
  EXPECT_EQ(jazz.count("description"), 0u);  // == the section title
  ASSERT_EQ(jazz.count("coverage"), 1u);
  EXPECT_EQ(jazz.find("coverage")->second,
            "February, March; 2008\xE2\x80\x93"
            "2009");
  EXPECT_EQ(jazz.find("rows")->second, "3");
  auto dated = fields("datagov/dated");
  EXPECT_EQ(dated.find("coverage")->second, "March, April; 2019");  // numeric dates name their months
  auto raptors = fields("cmdbench/t_1_13619135_7");
  EXPECT_EQ(raptors.find("description")->second, "March games");  // a caption that says more is kept
  EXPECT_EQ(raptors.find("coverage")->second,
            "March; 1999\xE2\x80\x93"
            "2000");
  EXPECT_EQ(fields("wikipedia/2020_in_film").count("rows"), 0u);  // unknown stays unknown
  Build();
  EXPECT_EQ(Top("Jazz games in February 2009"), "cmdbench/t_2_7");
  EXPECT_EQ(Top("permits april"), "datagov/dated");
}

TEST_F(CatalogDocsTest, NearDuplicatesAreGroupedWithWhatDiffers) {
  // Two copies of one table (WikiSQL's t_1_X / t_2_X: same title, the second one row longer and without a
  // column) and another month of the same game log (same title and schema, other rows).
  auto table = [&](const std::string& name, const std::string& csv) {
    Put("cmdbench/" + name + "/metadata.json",
        R"({"kind": "table", "title": "2004\u201305 Toronto Raptors season \u2014 Game log"})");
    Put("cmdbench/" + name + "/" + name + ".csv", csv);
  };
  table("t_1_9_3",
        "game,date,team,no.\n1,November 3,Houston,4\n2,November 5,Miami,5\n3,November 7,Boston,6\n");
  table("t_2_9_3",
        "game,date,team\n1,November 3,Houston\n2,November 5,Miami\n3,November 7,Boston\n4,November 9,Utah\n");
  table("t_1_9_4",
        "game,date,team,no.\n14,December 1,Denver,4\n15,December 3,Phoenix,5\n16,December 5,Dallas,6\n");
  TextBuildReport r;
  Build(&r);
  EXPECT_EQ(r.near_duplicates.title_groups, 1u);
  EXPECT_EQ(r.near_duplicates.groups, 1u);
  EXPECT_EQ(r.near_duplicates.datasets, 2u);
  auto dups = NearDuplicates::Load(index_.path);
  ASSERT_TRUE(dups.ok()) << dups.status().ToString();
  EXPECT_EQ(dups->GroupOf("cmdbench/t_1_9_4"), nullptr);
  ASSERT_NE(dups->GroupOf("cmdbench/t_1_9_3"), nullptr);
  EXPECT_EQ(dups->GroupOf("cmdbench/t_1_9_3"), dups->GroupOf("cmdbench/t_2_9_3"));
  Json d = dups->Differences("cmdbench/t_1_9_3");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]["id"], "cmdbench/t_2_9_3");
  EXPECT_EQ(d[0]["rows"], 4);
  EXPECT_EQ(d[0]["columns_only_here"], Json::array({"no."}));
  EXPECT_NE(d[0]["differs"].dump().find("rows: 3 here, 4 there"), std::string::npos) << d.dump();
  // Collapsed, the copies are one hit; the next group fills the page.
  auto reader = IndexReader::Open(index_.path + "/text");
  ASSERT_TRUE(reader.ok());
  Searcher s(*reader);
  auto q = s.Parse("Raptors game log Houston Miami Boston");
  ASSERT_TRUE(q.ok());
  SearchOptions o;
  o.k = 2;
  auto plain = s.Search(*q, o);
  ASSERT_TRUE(plain.ok());
  ASSERT_EQ(plain->hits.size(), 2u);
  EXPECT_EQ(plain->hits[0].id.substr(0, 13), "cmdbench/t_1_");
  auto collapsed = SearchCollapsed(*dups, o, [&](const SearchOptions& x) { return s.Search(*q, x); });
  ASSERT_TRUE(collapsed.ok());
  ASSERT_EQ(collapsed->hits.size(), 2u);
  EXPECT_EQ(collapsed->hits[0].id, plain->hits[0].id);
  EXPECT_NE(dups->GroupOf(collapsed->hits[0].id), dups->GroupOf(collapsed->hits[1].id));
  // A damaged groups file is an error naming it, not an empty result.
  ASSERT_TRUE(WriteFileAtomic(index_.path + "/near_duplicates.json", "{\"groups\": 3}").ok());
  auto bad = NearDuplicates::Load(index_.path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("near_duplicates.json"), std::string::npos);
}

// Brute-force S3 ListObjectsV2 over a sorted key list.
PrefixResult ReferenceList(const std::vector<std::string>& keys, const std::string& prefix,
                           const std::string& delim) {
  PrefixResult r;
  std::set<std::string> seen;
  for (const auto& k : keys) {
    if (k.rfind(prefix, 0) != 0) continue;
    size_t p = delim.empty() ? std::string::npos : k.find(delim, prefix.size());
    if (p != std::string::npos) {
      std::string cp = k.substr(0, p + delim.size());
      if (seen.insert(cp).second) r.common_prefixes.push_back(cp);
    } else {
      r.keys.push_back({k, "", 0, 0});
    }
  }
  return r;
}

TEST(PrefixTest, EqualsBruteForceListing) {
  TempDir lake, index;
  lake::LocalStore store(lake.path);
  std::vector<std::string> ids = {"cmdbench/graph_nodes_Player",
                                  "cmdbench/graph_nodes_Team",
                                  "cmdbench/graph_relation_playsFor",
                                  "cmdbench/t_1_100_1",
                                  "cmdbench/t_1_100_2",
                                  "cmdbench/t_1_200_1",
                                  "cmdbench/t_2_100_1",
                                  "datagov/a",
                                  "datagov/a-b",
                                  "datagov/b",
                                  "wikipedia/X",
                                  "wikipedia/X_(film)"};
  for (const auto& id : ids) ASSERT_TRUE(store.Write(id + "/data.csv", "a,b\n1,2\n").ok());
  ASSERT_TRUE(catalog::BuildCatalog(store, index.path, QuietBuild()).ok());
  auto cat = catalog::Catalog::Open(index.path + "/catalog.sqlite");
  ASSERT_TRUE(cat.ok());
  std::sort(ids.begin(), ids.end());
  for (const std::string prefix :
       {"", "c", "cmdbench", "cmdbench/", "cmdbench/t_1_", "datagov/a", "wikipedia/X", "zzz"}) {
    for (const std::string delim : {"", "/", "_", "_1"}) {
      PrefixResult want = ReferenceList(ids, prefix, delim);
      for (uint64_t page : {1, 2, 3, 1000}) {
        PrefixRequest req{prefix, delim, page, ""};
        PrefixResult got;
        for (int guard = 0; guard < 100; ++guard) {
          auto r = ListPrefix(**cat, req);
          ASSERT_TRUE(r.ok()) << r.status().ToString();
          EXPECT_LE(r->keys.size() + r->common_prefixes.size(), page);
          for (auto& k : r->keys) got.keys.push_back(k);
          for (auto& c : r->common_prefixes) got.common_prefixes.push_back(c);
          if (!r->truncated) break;
          req.continuation = r->next_token;
        }
        std::vector<std::string> gk, wk;
        for (const auto& k : got.keys) gk.push_back(k.id);
        for (const auto& k : want.keys) wk.push_back(k.id);
        EXPECT_EQ(gk, wk) << "prefix '" << prefix << "' delimiter '" << delim << "' page " << page;
        EXPECT_EQ(got.common_prefixes, want.common_prefixes)
            << "prefix '" << prefix << "' delimiter '" << delim << "' page " << page;
      }
    }
  }
  EXPECT_FALSE(ListPrefix(**cat, PrefixRequest{"", "", 0, ""}).ok());
  EXPECT_FALSE(ListPrefix(**cat, PrefixRequest{"", "", 1001, ""}).ok());
  EXPECT_FALSE(ListPrefix(**cat, PrefixRequest{"datagov/", "", 10, "bogus"}).ok());
  EXPECT_FALSE(ListPrefix(**cat, PrefixRequest{"datagov/", "", 10, "k:wikipedia/X"}).ok());
}

}  // namespace
}  // namespace lakeqa::index
