#include "lakeqa/ingest/metadata.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/json.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace lakeqa::ingest {
namespace {

using Strings = std::vector<std::string>;

// Modeled on data/signed-metadata.json of a Harvard LIL data.gov archive bag (bag-nabit), which the LakeQA
// lake stores as datagov/<name>/signed-metadata.txt: an envelope around data.gov's CKAN package record.
constexpr const char* kSignedMetadata = R"({
  "id": "5b0c3a8e-55a4-4a8f-9d8e-0f1e2d3c4b5a",
  "url": "https://catalog.data.gov/dataset/apd-searches-by-type",
  "description": "Archive of data.gov dataset \"APD Searches by Type\" created by City of Austin. Full metadata stored in data_gov_metadata key.",
  "data_gov_metadata": {
    "id": "0d3e3c1a-8f43-4a43-b1c3-6e2f1a9b7c11",
    "name": "apd-searches-by-type",
    "title": "APD Searches by Type",
    "notes": "<p>Searches conducted by Austin Police Department officers &amp; the reason for each search.</p>",
    "metadata_created": "2020-03-04T19:33:11.501436",
    "metadata_modified": "2024-11-23T05:12:40.118233",
    "private": false,
    "state": "active",
    "type": "dataset",
    "num_resources": 2,
    "num_tags": 3,
    "isopen": false,
    "author": null,
    "license_id": "notspecified",
    "license_title": "License not specified",
    "maintainer": "Austin Police Department",
    "owner_org": "3f2b1c0d-aaaa-bbbb-cccc-111122223333",
    "url": null,
    "organization": {"id": "3f2b1c0d-aaaa-bbbb-cccc-111122223333", "name": "city-of-austin", "title": "City of Austin",
                     "type": "organization", "is_organization": true},
    "extras": [
      {"key": "accessLevel", "value": "public"},
      {"key": "landingPage", "value": "https://data.austintexas.gov/d/3bfz-mri4"},
      {"key": "modified", "value": "2024-11-20"},
      {"key": "publisher", "value": "data.austintexas.gov"},
      {"key": "theme", "value": "[\"Public Safety\"]"},
      {"key": "temporal", "value": "2019-01-01/2023-12-31"},
      {"key": "spatial", "value": "Austin, TX"}
    ],
    "resources": [{"format": "CSV", "url": "https://data.austintexas.gov/api/views/3bfz-mri4/rows.csv?accessType=DOWNLOAD"}],
    "tags": [{"display_name": "police", "name": "police", "state": "active", "vocabulary_id": null},
             {"display_name": "searches", "name": "searches"}, {"name": "apd"}],
    "groups": [],
    "relationships_as_subject": [],
    "relationships_as_object": []
  },
  "crawler_metadata": {"crawler_identified_date": "2025-01-28T10:00:00", "crawler_downloaded_date": "2025-02-01T02:00:00"},
  "collection_tasks": [{"url": "https://data.austintexas.gov/api/views/3bfz-mri4/rows.csv?accessType=DOWNLOAD",
                        "response": {"success": true, "path": "rows.csv"}}]
})";

TEST(Metadata, SignedMetadataEnvelopeAroundCkanRecord) {
  auto m = ParseMetadataFile("signed-metadata.txt", kSignedMetadata);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->title, "APD Searches by Type");
  EXPECT_EQ(m->description,
            "Searches conducted by Austin Police Department officers & the reason for each search.");
  EXPECT_EQ(m->publisher, "City of Austin");  // organization.title before the publisher extra
  EXPECT_EQ(m->tags, (Strings{"police", "searches", "apd"}));
  EXPECT_EQ(m->themes, (Strings{"Public Safety"}));
  EXPECT_EQ(m->temporal, "2019-01-01/2023-12-31");
  EXPECT_EQ(m->spatial, "Austin, TX");
  EXPECT_EQ(m->license, "License not specified");
  EXPECT_EQ(m->source_url, "https://data.austintexas.gov/d/3bfz-mri4");
  EXPECT_EQ(m->modified, "2024-11-23T05:12:40.118233");
  EXPECT_TRUE(m->columns.empty());
  EXPECT_EQ(m->metadata_files, (Strings{"signed-metadata.txt"}));
  EXPECT_EQ(CategorizeThemes(*m), "Public Safety");
}

TEST(Metadata, EnvelopeWithoutRecordFallsBackToItsDescription) {
  auto m = ParseMetadataFile("signed-metadata.txt",
                             R"({"id": "x", "url": "https://catalog.data.gov/dataset/fruit-prices",
    "description": "Archive of data.gov dataset \"Fruit and Vegetable Prices\" created by Economic Research Service. Full metadata stored in data_gov_metadata key."})");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->title, "Fruit and Vegetable Prices");
  EXPECT_EQ(m->publisher, "Economic Research Service");
  EXPECT_EQ(m->source_url, "https://catalog.data.gov/dataset/fruit-prices");
}

TEST(Metadata, CkanGroupsExtrasAndBareRecords) {
  auto m = ParseMetadataFile("signed-metadata.txt", R"({"title": "Bus Stops", "notes": "Stops",
    "groups": [{"display_name": "Local Government", "title": "Local Government", "name": "local"}],
    "extras": [{"key": "publisher", "value": "Metro"}, {"key": "theme", "value": "Transportation, Maps"},
               {"key": "keywords", "value": "[\"bus\", \"stops\"]"}]})");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->publisher, "Metro");
  EXPECT_EQ(m->themes, (Strings{"Local Government", "Transportation", "Maps"}));
  EXPECT_EQ(m->tags, (Strings{"bus", "stops"}));
  EXPECT_EQ(CategorizeThemes(*m), "Government & Admin");  // the first theme that Table 10 names
}

TEST(Metadata, DcatAndKeyValueText) {
  auto dcat = ParseMetadataFile(
      "signed-metadata.txt",
      R"({"title": "WIC Redemptions", "description": "By vendor", "publisher": {"name": "CDPH"},
                                    "keyword": ["wic", "nutrition"], "theme": ["Health"], "modified": "2023-01-01"})");
  ASSERT_TRUE(dcat.ok());
  EXPECT_EQ(dcat->publisher, "CDPH");
  EXPECT_EQ(dcat->modified, "2023-01-01");
  EXPECT_EQ(CategorizeThemes(*dcat), "Health & Social");
  auto kv =
      ParseMetadataFile("signed-metadata.txt",
                        "Title: School Progress Reports\nPublisher: NYC DOE\nTags: schools, grades\n"
                        "Temporal Coverage: 2007/2013\nURL: https://data.cityofnewyork.us/d/abcd-1234\n");
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ(kv->title, "School Progress Reports");
  EXPECT_EQ(kv->publisher, "NYC DOE");
  EXPECT_EQ(kv->tags, (Strings{"schools", "grades"}));
  EXPECT_EQ(kv->temporal, "2007/2013");
  EXPECT_EQ(kv->source_url, "https://data.cityofnewyork.us/d/abcd-1234");
  EXPECT_EQ(CategorizeThemes(*kv), "Education");
}

TEST(Metadata, SocrataPublisherView) {
  auto view = ParseMetadataFile("files/xbjp-8sra.publisher-view.json", R"({
    "id": "xbjp-8sra", "name": "Unemployment Insurance Beneficiaries", "category": "Labor",
    "description": "<p>Monthly beneficiaries&nbsp;by region.</p><br/>Source: NYS DOL",
    "attribution": "", "attributionLink": "https://labor.ny.gov", "licenseId": "PUBLIC_DOMAIN",
    "license": {"name": "Public Domain"}, "rowsUpdatedAt": 1700000000, "tags": ["jobs", "unemployment"],
    "owner": {"displayName": "NY Open Data"},
    "metadata": {"custom_fields": {"Dataset Information": {"Agency": "Labor, Department of"},
                                   "Temporal": {"Period of Time": "2000-present"},
                                   "Geographic": {"Coverage": "Statewide"}}},
    "columns": [{"id": 1, "name": "Year", "fieldName": "year", "dataTypeName": "number"},
                {"id": 2, "name": "Region", "fieldName": "region", "description": "Labor market region"},
                {"id": 3, "name": "Counties", "fieldName": ":@computed_region_yamh_8v7k"}]})");
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  EXPECT_EQ(view->title, "Unemployment Insurance Beneficiaries");
  EXPECT_EQ(view->description, "Monthly beneficiaries by region. Source: NYS DOL");
  EXPECT_EQ(view->publisher, "Labor, Department of");  // empty attribution: the custom Agency field
  EXPECT_EQ(view->themes, (Strings{"Labor"}));
  EXPECT_EQ(view->tags, (Strings{"jobs", "unemployment"}));
  EXPECT_EQ(view->license, "Public Domain");
  EXPECT_EQ(view->source_url, "https://labor.ny.gov");
  EXPECT_EQ(view->modified, "2023-11-14T22:13:20Z");
  EXPECT_EQ(view->temporal, "2000-present");
  EXPECT_EQ(view->spatial, "Statewide");
  EXPECT_EQ(view->columns, (Strings{"Year", "Region"}));  // Socrata's computed region column left out
  EXPECT_EQ(CategorizeThemes(*view), "Economy & Infrastructure");
}

TEST(Metadata, ArcgisLayer) {
  auto layer = ParseMetadataFile("files/0.arcgis-layer.json", R"({
    "currentVersion": 10.91, "id": 0, "name": "County Boundaries", "type": "Feature Layer",
    "description": "<div><p>California <b>counties</b> &lt;2024&gt;</p></div>", "copyrightText": "CAL FIRE",
    "geometryType": "esriGeometryPolygon", "editingInfo": {"lastEditDate": 1700000000123},
    "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID"},
               {"name": "NAME", "alias": "County Name", "type": "esriFieldTypeString"}, {"name": "FIPS"}],
    "extent": {"xmin": -124.4, "ymin": 32.5, "xmax": -114.1, "ymax": 42.0, "spatialReference": {"wkid": 4326}}})");
  ASSERT_TRUE(layer.ok()) << layer.status().ToString();
  EXPECT_EQ(layer->title, "County Boundaries");
  EXPECT_EQ(layer->description, "California counties <2024>");
  EXPECT_EQ(layer->publisher, "CAL FIRE");
  EXPECT_EQ(layer->columns, (Strings{"OBJECTID", "County Name", "FIPS"}));
  EXPECT_NE(layer->spatial.find("-124.4"), std::string::npos);
  EXPECT_EQ(layer->spatial.find("wkid"), std::string::npos);
  EXPECT_EQ(layer->modified, "2023-11-14T22:13:20Z");
  EXPECT_TRUE(layer->tags.empty());  // the geometry type is not a tag
}

TEST(Metadata, ColumnsTxtVariants) {
  auto parse = [](std::string_view text) {
    auto m = ParseMetadataFile("files/columns.txt", text);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() ? m->columns : Strings{};
  };
  EXPECT_EQ(parse("Occurred Year\nSector\tstring\n\n\"Council District\",number\r\n"),
            (Strings{"Occurred Year", "Sector", "Council District"}));
  EXPECT_EQ(parse("name,type\nOccurred Year,number\nSector,text\n"), (Strings{"Occurred Year", "Sector"}));
  EXPECT_EQ(parse("Occurred Year,Sector,Council District\n"),
            (Strings{"Occurred Year", "Sector", "Council District"}));
  EXPECT_EQ(parse(R"([{"name": "Occurred Year", "fieldName": "occurred_year"}, {"fieldName": "sector"},
                      {"name": "Zip", "fieldName": ":@computed_region_x"}])"),
            (Strings{"Occurred Year", "sector"}));
  EXPECT_EQ(parse(R"({"columns": ["A", "B"]})"), (Strings{"A", "B"}));
  EXPECT_EQ(parse(""), Strings{});
  auto bad = ParseMetadataFile("files/columns.txt", "[{\"name\": \"A\"},\n  {\"name\": ");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kParseError);
  EXPECT_NE(bad.status().message().find("files/columns.txt:2:"), std::string::npos) << bad.status().message();
}

TEST(Metadata, MergeAndJsonRoundTrip) {
  auto view = ParseMetadataFile("files/a.publisher-view.json",
                                R"({"name": "V", "columns": [{"name": "Year"}, {"name": "Region"}]})");
  auto cols = ParseMetadataFile("files/columns.txt", "Region\nSector\n");
  auto rec = ParseMetadataFile("signed-metadata.txt", R"({"title": "R", "notes": "d", "tags": ["t"]})");
  ASSERT_TRUE(view.ok() && cols.ok() && rec.ok());
  DatasetMetadata merged = *rec;
  merged.MergeFrom(*view);
  merged.MergeFrom(*cols);
  EXPECT_EQ(merged.title, "R");  // first writer wins
  EXPECT_EQ(merged.description, "d");
  EXPECT_EQ(merged.columns, (Strings{"Year", "Region", "Sector"}));
  EXPECT_EQ(merged.metadata_files,
            (Strings{"signed-metadata.txt", "files/a.publisher-view.json", "files/columns.txt"}));
  EXPECT_EQ(DatasetMetadata::FromJson(merged.ToJson()).ToJson(), merged.ToJson());
  // Wrong types in stored JSON are ignored, not thrown.
  auto odd = DatasetMetadata::FromJson(Json{{"title", 5}, {"tags", "x"}, {"columns", Json::array({"a", 1})}});
  EXPECT_EQ(odd.title, "");
  EXPECT_TRUE(odd.tags.empty());
  EXPECT_EQ(odd.columns, (Strings{"a"}));
  EXPECT_EQ(DatasetMetadata::FromJson(Json::array()).ToJson(), DatasetMetadata{}.ToJson());
}

TEST(Metadata, BadInputIsAClearError) {
  auto bad = ParseMetadataFile("files/a.publisher-view.json", "{\n  \"name\": \"x\",\n  oops\n}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kParseError);
  EXPECT_NE(bad.status().message().find("files/a.publisher-view.json:3:"), std::string::npos)
      << bad.status().message();
  auto truncated = ParseMetadataFile("signed-metadata.txt", std::string(kSignedMetadata).substr(0, 700));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), ErrorCode::kParseError);
  EXPECT_TRUE(std::regex_search(truncated.status().message(), std::regex("signed-metadata\\.txt:\\d+:\\d+")))
      << truncated.status().message();
  EXPECT_EQ(ParseMetadataFile("signed-metadata.txt", "{\"no\": \"record\"}").status().code(),
            ErrorCode::kParseError);
  EXPECT_EQ(ParseMetadataFile("signed-metadata.txt", "just some words\n").status().code(),
            ErrorCode::kParseError);
  EXPECT_EQ(ParseMetadataFile("files/0.arcgis-layer.json", "[1, 2]").status().code(), ErrorCode::kParseError);
  EXPECT_EQ(ParseMetadataFile("files/rows.txt", "a,b").status().code(), ErrorCode::kUnsupported);
  std::string huge(17u << 20, ' ');
  auto big = ParseMetadataFile("signed-metadata.txt", huge);
  EXPECT_EQ(big.status().code(), ErrorCode::kResourceExhausted);
  EXPECT_NE(big.status().message().find("signed-metadata.txt"), std::string::npos);
  // Invalid UTF-8 is replaced, in text and in JSON alike (the JSON parser alone would reject it).
  auto utf = ParseMetadataFile("signed-metadata.txt", "Title: Caf\xE9\n");
  ASSERT_TRUE(utf.ok());
  EXPECT_EQ(utf->title, "Caf\xEF\xBF\xBD");
  auto latin1 = ParseMetadataFile("files/x.publisher-view.json",
                                  "{\"name\": \"Montr\xE9"
                                  "al Permits\", \"tags\": [\"caf\xE9\"]}");
  ASSERT_TRUE(latin1.ok()) << latin1.status().ToString();
  EXPECT_EQ(latin1->title,
            "Montr\xEF\xBF\xBD"
            "al Permits");
  EXPECT_EQ(latin1->tags, (Strings{"caf\xEF\xBF\xBD"}));
  // Long descriptions are cut at a UTF-8 boundary.
  std::string longer = "{\"title\": \"T\", \"notes\": \"";
  for (int i = 0; i < 3000; ++i) longer += "\xC3\xA9";
  longer += "\"}";
  auto cut = ParseMetadataFile("signed-metadata.txt", longer);
  ASSERT_TRUE(cut.ok());
  EXPECT_LE(cut->description.size(), 4000u);
  EXPECT_EQ(cut->description.size() % 2, 0u);
}

TEST(Metadata, WhichFilesAreMetadata) {
  for (const char* yes :
       {"signed-metadata.txt", "files/columns.txt", "files/3bfz-mri4.publisher-view.json",
        "files/0.arcgis-layer.json", "v1/signed-metadata.txt", "v2/files/columns.txt", "metadata.json"}) {
    EXPECT_TRUE(IsMetadataFile(yes)) << yes;
  }
  for (const char* no :
       {"files/rows.txt", "files/data.txt", "files/3q8d-2t69.json", "v1/files/3q8d-2t69.json", "content.txt",
        "files/sub/columns.txt", "files/sub/a.publisher-view.json", "vx/signed-metadata.txt",
        "signed-metadata.txt.bak", ""}) {
    EXPECT_FALSE(IsMetadataFile(no)) << no;
  }
}

TEST(Metadata, WikipediaLeadParagraph) {
  auto m = WikipediaMetadata("2020_in_film",
                             "2020 in film\n\nThe year 2020 in film was affected by the COVID-19 "
                             "pandemic.\nMany cinemas closed.\n\n== Events ==\n");
  EXPECT_EQ(m.title, "2020 in film");
  EXPECT_EQ(m.description,
            "The year 2020 in film was affected by the COVID-19 pandemic. Many cinemas closed.");
  EXPECT_EQ(m.metadata_files, (Strings{"content.txt"}));
  // No title line; template debris before the lead; a heading ends the lead even without a blank line.
  auto county =
      WikipediaMetadata("Tulare_County,_California",
                        "{{Infobox U.S. county\n| county = Tulare County\n}}\nthumb|Courthouse\n"
                        "Tulare County is a county in the U.S. state of California. As of the 2020 census, "
                        "the population was 473,117.\n== History ==\nFounded in 1852.\n");
  EXPECT_EQ(county.title, "Tulare County, California");
  EXPECT_EQ(county.description,
            "Tulare County is a county in the U.S. state of California. As of the 2020 census, the "
            "population was 473,117.");
  EXPECT_EQ(WikipediaMetadata("Obama", "REDIRECT Barack Obama\n").description, "Redirect to Barack Obama");
  EXPECT_EQ(WikipediaMetadata("Obama", "#REDIRECT [[Barack Obama]]").description, "Redirect to Barack Obama");
  EXPECT_EQ(WikipediaMetadata("S%C3%A3o_Paulo", "").title, "S%C3%A3o Paulo");  // names as they are
  EXPECT_EQ(WikipediaMetadata("Empty", "").description, "");
  std::string lead;
  for (int i = 0; i < 800; ++i) lead += "\xE2\x82\xAC";  // 2400 bytes of euro signs
  auto bounded = WikipediaMetadata("Euro", lead + "\n\nMore.");
  EXPECT_LE(bounded.description.size(), 1000u);
  EXPECT_EQ(bounded.description.size() % 3, 0u);
  EXPECT_EQ(WikipediaMetadata("X", "X\n\nCaf\xE9 paragraph.").description, "Caf\xEF\xBF\xBD paragraph.");
}

TEST(Metadata, CategoriesAreThePapersEight) {
  EXPECT_EQ(ThemeCategories(),
            (Strings{"Government & Admin", "Environment", "Transportation", "Health & Social",
                     "Research & Demographics", "Economy & Infrastructure", "Public Safety", "Education"}));
  struct Case {
    Strings themes, tags;
    std::string title, category;
  };
  const std::vector<Case> cases = {
      // Table 10's own theme names, exactly (case-insensitive).
      {{"Roadways and Bridges"}, {}, "", "Transportation"},
      {{"finance/tax/property"}, {}, "", "Government & Admin"},
      {{"Utilities and City Services"}, {}, "", "Environment"},
      {{"500 Cities & Places"}, {}, "", "Health & Social"},
      {{"Research and Statistics"}, {}, "", "Research & Demographics"},
      {{"Wireline"}, {}, "", "Economy & Infrastructure"},
      {{"Equity & Justice"}, {}, "", "Public Safety"},
      {{"Quality"}, {}, "", "Education"},
      {{"Something Else", "Health"}, {}, "", "Health & Social"},  // an exact theme beats keyword guesses
      // Keywords over free-form themes, then tags (majority), then the title.
      {{"Police Reports"}, {}, "", "Public Safety"},
      {{"Something Else"}, {"census tracts"}, "", "Research & Demographics"},
      {{}, {"taxi", "trips"}, "", "Transportation"},  // "taxi" is not "tax"
      {{}, {"syntax"}, "", ""},                       // keywords start words
      {{}, {"wildfire"}, "", "Environment"},          // nor is "wildfire" "fire"
      {{}, {"permits", "construction", "housing"}, "", "Economy & Infrastructure"},  // 2 votes to 1
      {{}, {"new-york"}, "Chicago Bus Ridership", "Transportation"},
      {{}, {"parking"}, "Parking Citations", "Transportation"},  // "parking" outranks "park"
      {{}, {}, "Untitled", ""},
      // Without data.gov themes or tags the title alone decides nothing: outside data.gov it misfires.
      {{}, {}, "Parking Citations", ""},
      {{}, {}, "Shooting Stars", ""},
      {{}, {}, "Portland Fire", ""},
  };
  for (const auto& c : cases) {
    DatasetMetadata m;
    m.themes = c.themes;
    m.tags = c.tags;
    m.title = c.title;
    EXPECT_EQ(CategorizeThemes(m), c.category) << (c.themes.empty() ? "" : c.themes[0]) << " / "
                                               << (c.tags.empty() ? "" : c.tags[0]) << " / " << c.title;
  }
}

TEST(Metadata, RealTaskMetadataFilesAreRecognised) {
  std::string root = lakeqa::build_paths::SourceDir() + "/../shared/data/lakeqa-tasks/lakeqa_mini";
  if (const char* d = std::getenv("LAKEQA_SHARED_DATA")) root = std::string(d) + "/lakeqa-tasks/lakeqa_mini";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "shared data not present at " << root;
  const std::regex meta_re(
      R"(^(v\d+/)?(signed-metadata\.txt|files/columns\.txt|files/[^/]+\.(publisher-view|arcgis-layer)\.json)$)");
  size_t meta = 0, data = 0;
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = ParseJson(ss.str(), e.path().string());
    if (!j.ok() || !j->is_object() || !j->contains("datasets_used")) continue;
    for (const auto& p : (*j)["datasets_used"]) {
      if (!p.is_string()) continue;
      std::string path = p.get<std::string>();
      if (path.rfind("datagov/", 0) != 0) continue;
      size_t slash = path.find('/', 8);
      if (slash == std::string::npos) continue;
      std::string rel = path.substr(slash + 1);
      bool expect_meta = std::regex_match(rel, meta_re);
      EXPECT_EQ(IsMetadataFile(rel), expect_meta) << rel;
      if (rel == "files/rows.txt") {
        EXPECT_FALSE(IsMetadataFile(rel));
      }
      (expect_meta ? meta : data)++;
    }
  }
  EXPECT_GT(meta, 100u);
  EXPECT_GT(data, 100u);
}

}  // namespace
}  // namespace lakeqa::ingest
