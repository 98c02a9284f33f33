#include "lakeqa/ingest/synth.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <mutex>

#include "lakeqa/common/thread_pool.h"

namespace lakeqa::ingest {
namespace {

// splitmix64: a counter-based generator, so dataset i's stream depends only on (seed, i).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n ? Next() % n : 0; }
  double Unit() { return static_cast<double>(Next() >> 11) / 9007199254740992.0; }
  template <typename T, size_t N>
  const T& Pick(const std::array<T, N>& a) { return a[Below(N)]; }

 private:
  uint64_t s_;
};

struct Topic {
  const char* slug;
  const char* title;
  const char* theme;  // a Table 10 theme, so categories spread over all 8
  std::array<const char*, 6> columns;
};

const std::array<Topic, 16> kTopics = {{
    {"police-incidents", "Police Incidents", "Public Safety", {"Incident Number", "Occurred Date", "Occurred Year", "Sector", "Council District", "Offense Type"}},
    {"searches-by-type", "Searches by Type", "Public Safety", {"Search ID", "Occurred Year", "Sector", "Search Type", "Race", "Outcome"}},
    {"school-progress-reports", "School Progress Reports", "Education", {"DBN", "School Name", "School Year", "Grade", "Score", "Enrollment"}},
    {"graduation-rates", "Graduation Rates", "Education", {"District", "Cohort Year", "Students", "Graduates", "Rate", "Subgroup"}},
    {"bus-ridership", "Bus Ridership Monthly Averages", "Public Transit", {"Route", "Month", "Day Type", "Average Rides", "Year", "Station"}},
    {"traffic-counts", "Traffic Counts", "Transportation", {"Segment", "Count Date", "Year", "Direction", "Vehicles", "Speed"}},
    {"restaurant-inspections", "Restaurant Inspections", "Health", {"Facility", "Inspection Date", "Score", "Zip Code", "Violation", "Year"}},
    {"wic-redemptions", "WIC Redemptions by Vendor", "Nutrition", {"Vendor", "County", "Year", "Redemptions", "Families", "Amount"}},
    {"air-quality", "Air Quality Measurements", "Environment", {"Site", "Date", "Year", "Pollutant", "Value", "Unit"}},
    {"water-usage", "Water Usage by Utility", "Natural Resources", {"Utility", "Month", "Year", "Gallons", "Customers", "County"}},
    {"budget-expenditures", "Budget Expenditures", "Budget", {"Department", "Fiscal Year", "Fund", "Amount", "Category", "Program"}},
    {"campaign-contributions", "Campaign Contributions", "Campaign Finance", {"Candidate", "Contributor", "Date", "Amount", "Year", "Office"}},
    {"building-permits", "Building Permits", "Housing & Development", {"Permit Number", "Issue Date", "Year", "Work Class", "Valuation", "Zip Code"}},
    {"unemployment-insurance", "Unemployment Insurance Beneficiaries", "Employment", {"Region", "Year", "Month", "Beneficiaries", "Benefits Paid", "Industry"}},
    {"population-estimates", "Population Estimates", "Demographics", {"County", "Year", "Population", "Households", "Median Age", "State"}},
    {"income-limits", "Income Limits", "Housing", {"County", "Year", "Household Size", "Income Limit", "Program", "State"}},
}};

const std::array<const char*, 16> kPlaces = {"Austin", "Chicago", "New York", "Los Angeles", "Seattle", "Boston",
                                             "Denver", "Baltimore", "San Francisco", "Dallas", "Phoenix", "Atlanta",
                                             "California", "Texas", "Maryland", "Washington"};
const std::array<const char*, 10> kPublishers = {"City of Austin", "City of Chicago", "NYC OpenData", "State of California",
                                                 "Maryland Department of Health", "U.S. Census Bureau", "Texas DPS",
                                                 "King County", "Department of Transportation", "CDC"};
const std::array<const char*, 12> kWords = {"Charlie", "Adam", "Baker", "David", "Edward", "Frank", "George", "Henry",
                                            "North", "South", "Central", "East"};
const std::array<const char*, 12> kWikiTopics = {"film", "music", "sports", "politics", "science", "literature",
                                                 "aviation", "architecture", "television", "rail transport",
                                                 "association football", "baseball"};

std::string Slug(std::string s) {
  for (char& c : s) c = (c == ' ') ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string FourByFour(Rng& r) {
  static const char* kChars = "abcdefghijkmnpqrstuvwxyz23456789";
  std::string s;
  for (int i = 0; i < 9; ++i) s += i == 4 ? '-' : kChars[r.Below(32)];
  return s;
}

std::string Cell(Rng& r, const std::string& column, int year) {
  if (column.find("Year") != std::string::npos) return std::to_string(year);
  if (column.find("Date") != std::string::npos || column == "Month") {
    return fmt::format("{:02}/{:02}/{}", 1 + r.Below(12), 1 + r.Below(28), year);
  }
  if (column.find("Number") != std::string::npos || column.find("ID") != std::string::npos) {
    return std::to_string(year * 100000 + static_cast<int>(r.Below(100000)));
  }
  if (column == "Score" || column == "Rate" || column == "Value" || column == "Amount" || column == "Speed" ||
      column == "Average Rides" || column == "Benefits Paid" || column == "Median Age") {
    return fmt::format("{:.2f}", r.Unit() * 1000);
  }
  if (column.find("District") != std::string::npos || column == "Grade" || column == "Household Size" ||
      column == "Students" || column == "Graduates" || column == "Vehicles" || column == "Population" ||
      column == "Households" || column == "Customers" || column == "Gallons" || column == "Families" ||
      column == "Redemptions" || column == "Beneficiaries" || column == "Enrollment" || column == "Valuation" ||
      column == "Income Limit") {
    return std::to_string(r.Below(column.find("District") != std::string::npos ? 10 : 100000) + 1);
  }
  if (column == "Zip Code") return std::to_string(78701 + r.Below(60));
  std::string v = std::string(r.Pick(kWords));
  if (r.Below(8) == 0) v = "\"" + v + ", " + r.Pick(kWords) + "\"";  // quoted field with a delimiter
  return v;
}

std::string Csv(Rng& r, const Topic& t, uint64_t rows, int base_year) {
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

struct Writer {
  lake::Store& store;
  SynthReport local;
  Status status;
  void Put(const std::string& key, const std::string& data) {
    if (!status.ok()) return;
    status = store.Write(key, data);
    ++local.files;
    local.bytes += data.size();
  }
};

void MakeDatagov(Writer& w, Rng& r, uint64_t i, bool bad) {
  const Topic& t = r.Pick(kTopics);
  std::string place = r.Pick(kPlaces);
  std::string publisher = r.Pick(kPublishers);
  std::string id = Slug(place) + "-" + t.slug + "-" + std::to_string(i);
  std::string root = "datagov/" + id + "/";
  int year = 2010 + static_cast<int>(r.Below(10));
  std::string title = place + " " + t.title;
  std::string desc = fmt::format("{} published by {}. Each row is one record with {} and {}; updated yearly since {}.",
                                 title, publisher, t.columns[0], t.columns[1], year);
  Json rec = {{"name", id},
              {"title", title},
              {"notes", desc},
              {"organization", {{"title", publisher}, {"name", Slug(publisher)}}},
              {"tags", Json::array({{{"display_name", Slug(place)}}, {{"display_name", std::string(t.slug)}}})},
              {"groups", Json::array({{{"title", t.theme}}})},
              {"license_title", "Public Domain"},
              {"extras", Json::array({{{"key", "temporal"}, {"value", fmt::format("{}-01-01/{}-12-31", year, year + 7)}},
                                      {{"key", "spatial"}, {"value", place}},
                                      {{"key", "publisher"}, {"value", publisher}}})}};
  w.Put(root + "signed-metadata.txt", DumpJson(Json{{"signature", fmt::format("{:016x}", r.Next())}, {"metadata", rec}}, 1));
  // Sizes: mostly small, some medium, a few MB-sized.
  double u = r.Unit();
  uint64_t rows = u < 0.9 ? 20 + r.Below(400) : u < 0.99 ? 2000 + r.Below(8000) : 20000 + r.Below(20000);
  w.Put(root + "files/rows.txt", Csv(r, t, rows, year));
  if (r.Below(10) < 3) {
    std::string cols;
    for (auto* c : t.columns) cols += std::string(c) + "\n";
    w.Put(root + "files/columns.txt", cols);
  }
  if (r.Below(10) < 4) {
    Json cols = Json::array();
    for (auto* c : t.columns) cols.push_back({{"name", c}, {"fieldName", Slug(c)}, {"dataTypeName", "text"}});
    Json view = {{"id", FourByFour(r)}, {"name", title}, {"description", desc}, {"category", t.theme},
                 {"attribution", publisher}, {"tags", Json::array({Slug(place)})}, {"columns", cols}};
    w.Put(root + "files/" + view["id"].get<std::string>() + ".publisher-view.json", DumpJson(view));
  }
  if (r.Below(4) == 0) {
    Json feats = Json::array();
    uint64_t n = 5 + r.Below(50);
    for (uint64_t f = 0; f < n; ++f) {
      feats.push_back({{"type", "Feature"},
                       {"properties", {{"NAME", std::string(r.Pick(kWords)) + " " + std::to_string(f)},
                                       {"DISTRICT", 1 + r.Below(10)}, {"AREA", r.Unit() * 100}}},
                       {"geometry", {{"type", "Point"}, {"coordinates", {-97 - r.Unit(), 30 + r.Unit()}}}}});
    }
    w.Put(root + "files/data.txt", DumpJson(Json{{"type", "FeatureCollection"}, {"features", feats}}));
  }
  if (r.Below(5) == 0) {
    Json fields = Json::array();
    for (auto* c : t.columns) fields.push_back({{"name", Slug(c)}, {"alias", c}, {"type", "esriFieldTypeString"}});
    w.Put(root + "files/0.arcgis-layer.json",
          DumpJson(Json{{"name", title}, {"description", "<p>" + desc + "</p>"}, {"copyrightText", publisher},
                        {"geometryType", "esriGeometryPoint"}, {"fields", fields}}));
  }
  if (r.Below(10) < 3) {
    w.Put(root + "files/readme.txt", title + "\n\n" + desc + "\n\nColumns:\n- " + t.columns[0] + "\n- " + t.columns[1] + "\n");
  }
  if (r.Below(10) == 0) {
    w.Put(root + "files/about.html", "<!DOCTYPE html><html><head><title>" + title + "</title></head><body><h1>" + title +
                                         "</h1><p>" + desc + "</p></body></html>");
  }
  // Yearly extracts: many small files, as data.gov publishers split tables by year.
  uint64_t extracts = r.Below(13);
  for (uint64_t e = 0; e < extracts; ++e) {
    int y = year + static_cast<int>(e);
    w.Put(root + fmt::format("files/{}-{}.csv", t.slug, y), Csv(r, t, 2 + r.Below(30), y));
  }
  if (bad) {
    ++w.local.bad_files;
    switch (i / 25 % 6) {
      case 0: w.Put(root + "files/empty.txt", ""); break;
      case 1: w.Put(root + "files/latin1.txt", "name,city\nJos\xE9,Montr\xE9" "al\n"); break;
      case 2: w.Put(root + "files/ragged.txt", "a,b,c\n1,2\n3,4,5,6\n"); break;
      case 3: w.Put(root + "files/truncated.json", "{\"rows\": [1, 2, {\"a\": "); break;
      case 4: w.Put(root + "files/blob.bin", std::string("\0\1\2\3\x89PNG", 8) + std::string(1000, '\0')); break;
      default: w.Put(root + "files/odd name \xC3\xA9 (1).csv", "x,y\n1,2\n"); break;
    }
  }
}

void MakeWikipedia(Writer& w, Rng& r, uint64_t i) {
  int year = 1950 + static_cast<int>(r.Below(75));
  std::string topic = r.Pick(kWikiTopics);
  std::string title = fmt::format("{} in {} ({})", year, topic, i);
  std::string folder = title;
  for (char& c : folder) c = c == ' ' ? '_' : c;
  std::string place = r.Pick(kPlaces);
  std::string text = title + "\n\n" +
                     fmt::format("The year {} in {} saw notable events in {} and elsewhere. {} people attended the "
                                 "main event.\n\n== Events ==\n- {} championship held in {}\n- A record of {} set\n\n"
                                 "== See also ==\n- {} in {}\n",
                                 year, topic, place, 1000 + r.Below(90000), topic, place, r.Below(500), year + 1, topic);
  w.Put("wikipedia/" + folder + "/content.txt", text);
}

}  // namespace

Json SynthReport::ToJson() const {
  return {{"datasets", datasets}, {"datagov", datagov}, {"wikipedia", wikipedia},
          {"files", files},       {"bytes", bytes},     {"bad_files", bad_files}};
}

Result<SynthReport> SynthesizeLake(lake::Store& out, const SynthOptions& o, ProgressBar* progress) {
  if (o.wikipedia_fraction < 0 || o.wikipedia_fraction > 1) {
    return InvalidArgument("--wikipedia-fraction must be between 0 and 1");
  }
  ThreadPool pool(o.jobs ? o.jobs : ThreadPool::DefaultThreads());
  std::mutex mu;
  SynthReport total;
  Status first_error;
  std::atomic<bool> failed{false};
  const uint64_t kChunk = 64;
  for (uint64_t start = 0; start < o.datasets && !failed; start += kChunk) {
    pool.Submit([&, start] {
      Writer w{out, {}, Status::Ok()};
      uint64_t end = std::min(o.datasets, start + kChunk);
      for (uint64_t i = start; i < end && w.status.ok(); ++i) {
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
