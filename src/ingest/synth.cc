#include "lakeqa/ingest/synth.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cctype>
#include <mutex>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/thread_pool.h"
#include "lakeqa/ingest/synth_vocabulary.h"

namespace lakeqa::ingest {
namespace {

using Rng = SynthRng;

const std::array<const char*, 12> kWikiTopics = {"film",
                                                 "music",
                                                 "sports",
                                                 "politics",
                                                 "science",
                                                 "literature",
                                                 "aviation",
                                                 "architecture",
                                                 "television",
                                                 "rail transport",
                                                 "association football",
                                                 "baseball"};
const std::array<const char*, 16> kStates = {
    "Texas",  "Iowa",      "California", "Washington", "New York", "Oregon",  "Ohio",     "Indiana",
    "Kansas", "Minnesota", "New Mexico", "Missouri",   "Georgia",  "Alabama", "Nebraska", "Montana"};
struct License {
  const char* id;
  const char* title;
  const char* url;
};
const std::array<License, 3> kLicenses = {
    {{"notspecified", "License not specified", ""},
     {"cc-zero", "Creative Commons CCZero", "http://www.opendefinition.org/licenses/cc-zero"},
     {"other-pd", "Other (Public Domain)", ""}}};

std::string Slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string FourByFour(Rng& r) {
  static const char* kChars = "abcdefghijkmnpqrstuvwxyz23456789";
  std::string s;
  for (int i = 0; i < 9; ++i) s += i == 4 ? '-' : kChars[r.Below(32)];
  return s;
}

std::string Uuid(Rng& r) {
  uint64_t a = r.Next(), b = r.Next();
  return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xFFFF, a & 0xFFF,
                     0x8000 | ((b >> 48) & 0x3FFF), b & 0xFFFFFFFFFFFFULL);
}

// Draws happen in statements of their own: the order of function arguments is unspecified, and the bytes
// must not depend on the compiler.
std::string Timestamp(Rng& r, int year) {
  uint64_t month = 1 + r.Below(12), day = 1 + r.Below(28), h = r.Below(24), m = r.Below(60), s = r.Below(60);
  uint64_t us = r.Below(1000000);
  return fmt::format("{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}", year, month, day, h, m, s, us);
}

std::string Date(Rng& r, int year) {
  uint64_t month = 1 + r.Below(12);
  uint64_t day = 1 + r.Below(28);
  return fmt::format("{:02}/{:02}/{}", month, day, year);
}

bool IsCount(std::string_view c) {
  for (std::string_view n :
       {"Grade", "Household Size", "Students", "Graduates", "Vehicles", "Population", "Households",
        "Customers", "Gallons", "Families", "Redemptions", "Beneficiaries", "Enrollment", "Valuation",
        "Income Limit", "Doses Administered", "Acres", "Response Minutes"}) {
    if (c == n) return true;
  }
  return false;
}

std::string Cell(Rng& r, std::string_view column, int year) {
  if (column.find("Year") != std::string_view::npos) return std::to_string(year);
  if (column.find("Date") != std::string_view::npos || column == "Month") {
    return Date(r, year);
  }
  if (column.find("Number") != std::string_view::npos || column.find("ID") != std::string_view::npos) {
    return std::to_string(year * 100000 + static_cast<int>(r.Below(100000)));
  }
  if (column == "Score" || column == "Rate" || column == "Value" || column == "Amount" || column == "Speed" ||
      column == "Average Rides" || column == "Benefits Paid" || column == "Median Age" ||
      column == "Percent Vaccinated") {
    return fmt::format("{:.2f}", r.Unit() * 1000);
  }
  if (column.find("District") != std::string_view::npos) return std::to_string(1 + r.Below(10));
  if (IsCount(column)) return std::to_string(1 + r.Below(100000));
  if (column == "Zip Code") return std::to_string(78701 + r.Below(60));
  std::string v = std::string(r.Pick(kSynthNameWords));
  if (r.Below(8) == 0) {
    std::string second = r.Pick(kSynthNameWords);
    v = "\"" + v + ", " + second + "\"";
  }  // quoted field with a delimiter
  return v;
}

std::string Csv(Rng& r, const SynthTopic& t, uint64_t rows, int base_year) {
  std::string out;
  for (size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + std::string(t.columns[c]);
  out += "\n";
  for (uint64_t i = 0; i < rows; ++i) {
    int year = base_year + static_cast<int>(r.Below(8));
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (c) out += ',';
      out += Cell(r, t.columns[c], year);
    }
    out += '\n';
  }
  return out;
}

Json Records(Rng& r, const SynthTopic& t, uint64_t rows, int year) {
  Json out = Json::array();
  for (uint64_t i = 0; i < rows; ++i) {
    Json row = Json::object();
    for (const char* c : t.columns) row[Slug(c)] = Cell(r, c, year + static_cast<int>(r.Below(5)));
    out.push_back(std::move(row));
  }
  return out;
}

// A one-page PDF with real text (Helvetica), with a correct xref table so any reader opens it.
std::string Pdf(const std::vector<std::string>& lines) {
  std::string content = "BT /F1 12 Tf 14 TL 72 720 Td\n";
  for (const auto& line : lines) {
    std::string esc;
    for (char c : line) {
      if (c == '(' || c == ')' || c == '\\') esc += '\\';
      esc += c;
    }
    content += "(" + esc + ") Tj T*\n";
  }
  content += "ET\n";
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R "
      ">> >> >>",
      fmt::format("<< /Length {} >>\nstream\n{}endstream", content.size(), content),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  };
  std::string pdf = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += fmt::format("{} 0 obj\n{}\nendobj\n", i + 1, objects[i]);
  }
  size_t xref = pdf.size();
  pdf += fmt::format("xref\n0 {}\n0000000000 65535 f \n", objects.size() + 1);
  for (size_t off : offsets) pdf += fmt::format("{:010} 00000 n \n", off);
  pdf += fmt::format("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{}\n%%EOF\n", objects.size() + 1, xref);
  return pdf;
}

struct Writer {
  lake::Store& store;
  SynthReport local;
  Status status;
  void Put(const std::string& key, const std::string& data) {
    if (!status.ok()) return;
    status = store.Write(key, data);
    if (!status.ok()) return;
    ++local.files;
    local.bytes += data.size();
  }
};

// The CKAN package record data.gov serves for a harvested Socrata dataset, as model_to_dict stores it.
Json CkanRecord(Rng& r, const std::string& name, const std::string& title, const std::string& notes,
                const std::string& publisher, const SynthTopic& t, const std::string& place, int year,
                const std::string& four, const std::string& portal) {
  std::string org_name = Slug(publisher);
  const License& lic = r.Pick(kLicenses);
  Json tags = Json::array();
  std::vector<std::string> tag_names = {Slug(place)};
  for (const char* tag : t.tags) tag_names.push_back(tag);
  for (const auto& tag : tag_names) {
    tags.push_back({{"display_name", tag},
                    {"id", Uuid(r)},
                    {"name", tag},
                    {"state", "active"},
                    {"vocabulary_id", nullptr}});
  }
  Json extras = Json::array();
  auto extra = [&](const char* k, std::string v) { extras.push_back({{"key", k}, {"value", std::move(v)}}); };
  extra("accessLevel", "public");
  extra("identifier", portal + "/api/views/" + four);
  extra("landingPage", portal + "/d/" + four);
  uint64_t mod_month = 1 + r.Below(12);
  uint64_t mod_day = 1 + r.Below(28);
  extra("modified", fmt::format("{}-{:02}-{:02}", year + 7, mod_month, mod_day));
  extra("publisher", publisher);
  // Where the theme lives varies across data.gov records: a DCAT theme extra, a CKAN group, or nowhere.
  double where = r.Unit();
  if (where < 0.5) extra("theme", DumpJson(Json::array({t.theme})));
  extra("temporal", fmt::format("{}-01-01/{}-12-31", year, year + 7));
  extra("spatial", place);
  extra("harvest_object_id", Uuid(r));
  uint64_t h1 = r.Next();
  uint64_t h2 = r.Next();
  extra("source_hash", fmt::format("{:016x}{:016x}", h1, h2));
  Json groups = Json::array();
  if (where >= 0.5 && where < 0.7) {
    groups.push_back({{"description", ""},
                      {"display_name", t.theme},
                      {"id", Uuid(r)},
                      {"image_display_url", ""},
                      {"name", Slug(t.theme)},
                      {"title", t.theme}});
  }
  Json resources = Json::array({{{"id", Uuid(r)},
                                 {"format", "CSV"},
                                 {"mimetype", "text/csv"},
                                 {"name", "Comma Separated Values File"},
                                 {"url", portal + "/api/views/" + four + "/rows.csv?accessType=DOWNLOAD"}},
                                {{"id", Uuid(r)},
                                 {"format", "JSON"},
                                 {"mimetype", "application/json"},
                                 {"name", "JSON File"},
                                 {"url", portal + "/api/views/" + four + "/rows.json?accessType=DOWNLOAD"}}});
  std::string org_id = Uuid(r);
  return Json{{"id", Uuid(r)},
              {"name", name},
              {"title", title},
              {"notes", notes},
              {"metadata_created", Timestamp(r, year)},
              {"metadata_modified", Timestamp(r, year + 7)},
              {"private", false},
              {"state", "active"},
              {"version", nullptr},
              {"type", "dataset"},
              {"num_resources", resources.size()},
              {"num_tags", tags.size()},
              {"isopen", std::string(lic.id) != "notspecified"},
              {"author", nullptr},
              {"author_email", nullptr},
              {"creator_user_id", Uuid(r)},
              {"license_id", lic.id},
              {"license_url", lic.url},
              {"license_title", lic.title},
              {"maintainer", publisher},
              {"maintainer_email", "opendata@" + org_name + ".gov"},
              {"owner_org", org_id},
              {"url", nullptr},
              {"organization",
               {{"id", org_id},
                {"name", org_name},
                {"title", publisher},
                {"type", "organization"},
                {"description", publisher + " open data."},
                {"image_url", ""},
                {"is_organization", true},
                {"state", "active"},
                {"approval_status", "approved"}}},
              {"extras", extras},
              {"resources", resources},
              {"tags", tags},
              {"groups", groups},
              {"relationships_as_subject", Json::array()},
              {"relationships_as_object", Json::array()}};
}

// What every file of one synthetic data.gov dataset says about it, drawn once per dataset.
struct DatagovDataset {
  const SynthTopic& t;
  std::string place, publisher, root;  // root: "datagov/<id>/"
  int year;
  std::string title, desc, four;  // four: the Socrata 4x4 id
};

// files/columns.txt: the column names, one a line or as Socrata's columns.json.
void PutColumnsFile(Writer& w, Rng& r, const DatagovDataset& d) {
  std::string cols;
  if (r.Chance(0.5)) {
    for (auto* c : d.t.columns) cols += std::string(c) + "\n";
  } else {  // the Socrata columns.json form
    Json list = Json::array();
    int pos = 1;
    for (auto* c : d.t.columns) {
      list.push_back({{"id", 100000 + r.Below(900000)},
                      {"name", c},
                      {"dataTypeName", IsCount(c) ? "number" : "text"},
                      {"fieldName", Slug(c)},
                      {"position", pos++}});
    }
    cols = DumpJson(list, 2);
  }
  w.Put(d.root + "files/columns.txt", cols);
}

// files/<4x4>.publisher-view.json: the Socrata view record, with a computed column to skip.
void PutPublisherView(Writer& w, Rng& r, const DatagovDataset& d) {
  Json cols = Json::array();
  int pos = 1;
  for (auto* c : d.t.columns) {
    cols.push_back({{"id", 100000 + r.Below(900000)},
                    {"name", c},
                    {"dataTypeName", IsCount(c) ? "number" : "text"},
                    {"description", std::string(c) + " as reported by " + d.publisher},
                    {"fieldName", Slug(c)},
                    {"position", pos++},
                    {"renderTypeName", IsCount(c) ? "number" : "text"}});
  }
  cols.push_back({{"id", 100000 + r.Below(900000)},
                  {"name", "Zip Codes"},
                  {"dataTypeName", "number"},
                  {"fieldName", ":@computed_region_" + FourByFour(r).substr(0, 4)},
                  {"position", pos}});
  Json view = {
      {"id", d.four},
      {"name", d.title},
      {"attribution", d.publisher},
      {"averageRating", 0},
      {"category", d.t.theme},
      {"createdAt", 1262304000 + (d.year - 2010) * 31536000LL},
      {"description", "<p>" + d.desc + "</p>"},
      {"displayType", "table"},
      {"downloadCount", r.Below(50000)},
      {"licenseId", "PUBLIC_DOMAIN"},
      {"license", {{"name", "Public Domain"}}},
      {"rowsUpdatedAt", 1262304000 + (d.year - 2003) * 31536000LL + static_cast<int64_t>(r.Below(31536000))},
      {"tags", Json::array({Slug(d.place), d.t.tags[0]})},
      {"columns", cols},
      {"metadata",
       {{"custom_fields",
         {{"Dataset Information", {{"Agency", d.publisher}}},
          {"Temporal", {{"Period of Time", fmt::format("{}-{}", d.year, d.year + 7)}}}}}}},
      {"owner", {{"displayName", d.publisher}}}};
  w.Put(d.root + "files/" + d.four + ".publisher-view.json", DumpJson(view, r.Chance(0.5) ? 2 : -1));
}

// files/data.txt: a GeoJSON FeatureCollection of points.
void PutGeoJson(Writer& w, Rng& r, const DatagovDataset& d) {
  Json feats = Json::array();
  uint64_t n = 5 + r.Below(50);
  for (uint64_t f = 0; f < n; ++f) {
    feats.push_back({{"type", "Feature"},
                     {"properties",
                      {{"NAME", std::string(r.Pick(kSynthNameWords)) + " " + std::to_string(f)},
                       {"DISTRICT", 1 + r.Below(10)},
                       {"AREA", r.Unit() * 100}}},
                     {"geometry", {{"type", "Point"}, {"coordinates", {-97 - r.Unit(), 30 + r.Unit()}}}}});
  }
  w.Put(d.root + "files/data.txt", DumpJson(Json{{"type", "FeatureCollection"}, {"features", feats}}));
}

// files/<n>.arcgis-layer.json: an ArcGIS feature layer's description.
void PutArcgisLayer(Writer& w, Rng& r, const DatagovDataset& d) {
  Json fields = Json::array({{{"name", "OBJECTID"}, {"type", "esriFieldTypeOID"}, {"alias", "OBJECTID"}}});
  for (auto* c : d.t.columns) {
    fields.push_back({{"name", Slug(c)},
                      {"type", IsCount(c) ? "esriFieldTypeInteger" : "esriFieldTypeString"},
                      {"alias", c},
                      {"length", 256}});
  }
  double x = -120 + r.Unit() * 40;
  double y = 28 + r.Unit() * 18;
  Json layer = {
      {"currentVersion", 10.91},
      {"id", 0},
      {"name", d.title},
      {"type", "Feature Layer"},
      {"description", "<div><p>" + d.desc + "</p><p>Source: " + d.publisher + "</p></div>"},
      {"copyrightText", d.publisher},
      {"geometryType", "esriGeometryPoint"},
      {"extent",
       {{"xmin", x}, {"ymin", y}, {"xmax", x + 1}, {"ymax", y + 1}, {"spatialReference", {{"wkid", 4326}}}}},
      {"editingInfo", {{"lastEditDate", (1262304000LL + (d.year - 2005) * 31536000LL) * 1000}}},
      {"fields", fields}};
  w.Put(d.root + fmt::format("files/{}.arcgis-layer.json", r.Below(4)), DumpJson(layer));
}

// One of eight broken or awkward files (empty, Latin-1, ragged, truncated, binary, odd name, cut JSON,
// BOM + CRLF), by the dataset's number, so a lake holds each kind.
void PutBadFile(Writer& w, const std::string& root, uint64_t i) {
  ++w.local.bad_files;
  switch (i / 25 % 8) {
    case 0: w.Put(root + "files/empty.txt", ""); break;
    case 1:
      w.Put(root + "files/latin1.txt",
            "name,city\nJos\xE9,Montr\xE9"
            "al\n");
      break;
    case 2: w.Put(root + "files/ragged.txt", "a,b,c\n1,2\n3,4,5,6\n"); break;
    case 3: w.Put(root + "files/truncated.json", "{\"rows\": [1, 2, {\"a\": "); break;
    case 4:
      w.Put(root + "files/blob.bin", std::string("\0\1\2\3\x89PNG", 8) + std::string(1000, '\0'));
      break;
    case 5: w.Put(root + "files/odd name \xC3\xA9 (1).csv", "x,y\n1,2\n"); break;
    case 6:
      w.Put(root + "files/zzzz-0000.publisher-view.json",
            "{\"id\": \"zzzz-0000\",\n \"name\": \"Broken\",\n \"columns\": [\n");
      break;
    default: w.Put(root + "files/bom-crlf.csv", "\xEF\xBB\xBFName,Value\r\nA,1\r\nB,2\r\n"); break;
  }
}

void MakeDatagov(Writer& w, Rng& r, uint64_t i, bool bad) {
  const SynthTopic& t = r.Pick(SynthTopics());
  std::string place = r.Pick(kSynthPlaces);
  std::string publisher = r.Pick(kSynthPublishers);
  std::string id = Slug(place) + "-" + t.slug + "-" + std::to_string(i);
  std::string root = "datagov/" + id + "/";
  int year = 2010 + static_cast<int>(r.Below(10));
  std::string title = place + " " + t.title;
  std::string desc =
      fmt::format("{} published by {}. Each row is one record with {} and {}; updated yearly since {}.",
                  title, publisher, t.columns[0], t.columns[1], year);
  std::string four = FourByFour(r);
  std::string portal = "https://data." + Slug(place) + ".gov";
  const DatagovDataset d{t, place, publisher, root, year, title, desc, four};

  // signed-metadata.txt: the data/signed-metadata.json of a Harvard LIL archive bag (bag-nabit).
  Json rec = CkanRecord(r, id, title, desc, publisher, t, place, year, four, portal);
  Json signed_metadata = {
      {"id", Uuid(r)},
      {"url", "https://catalog.data.gov/dataset/" + id},
      {"description", "Archive of data.gov dataset \"" + title + "\" created by " + publisher +
                          ". Full metadata stored in data_gov_metadata key."},
      {"data_gov_metadata", rec},
      {"crawler_metadata",
       {{"crawler_identified_date", Timestamp(r, 2024)}, {"crawler_downloaded_date", Timestamp(r, 2025)}}},
      {"collection_tasks",
       Json::array({{{"url", portal + "/api/views/" + four + "/rows.csv?accessType=DOWNLOAD"},
                     {"response", {{"success", true}, {"path", "rows.csv"}}}}})}};
  w.Put(root + "signed-metadata.txt", DumpJson(signed_metadata, 2));

  // Sizes: mostly small, some medium, a few MB-sized.
  double u = r.Unit();
  uint64_t rows = u < 0.9 ? 20 + r.Below(400) : u < 0.99 ? 2000 + r.Below(8000) : 20000 + r.Below(20000);
  w.Put(root + "files/rows.txt", Csv(r, t, rows, year));
  if (r.Chance(0.3)) PutColumnsFile(w, r, d);
  if (r.Chance(0.4)) PutPublisherView(w, r, d);
  if (r.Chance(0.25)) PutGeoJson(w, r, d);
  if (r.Chance(0.2)) PutArcgisLayer(w, r, d);
  if (r.Chance(0.3)) {
    w.Put(root + "files/readme.txt",
          title + "\n\n" + desc + "\n\nColumns:\n- " + t.columns[0] + "\n- " + t.columns[1] + "\n");
  }
  if (r.Chance(0.1)) {
    w.Put(root + "files/about.html",
          "<!DOCTYPE html><html><head><title>" + title + "</title></head><body><h1>" + title + "</h1><p>" +
              desc + "</p><ul><li>" + t.columns[0] + "</li><li>" + t.columns[1] + "</li></ul></body></html>");
  }
  if (r.Chance(0.1)) {  // a data dictionary, as JSON
    Json dict = Json::array();
    for (auto* c : t.columns)
      dict.push_back({{"column", c}, {"description", std::string(c) + " of the record"}});
    w.Put(root + fmt::format("files/{}-data-dictionary.json", t.slug), DumpJson(dict, 2));
  }
  if (r.Chance(0.08))
    w.Put(root + fmt::format("files/{}.json", four), DumpJson(Records(r, t, 5 + r.Below(60), year)));
  if (r.Chance(0.06)) {
    std::string jsonl;
    for (const auto& row : Records(r, t, 5 + r.Below(60), year)) jsonl += DumpJson(row) + "\n";
    w.Put(root + "files/records.jsonl", jsonl);
  }
  if (r.Chance(0.04)) {
    w.Put(root + fmt::format("files/{}-methodology.pdf", t.slug),
          Pdf({title, "Methodology", "Published by " + publisher + ".",
               "Records cover " + std::to_string(year) + " onwards.", desc.substr(0, 90)}));
  }
  // Yearly extracts: many small files, as data.gov publishers split tables by year.
  uint64_t extracts = r.Below(13);
  for (uint64_t e = 0; e < extracts; ++e) {
    int y = year + static_cast<int>(e);
    w.Put(root + fmt::format("files/{}-{}.csv", t.slug, y), Csv(r, t, 2 + r.Below(30), y));
  }
  if (bad) PutBadFile(w, root, i);
}

// Wikipedia-like pages. Titles are derived from i (not drawn), so they never collide.
void MakeWikipedia(Writer& w, Rng& r, uint64_t i) {
  std::string title;
  std::string text;
  std::string place = r.Pick(kSynthPlaces);
  uint64_t kind = r.Below(20);
  if (kind < 9) {
    uint64_t n = i;
    title = fmt::format("{} County, {}", kSynthCounties[n % kSynthCounties.size()],
                        kStates[(n / kSynthCounties.size()) % kStates.size()]);
    uint64_t cycle = n / (kSynthCounties.size() * kStates.size());
    if (cycle) title += fmt::format(" ({})", cycle);
    uint64_t pop = 2000 + r.Below(2000000);
    std::string seat = std::string(r.Pick(kSynthNameWords)) + "ville";
    uint64_t formed = 1800 + r.Below(120), area = 100 + r.Below(3000), pop2010 = pop - r.Below(pop / 2);
    text = fmt::format(
        "{} is a county located in the U.S. state of {}. As of the 2020 census, the population was {}. The "
        "county seat "
        "is {}.\n\nHistory\n\nThe county was formed in {} and named after an early "
        "settler.\n\nGeography\n\nAccording to "
        "the U.S. Census Bureau, the county has a total area of {} square miles.\n\nDemographics\n\nAs of "
        "the 2010 "
        "census, there were {} people living in the county.\n",
        title, kStates[(n / kSynthCounties.size()) % kStates.size()], fmt::group_digits(pop), seat, formed,
        area, fmt::group_digits(pop2010));
  } else if (kind < 19) {
    uint64_t n = i;
    int year = 1950 + static_cast<int>(n % 75);
    std::string topic = kWikiTopics[(n / 75) % kWikiTopics.size()];
    title = fmt::format("{} in {}", year, topic);
    uint64_t cycle = n / (75 * kWikiTopics.size());
    if (cycle) title += fmt::format(" ({})", cycle);
    uint64_t attended = 1000 + r.Below(90000), record = r.Below(500);
    text = fmt::format(
        "{}\n\nThe year {} in {} saw notable events in {} and elsewhere. {} people attended the main "
        "event.\n\n"
        "== Events ==\n- {} championship held in {}\n- A record of {} set\n\n== See also ==\n- {} in {}\n",
        title, year, topic, place, attended, topic, place, record, year + 1, topic);
  } else {
    title = fmt::format("{} redirect {}", place, i);
    text = fmt::format("REDIRECT {}\n", place);
  }
  std::string folder = title;
  for (char& c : folder) c = c == ' ' ? '_' : c;
  w.Put("wikipedia/" + folder + "/content.txt", text);
}

}  // namespace

Json SynthReport::ToJson() const {
  return {{"datasets", datasets}, {"datagov", datagov}, {"wikipedia", wikipedia},
          {"files", files},       {"bytes", bytes},     {"bad_files", bad_files}};
}

Result<SynthReport> SynthesizeLake(lake::Store& out, const SynthOptions& o, ProgressBar* progress) {
  if (!(o.wikipedia_fraction >= 0 && o.wikipedia_fraction <= 1)) {
    return InvalidArgument("--wikipedia-fraction must be between 0 and 1");
  }
  if (o.first > UINT64_MAX - o.datasets) return InvalidArgument("--first + --datasets overflows");
  ThreadPool pool(o.jobs ? o.jobs : ThreadPool::DefaultThreads());
  std::mutex mu;
  SynthReport total;
  Status first_error;
  std::atomic<bool> failed{false};
  const uint64_t kChunk = 64;
  const uint64_t end_all = o.first + o.datasets;
  for (uint64_t start = o.first; start < end_all && !failed; start += kChunk) {
    pool.Submit([&, start] {
      Writer w{out, {}, Status::Ok()};
      uint64_t end = std::min(end_all, start + kChunk);
      for (uint64_t i = start; i < end && w.status.ok() && !failed; ++i) {
        Rng r(o.seed * 0x2545F4914F6CDD1DULL + i * 0x9E3779B97F4A7C15ULL + 1);
        if (r.Unit() < o.wikipedia_fraction) {
          MakeWikipedia(w, r, i);
          ++w.local.wikipedia;
        } else {
          MakeDatagov(w, r, i, o.with_bad_files && i % 25 == 0);
          ++w.local.datagov;
        }
        if (progress) progress->Add(1);
      }
      std::lock_guard<std::mutex> lock(mu);
      if (!w.status.ok() && first_error.ok()) {
        first_error = w.status;
        failed = true;
      }
      total.datagov += w.local.datagov;
      total.wikipedia += w.local.wikipedia;
      total.files += w.local.files;
      total.bytes += w.local.bytes;
      total.bad_files += w.local.bad_files;
    });
  }
  pool.Wait();
  if (!first_error.ok()) return first_error;
  total.datasets = total.datagov + total.wikipedia;
  return total;
}

}  // namespace lakeqa::ingest
