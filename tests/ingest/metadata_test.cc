#include "lakeqa/ingest/metadata.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace lakeqa::ingest {
namespace {

TEST(Metadata, CkanRecordWrappedWithSignature) {
  std::string rec = R"({"signature": "abc==", "signed_at": "2025-01-01",
    "metadata": {"name": "apd-searches-by-type", "title": "APD Searches by Type",
      "notes": "Searches conducted by Austin Police Department officers.",
      "organization": {"title": "City of Austin", "name": "city-of-austin"},
      "tags": [{"display_name": "police"}, {"name": "searches"}],
      "groups": [{"title": "Public Safety"}],
      "license_title": "Public Domain",
      "extras": [{"key": "temporal", "value": "2019-01-01/2023-12-31"},
                 {"key": "theme", "value": "[\"Public Safety\"]"},
                 {"key": "spatial", "value": "Austin, TX"}]}})";
  auto m = ParseMetadataFile("signed-metadata.txt", rec);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->title, "APD Searches by Type");
  EXPECT_EQ(m->description, "Searches conducted by Austin Police Department officers.");
  EXPECT_EQ(m->publisher, "City of Austin");
  EXPECT_EQ(m->tags, (std::vector<std::string>{"police", "searches"}));
  EXPECT_EQ(m->themes, (std::vector<std::string>{"Public Safety"}));
  EXPECT_EQ(m->temporal, "2019-01-01/2023-12-31");
  EXPECT_EQ(m->spatial, "Austin, TX");
  EXPECT_EQ(m->license, "Public Domain");
  EXPECT_EQ(CategorizeThemes(*m), "Public Safety");
}

TEST(Metadata, DcatAndKeyValueText) {
  auto dcat = ParseMetadataFile("signed-metadata.txt",
                                R"({"title": "WIC Redemptions", "description": "By vendor", "publisher": {"name": "CDPH"},
                                    "keyword": ["wic", "nutrition"], "theme": ["Health"]})");
  ASSERT_TRUE(dcat.ok());
  EXPECT_EQ(dcat->publisher, "CDPH");
  EXPECT_EQ(CategorizeThemes(*dcat), "Health & Social");
  auto kv = ParseMetadataFile("signed-metadata.txt", "Title: School Progress Reports\nPublisher: NYC DOE\nTags: schools, grades\n");
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ(kv->title, "School Progress Reports");
  EXPECT_EQ(kv->tags, (std::vector<std::string>{"schools", "grades"}));
  EXPECT_EQ(CategorizeThemes(*kv), "Education");
}

TEST(Metadata, SocrataArcgisColumns) {
  auto view = ParseMetadataFile("files/xbjp-8sra.publisher-view.json",
                                R"({"id": "xbjp-8sra", "name": "Unemployment Insurance Beneficiaries", "category": "Labor",
                                    "attribution": "NYS DOL", "tags": ["jobs"],
                                    "columns": [{"name": "Year", "fieldName": "year"}, {"name": "Region", "fieldName": "region"}]})");
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->columns, (std::vector<std::string>{"Year", "Region"}));
  EXPECT_EQ(CategorizeThemes(*view), "Economy & Infrastructure");
  auto layer = ParseMetadataFile("files/0.arcgis-layer.json",
                                 R"({"name": "County Boundaries", "description": "<p>California <b>counties</b></p>",
                                     "geometryType": "esriGeometryPolygon", "fields": [{"name": "NAME", "alias": "County Name"}],
                                     "extent": {"xmin": -124.4, "ymin": 32.5, "xmax": -114.1, "ymax": 42.0, "spatialReference": {"wkid": 4326}}})");
  ASSERT_TRUE(layer.ok());
  EXPECT_EQ(layer->description, "California  counties");
  EXPECT_EQ(layer->columns, (std::vector<std::string>{"County Name"}));
  EXPECT_NE(layer->spatial.find("-124.4"), std::string::npos);
  auto cols = ParseMetadataFile("files/columns.txt", "Occurred Year\nSector\tstring\n\nCouncil District,number\n");
  ASSERT_TRUE(cols.ok());
  EXPECT_EQ(cols->columns, (std::vector<std::string>{"Occurred Year", "Sector", "Council District"}));
  DatasetMetadata merged = *view;
  merged.MergeFrom(*cols);
  EXPECT_EQ(merged.columns.size(), 5u);
  EXPECT_EQ(merged.metadata_files.size(), 2u);
  EXPECT_EQ(DatasetMetadata::FromJson(merged.ToJson()).ToJson(), merged.ToJson());
}

TEST(Metadata, BadInputIsAClearError) {
  auto bad = ParseMetadataFile("files/a.publisher-view.json", "{\n  \"name\": \"x\",\n  oops\n}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kParseError);
  EXPECT_NE(bad.status().message().find("files/a.publisher-view.json:3:"), std::string::npos) << bad.status().message();
  EXPECT_EQ(ParseMetadataFile("signed-metadata.txt", "{\"no\": \"record\"}").status().code(), ErrorCode::kParseError);
  EXPECT_EQ(ParseMetadataFile("files/rows.txt", "a,b").status().code(), ErrorCode::kUnsupported);
  std::string huge(17u << 20, ' ');
  EXPECT_EQ(ParseMetadataFile("signed-metadata.txt", huge).status().code(), ErrorCode::kResourceExhausted);
  auto utf = ParseMetadataFile("signed-metadata.txt", "Title: Caf\xE9\n");
  ASSERT_TRUE(utf.ok());
  EXPECT_EQ(utf->title, "Caf\xEF\xBF\xBD");
}

TEST(Metadata, WikipediaLeadParagraph) {
  auto m = WikipediaMetadata("2020_in_film", "2020 in film\n\nThe year 2020 in film was affected by the COVID-19 pandemic.\nMany cinemas closed.\n\n== Events ==\n");
  EXPECT_EQ(m.title, "2020 in film");
  EXPECT_EQ(m.description, "The year 2020 in film was affected by the COVID-19 pandemic. Many cinemas closed.");
}

TEST(Metadata, CategoriesAreThePapersEight) {
  EXPECT_EQ(ThemeCategories().size(), 8u);
  DatasetMetadata m;
  m.themes = {"Roadways and Bridges"};
  EXPECT_EQ(CategorizeThemes(m), "Transportation");
  m.themes = {"Something Else"};
  m.tags = {"census tracts"};
  EXPECT_EQ(CategorizeThemes(m), "Research & Demographics");
  DatasetMetadata none;
  none.title = "Untitled";
  EXPECT_EQ(CategorizeThemes(none), "");
}

TEST(Metadata, RealTaskMetadataFilesAreRecognised) {
  std::string root = std::string(LAKEQA_SOURCE_DIR) + "/../shared/data/lakeqa-tasks/lakeqa_mini";
  if (const char* d = std::getenv("LAKEQA_SHARED_DATA")) root = std::string(d) + "/lakeqa-tasks/lakeqa_mini";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "shared data not present at " << root;
  size_t meta = 0, data = 0;
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = ParseJson(ss.str(), e.path().string());
    if (!j.ok() || !j->contains("datasets_used")) continue;
    for (const auto& p : (*j)["datasets_used"]) {
      std::string path = p.get<std::string>();
      if (path.rfind("datagov/", 0) != 0) continue;
      size_t slash = path.find('/', 8);
      std::string rel = path.substr(slash + 1);
      bool expect_meta = rel == "signed-metadata.txt" || rel == "files/columns.txt" ||
                         rel.find(".publisher-view.json") != std::string::npos ||
                         rel.find(".arcgis-layer.json") != std::string::npos;
      EXPECT_EQ(IsMetadataFile(rel), expect_meta) << rel;
      (expect_meta ? meta : data)++;
    }
  }
  EXPECT_GT(meta, 100u);
  EXPECT_GT(data, 100u);
}

}  // namespace
}  // namespace lakeqa::ingest
