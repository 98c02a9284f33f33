#include "lakeqa/ingest/synth.h"
#include "lakeqa/common/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/metadata.h"
#include "lakeqa/ingest/profile.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::ingest {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() : path_(*MakeTempDir("lakeqa-synth-")) {}
  ~TempDir() { (void)RemoveAll(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::map<std::string, std::string> ReadTree(const std::string& root) {
  std::map<std::string, std::string> out;
  for (auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out[e.path().string().substr(root.size())] = *ReadFile(e.path().string());
  }
  return out;
}

std::vector<std::string> HeaderOf(const std::string& csv) {
  // Split returns views into its argument: a view of `csv` itself, not of a temporary substr(), which the
  // range-for would destroy before the loop body reads the views (C++20 lifetime rules).
  std::string_view line = std::string_view(csv).substr(0, csv.find('\n'));
  std::vector<std::string> out;
  for (auto f : Split(line, ',')) out.emplace_back(f);
  return out;
}

TEST(Synth, SameSeedSameBytesDifferentSeedDifferentLake) {
  TempDir a, b, c;
  lake::LocalStore sa(a.path()), sb(b.path()), sc(c.path());
  SynthOptions o;
  o.datasets = 300;
  o.seed = 7;
  o.with_bad_files = true;
  o.jobs = 2;
  auto ra = SynthesizeLake(sa, o);
  o.jobs = 1;  // a different thread count must not change a byte
  auto rb = SynthesizeLake(sb, o);
  o.seed = 8;
  auto rc = SynthesizeLake(sc, o);
  ASSERT_TRUE(ra.ok() && rb.ok() && rc.ok());
  EXPECT_EQ(ra->ToJson(), rb->ToJson());
  EXPECT_EQ(ra->datasets, 300u);
  EXPECT_EQ(ra->datagov + ra->wikipedia, 300u);
  EXPECT_GT(ra->files, 1000u);
  EXPECT_GT(ra->bad_files, 0u);
  auto ta = ReadTree(a.path()), tb = ReadTree(b.path()), tc = ReadTree(c.path());
  EXPECT_EQ(ta.size(), ra->files);
  uint64_t bytes = 0;
  for (const auto& [k, v] : ta) bytes += v.size();
  EXPECT_EQ(bytes, ra->bytes);
  EXPECT_TRUE(ta == tb);
  EXPECT_FALSE(ta == tc);
}

TEST(Synth, RangesComposeIntoTheWholeLake) {
  TempDir whole, parts;
  lake::LocalStore sw(whole.path()), sp(parts.path());
  SynthOptions o;
  o.datasets = 150;
  o.seed = 5;
  o.jobs = 2;
  ASSERT_TRUE(SynthesizeLake(sw, o).ok());
  o.datasets = 70;
  auto first = SynthesizeLake(sp, o);
  o.first = 70;
  o.datasets = 80;
  auto second = SynthesizeLake(sp, o);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->datasets + second->datasets, 150u);
  EXPECT_TRUE(ReadTree(whole.path()) == ReadTree(parts.path()));
}

// 2,000 datasets: every data.gov dataset has a parseable record and its declared columns match the CSV.
TEST(Synth, DatasetsCarryParseableMetadataAndDeclaredColumns) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  SynthOptions o;
  o.datasets = 2000;
  o.seed = 1;
  o.jobs = 2;
  auto report = SynthesizeLake(store, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  size_t datagov = 0, wiki = 0, declared = 0, profiled = 0, arcgis = 0, views = 0, pdfs = 0, json_tables = 0;
  std::set<std::string> categories;
  for (auto& e : fs::directory_iterator(dir.path() + "/datagov")) {
    std::string id = e.path().filename().string();
    std::string root = e.path().string() + "/";
    ++datagov;
    auto meta_text = ReadFile(root + "signed-metadata.txt");
    ASSERT_TRUE(meta_text.ok()) << id;
    auto meta = ParseMetadataFile("signed-metadata.txt", *meta_text);
    ASSERT_TRUE(meta.ok()) << id << ": " << meta.status().ToString();
    EXPECT_FALSE(meta->title.empty());
    EXPECT_FALSE(meta->description.empty());
    EXPECT_FALSE(meta->publisher.empty());
    EXPECT_FALSE(meta->source_url.empty());
    EXPECT_FALSE(meta->temporal.empty());
    std::string category = CategorizeThemes(*meta);
    EXPECT_FALSE(category.empty()) << meta->title;
    categories.insert(category);
    auto rows = ReadFile(root + "files/rows.txt");
    ASSERT_TRUE(rows.ok()) << id;
    auto header = HeaderOf(*rows);
    for (auto& f : fs::directory_iterator(root + "files")) {
      std::string rel = "files/" + f.path().filename().string();
      if (EndsWith(rel, ".pdf")) ++pdfs;
      if (EndsWith(rel, ".jsonl") || (EndsWith(rel, ".json") && !IsMetadataFile(rel))) ++json_tables;
      if (!IsMetadataFile(rel)) continue;
      auto m = ParseMetadataFile(rel, *ReadFile(f.path().string()));
      ASSERT_TRUE(m.ok()) << id << "/" << rel << ": " << m.status().ToString();
      std::vector<std::string> cols = m->columns;
      if (EndsWith(rel, ".arcgis-layer.json")) {
        ++arcgis;
        ASSERT_FALSE(cols.empty());
        EXPECT_EQ(cols.front(), "OBJECTID");
        cols.erase(cols.begin());
      }
      if (EndsWith(rel, ".publisher-view.json")) ++views;
      EXPECT_EQ(cols, header) << id << "/" << rel;
      ++declared;
    }
    if (profiled < 100) {  // the profiler agrees (a sample: profiling is the slow part under sanitizers)
      auto prof = ProfileObject(store, "datagov/" + id + "/files/rows.txt", ProfileOptions{});
      ASSERT_TRUE(prof.ok());
      EXPECT_EQ(prof->format, Format::kCsv);
      ASSERT_EQ(prof->columns.size(), header.size());
      for (size_t c = 0; c < header.size(); ++c) EXPECT_EQ(prof->columns[c].name, header[c]);
      EXPECT_TRUE(prof->warnings.empty()) << id;
      ++profiled;
    }
  }
  for (auto& e : fs::directory_iterator(dir.path() + "/wikipedia")) {
    auto text = ReadFile((e.path() / "content.txt").string());
    ASSERT_TRUE(text.ok()) << e.path();
    auto m = WikipediaMetadata(e.path().filename().string(), *text);
    EXPECT_FALSE(m.description.empty()) << e.path();
    ++wiki;
  }
  // Folder counts equal the report: no two datasets share a name.
  EXPECT_EQ(datagov, report->datagov);
  EXPECT_EQ(wiki, report->wikipedia);
  EXPECT_EQ(datagov + wiki, 2000u);
  EXPECT_NEAR(static_cast<double>(wiki) / 2000, 0.3, 0.05);
  EXPECT_EQ(categories.size(), ThemeCategories().size());  // all 8 of Table 10
  EXPECT_GT(declared, 300u);
  EXPECT_GT(arcgis, 50u);
  EXPECT_GT(views, 100u);
  EXPECT_GT(pdfs, 10u);
  EXPECT_GT(json_tables, 50u);
}

TEST(Synth, PdfsAndJsonTablesProfile) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  SynthOptions o;
  o.datasets = 400;
  o.seed = 3;
  o.wikipedia_fraction = 0;
  ASSERT_TRUE(SynthesizeLake(store, o).ok());
  size_t pdfs = 0, jsonl = 0;
  for (auto& e : fs::recursive_directory_iterator(dir.path())) {
    std::string key = e.path().string().substr(dir.path().size() + 1);
    if (EndsWith(key, ".pdf") && pdfs < 3) {
      auto p = ProfileObject(store, key, ProfileOptions{});
      ASSERT_TRUE(p.ok()) << key;
      EXPECT_EQ(p->format, Format::kPdf) << key;
      EXPECT_TRUE(p->corrupt.empty()) << key << ": " << p->corrupt;
      EXPECT_NE(p->text_sample.find("Methodology"), std::string::npos) << key << ": " << p->text_sample;
      ++pdfs;
    } else if (EndsWith(key, ".jsonl") && jsonl < 3) {
      auto p = ProfileObject(store, key, ProfileOptions{});
      ASSERT_TRUE(p.ok()) << key;
      EXPECT_EQ(p->format, Format::kJsonLines) << key;
      EXPECT_GT(p->rows, 0u);
      ++jsonl;
    }
  }
  EXPECT_GT(pdfs, 0u);
  EXPECT_GT(jsonl, 0u);
}

TEST(Synth, BadFilesAreThereWhenAskedFor) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  SynthOptions o;
  o.datasets = 500;
  o.seed = 2;
  o.wikipedia_fraction = 0;
  o.with_bad_files = true;
  auto r = SynthesizeLake(store, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->bad_files, 20u);  // every 25th dataset
  std::set<std::string> names;
  for (auto& e : fs::recursive_directory_iterator(dir.path() + "/datagov"))
    names.insert(e.path().filename().string());
  for (const char* n : {"empty.txt", "latin1.txt", "ragged.txt", "truncated.json", "blob.bin",
                        "odd name \xC3\xA9 (1).csv", "zzzz-0000.publisher-view.json", "bom-crlf.csv"}) {
    EXPECT_TRUE(names.count(n)) << n;
  }
  // The broken publisher view is a metadata file whose parse fails with a position.
  for (auto& e : fs::recursive_directory_iterator(dir.path() + "/datagov")) {
    if (e.path().filename() != "zzzz-0000.publisher-view.json") continue;
    auto m = ParseMetadataFile("files/zzzz-0000.publisher-view.json", *ReadFile(e.path().string()));
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), ErrorCode::kParseError);
    EXPECT_NE(m.status().message().find("zzzz-0000.publisher-view.json:"), std::string::npos);
  }
}

TEST(Synth, RejectsBadOptionsAndReportsWriteErrors) {
  TempDir dir;
  lake::LocalStore store(dir.path());
  SynthOptions o;
  o.wikipedia_fraction = 1.5;
  EXPECT_EQ(SynthesizeLake(store, o).status().code(), ErrorCode::kInvalidArgument);
  o.wikipedia_fraction = std::nan("");
  EXPECT_EQ(SynthesizeLake(store, o).status().code(), ErrorCode::kInvalidArgument);
  o.wikipedia_fraction = 0.3;
  o.first = UINT64_MAX - 5;
  EXPECT_EQ(SynthesizeLake(store, o).status().code(), ErrorCode::kInvalidArgument);
  // A lake root that is a regular file: every write fails, and the first failure is returned.
  std::string file = dir.path() + "/not-a-dir";
  ASSERT_TRUE(WriteFileAtomic(file, "x").ok());
  lake::LocalStore broken(file);
  SynthOptions small;
  small.datasets = 10;
  small.jobs = 2;
  auto r = SynthesizeLake(broken, small);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(r.status().message().empty());
}

}  // namespace
}  // namespace lakeqa::ingest
