// kramabench: a checkout's data/<domain>/input/ trees → one dataset per file in kramabench-<domain>
// namespaces; bad checkouts refused with the reason. The checkout is made here in KramaBench's layout (no
// KramaBench data is committed). Also the profiler on the formats met there: HTML tables, XLSX, and binary
// files that say why they have no columns.
#include <gtest/gtest.h>

#include "ingest/build_test_util.h"
#include "lakeqa/ingest/build.h"
#include "lakeqa/ingest/profile.h"
#include "lakeqa/ingest/source_kind.h"
#include "lakeqa/kramabench/names.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::kramabench {
namespace {

using namespace ingest;

using namespace ingest::testing;

Result<BuildReport> BuildKb(const std::string& src, const std::string& out, const std::string& ns = "") {
  auto store = lake::OpenStore(out);
  if (!store.ok()) return store.status();
  BuildOptions o;
  o.jobs = 2;
  o.namespace_name = ns;
  return BuildLake(**store, SourceSpec{"kramabench", src}, o);
}

TEST(KramaBenchSource, SpecParsesAndBadCheckoutsAreRefused) {
  auto spec = ParseSourceSpec("kramabench:/x/Kramabench");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->kind, "kramabench");
  EXPECT_EQ(FindSourceKind(spec->kind)->name, "kramabench");
  TempDir t;
  auto none = BuildKb(t.path(), t.path() + "/lake");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("not a KramaBench checkout (expected data/<domain>/input/"),
            std::string::npos)
      << none.status().message();
  ASSERT_TRUE(MakeDirs(t.path() + "/data/legal").ok());  // a domain without input/
  auto empty = BuildKb(t.path(), t.path() + "/lake");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("no <domain>/input/ folder"), std::string::npos);
}

TEST(KramaBenchSource, EachInputFileBecomesADatasetOfItsDomain) {
  TempDir t;
  std::string in = t.path() + "/kb/data";
  ASSERT_TRUE(MakeDirs(in + "/legal/input/CSVs/State Data").ok());
  ASSERT_TRUE(MakeDirs(in + "/fire/input").ok());
  WriteBytes(in + "/legal/input/CSVs/State Data/Ohio.csv", "metro,reports\nColumbus,12\n");
  WriteBytes(in + "/legal/input/.DS_Store", "junk");
  WriteBytes(in + "/legal/input/metadata.json", "{}");
  WriteBytes(in + "/fire/input/acres.csv", "state,acres\nCA,100\n");
  auto r = BuildKb(t.path() + "/kb", t.path() + "/lake");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->DatasetsTotal(), 2u);
  EXPECT_EQ(r->skipped_total, 2u);
  EXPECT_EQ(r->skipped_by_reason["macOS Finder metadata (.DS_Store), not data"], 1u);
  EXPECT_EQ(r->details["domains"]["legal"]["namespace"], "kramabench-legal");
  EXPECT_EQ(Walk(t.path() + "/lake"),
            (std::vector<std::string>{"kramabench-fire/acres.csv/acres.csv",
                                      "kramabench-fire/acres.csv/metadata.json",
                                      "kramabench-legal/CSVs%2FState Data%2FOhio.csv/Ohio.csv",
                                      "kramabench-legal/CSVs%2FState Data%2FOhio.csv/metadata.json"}));
  EXPECT_EQ(Slurp(t.path() + "/lake/kramabench-fire/acres.csv/acres.csv"), "state,acres\nCA,100\n");
  Json meta = SlurpJson(t.path() + "/lake/kramabench-legal/CSVs%2FState Data%2FOhio.csv/metadata.json");
  EXPECT_EQ(meta["path"], "CSVs/State Data/Ohio.csv");
  EXPECT_EQ(meta["domain"], "legal");
  EXPECT_EQ(meta["title"], "CSVs/State Data/Ohio.csv");
  // The task loader's gold ids name the same folders.
  EXPECT_EQ(KramaBenchNamespace("legal") + "/" + KramaBenchDatasetFolder("CSVs/State Data/Ohio.csv"),
            "kramabench-legal/CSVs%2FState Data%2FOhio.csv");
  // --namespace sets the prefix.
  auto p = BuildKb(t.path() + "/kb", t.path() + "/lake2", "kb");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(Walk(t.path() + "/lake2")[0], "kb-fire/acres.csv/acres.csv");
}

FileProfile Profile(const std::string& name, const std::string& data) {
  Profiler p(name);
  p.Feed(data);
  auto r = p.Finish();
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : FileProfile{};
}

TEST(KramaBenchFormats, HtmlTablesProfileAsColumns) {
  std::string html =
      "<html><head><title>Metro areas</title></head><body><table><tr><td>nav</td></tr></table>"
      "<table class=wikitable><caption>The 3 metropolitan areas</caption>"
      "<thead><tr><th>Rank</th><th>Metro area</th><th>2020 census</th></tr></thead><tbody>"
      "<tr><td>1</td><td>New York, NY</td><td>20,140,470</td></tr>"
      "<tr><td>2</td><td>Los Angeles<br>CA</td><td>13200998</td></tr>"
      "<tr><td>3</td><td>Chicago <table><tr><td>nested</td></tr></table></td><td>9618502</td></tr>"
      "</tbody></table></body></html>";
  FileProfile p = Profile("metro.html", html);
  EXPECT_EQ(p.format, Format::kHtml);
  EXPECT_EQ(p.rows, 3u);
  ASSERT_EQ(p.columns.size(), 3u);
  EXPECT_EQ(p.columns[0].name, "Rank");
  EXPECT_EQ(p.columns[0].type, "integer");
  EXPECT_EQ(p.columns[1].name, "Metro area");
  EXPECT_EQ(p.columns[1].samples[1], "Los Angeles CA");
  EXPECT_EQ(p.columns[1].samples[2], "Chicago");  // the nested table is not part of the cell
  ASSERT_EQ(p.json_paths.size(), 3u);
  EXPECT_EQ(p.json_paths[1], "table[1] The 3 metropolitan areas: 4 rows x 3 columns");
  EXPECT_NE(p.text_sample.find("Metro areas"), std::string::npos);
  // No table: text only, no columns, no warning.
  FileProfile text = Profile("a.html", "<html><body><p>just prose</p></body></html>");
  EXPECT_TRUE(text.columns.empty());
  EXPECT_TRUE(text.json_paths.empty());
}

TEST(KramaBenchFormats, SpreadsheetsProfileAndBinaryFilesSayWhyNot) {
  FileProfile x = Profile("book.xlsx", MakeXlsx());
  EXPECT_EQ(x.format, Format::kXlsx);
  EXPECT_EQ(x.columns.size(), 2u);
  std::string cdf("\xCD\xF3\x00\x01\x00\x00\xFF\xFF", 8);
  cdf += std::string(5000, '\0');
  FileProfile c = Profile("SW_OPER.cdf", cdf);
  EXPECT_EQ(c.format, Format::kBinary);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "binary, not profiled (NASA CDF: no reader linked)");
  FileProfile n = Profile("grid.nc", std::string("CDF\x01\x00\x00\x00\x00", 8) + std::string(5000, '\0'));
  EXPECT_EQ(n.warnings.at(0), "binary, not profiled (NetCDF classic: no reader linked)");
  FileProfile b = Profile("blob.bin", std::string("\x01\x02\x00\x03", 4) + std::string(5000, '\0'));
  EXPECT_EQ(b.warnings.at(0), "binary, not profiled (no reader for this format)");
}

}  // namespace
}  // namespace lakeqa::kramabench
