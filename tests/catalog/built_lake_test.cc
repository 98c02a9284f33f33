// A lake written by `lake build` is catalogued by `index build` without errors: every source kind's
// output (enwiki pages, data.gov records with converted resources, the CMDBench tables and graph) gets a
// dataset record with a title and no per-file error.
#include <gtest/gtest.h>

#include <filesystem>

#include "ingest/build_test_util.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/build.h"

namespace lakeqa::catalog {
namespace {

using ingest::testing::PageXml;
using ingest::testing::TempDir;
using ingest::testing::WriteBytes;

// Builds `spec` into <tmp>/lake, catalogues it, and checks every dataset and file.
void BuildAndCatalogue(const ingest::SourceSpec& spec, size_t min_datasets) {
  TempDir t;
  auto store = lake::OpenStore(t.path() + "/lake");
  ASSERT_TRUE(store.ok());
  ingest::BuildOptions bo;
  bo.jobs = 2;
  auto built = ingest::BuildLake(**store, spec, bo);
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  ASSERT_GE(built->DatasetsTotal(), min_datasets) << built->ToJson().dump(2);

  BuildOptions co;
  co.progress = false;
  co.jobs = 2;
  auto report = BuildCatalog(**store, t.path() + "/index", co);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->errors, 0u) << report->ToJson().dump(2);
  EXPECT_EQ(report->datasets, built->DatasetsTotal());

  auto cat = Catalog::Open(t.path() + "/index/catalog.sqlite", true);
  ASSERT_TRUE(cat.ok()) << cat.status().ToString();
  size_t seen = 0;
  Status st = (*cat)->ForEachDataset([&](const DatasetRecord& d, const std::vector<FileRecord>& files) {
    ++seen;
    EXPECT_FALSE(d.metadata.title.empty()) << d.FullId();
    EXPECT_EQ(d.error_count, 0u) << d.FullId();
    for (const FileRecord& f : files) EXPECT_EQ(f.error, "") << d.FullId() << "/" << f.path;
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen, built->DatasetsTotal());
}

TEST(BuiltLake, EnwikiIsCataloguedWithoutErrors) {
  TempDir t;
  std::string xml = ingest::testing::kDumpHeader;
  xml += PageXml({"Alpha Centauri", 0, 1,
                  "'''Alpha Centauri''' is a star system.\n== Stars ==\n* A\n* B\n[[Category:Stars]]", ""});
  xml +=
      PageXml({"AC/DC", 0, 2, "{{Infobox band|name=AC/DC}}'''AC/DC''' are a rock band formed in 1973.", ""});
  xml += PageXml({"Rigil Kentaurus", 0, 3, "#REDIRECT [[Alpha Centauri]]", "Alpha Centauri"});
  WriteBytes(t.path() + "/dump.xml", xml + ingest::testing::kDumpFooter);
  BuildAndCatalogue({"enwiki", t.path() + "/dump.xml"}, 2);
}

TEST(BuiltLake, DatagovIsCataloguedWithoutErrors) {
  TempDir t;
  std::string src = t.path() + "/src";
  ASSERT_TRUE(MakeDirs(src + "/water-quality").ok());
  WriteBytes(src + "/water-quality.json",
             R"({"name": "water-quality", "id": "wq1", "title": "Water quality", "notes": "Samples by site",
                 "organization": {"title": "City of Austin"}, "tags": [{"name": "water"}]})");
  WriteBytes(src + "/water-quality/data.csv", "site,ph\nA,7.1\nB,6.9\n");
  WriteBytes(src + "/water-quality/page.html", "<html><body><h1>Stations</h1><p>North</p></body></html>");
  BuildAndCatalogue({"datagov", src}, 1);
}

TEST(BuiltLake, CmdbenchIsCataloguedWithoutErrors) {
  std::string root = lakeqa::build_paths::SourceDir() + "/../shared/data/cmdbench-nba";
  if (!std::filesystem::exists(root + "/tables")) GTEST_SKIP() << "shared data not found: " << root;
  BuildAndCatalogue({"cmdbench", root}, 1000);
}

}  // namespace
}  // namespace lakeqa::catalog
