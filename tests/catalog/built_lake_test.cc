// A lake written by `lake build` is catalogued by `index build` without errors: every built-in source kind's
// output (enwiki pages, data.gov records with converted resources) gets a dataset record with a title and
// no per-file error (a benchmark's source kind: tests/<benchmark>/built_lake_test.cc).
#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/built_lake_util.h"
#include "ingest/build_test_util.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/build.h"

namespace lakeqa::catalog {
namespace {

using catalog::testing::BuildAndCatalogue;
using ingest::testing::PageXml;
using ingest::testing::TempDir;
using ingest::testing::WriteBytes;

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

}  // namespace
}  // namespace lakeqa::catalog
