#include "lakeqa/catalog/catalog.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/synth.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/lake/s3_store.h"
#include "support/s3_server.h"

namespace lakeqa::catalog {
namespace {

class TempDir {
 public:
  TempDir() : path_(*MakeTempDir("lakeqa-cat-")) {}
  ~TempDir() { (void)RemoveAll(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> DumpLines(Catalog& c, bool ignore_etag = false) {
  std::vector<std::string> lines;
  EXPECT_TRUE(c.Dump([&](const std::string& l) { lines.push_back(l); }, ignore_etag).ok());
  return lines;
}

BuildOptions Quiet(ProfileMode mode = ProfileMode::kHead) {
  BuildOptions o;
  o.mode = mode;
  o.progress = false;
  o.jobs = 2;
  return o;
}

constexpr const char* kRecord = R"({"signature": "x", "metadata": {"title": "APD Searches by Type",
  "notes": "Searches by Austin police.", "organization": {"title": "City of Austin"},
  "tags": [{"display_name": "police"}], "groups": [{"title": "Public Safety"}],
  "extras": [{"key": "temporal", "value": "2019/2023"}]}})";

class BuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = std::make_unique<lake::LocalStore>(lake_.path());
    Put("datagov/apd-searches/signed-metadata.txt", kRecord);
    Put("datagov/apd-searches/files/rows.txt",
        "Occurred Year,Sector,Council District\n2023,Charlie,1\n2023,Adam,2\n");
    Put("datagov/apd-searches/files/columns.txt", "Occurred Year\nSector\nCouncil District\n");
    Put("datagov/apd-searches/files/data.txt",
        R"({"type":"FeatureCollection","features":[{"type":"Feature","properties":{"DISTRICT":1},"geometry":null}]})");
    Put("datagov/bad-things/signed-metadata.txt", "{\n \"title\": \"Bad\",\n oops }");
    Put("datagov/bad-things/files/empty.txt", "");
    Put("datagov/bad-things/files/latin1.txt",
        "name,city\nJos\xE9,Montr\xE9"
        "al\n");
    Put("datagov/bad-things/files/ragged.txt", "a,b,c\n1,2\n3,4,5\n");
    Put("datagov/bad-things/files/truncated.json", "{\"a\": [1, 2,");
    Put("datagov/bad-things/files/odd name \xC3\xA9 #1.csv", "x,y\n1,2\n");
    Put("wikipedia/2020_in_film/content.txt",
        "2020 in film\n\nThe year 2020 in film was shaped by the pandemic.\n");
    Put("stray.txt", "not in a dataset");
    // Names that are not valid UTF-8 or hold a newline are still keys like any other.
    Put("datagov/bad-things/files/bad\xFF\xFEname.csv", "x\n1\n");
    Put("datagov/bad-things/files/new\nline.csv", "x\n1\n");
    ASSERT_EQ(symlink(lake_.path().c_str(), (lake_.path() + "/datagov/bad-things/files/loop").c_str()), 0);
    ASSERT_EQ(mkfifo((lake_.path() + "/datagov/bad-things/files/fifo").c_str(), 0644), 0);
  }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(store_->Write(key, data).ok()) << key;
  }
  std::unique_ptr<Catalog> Open() { return std::move(*Catalog::Open(index_.path() + "/catalog.sqlite")); }

  TempDir lake_, index_;
  std::unique_ptr<lake::LocalStore> store_;
};

TEST_F(BuilderTest, CataloguesEverythingAndRecordsErrorsPerFile) {
  auto report = BuildCatalog(*store_, index_.path(), Quiet());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->listed, 16u);
  EXPECT_EQ(report->datasets, 3u);
  auto cat = Open();
  auto ds = cat->GetDataset("datagov/apd-searches");
  ASSERT_TRUE(ds.ok());
  EXPECT_EQ(ds->metadata.title, "APD Searches by Type");
  EXPECT_EQ(ds->metadata.publisher, "City of Austin");
  EXPECT_EQ(ds->metadata.temporal, "2019/2023");
  EXPECT_EQ(ds->category, "Public Safety");
  EXPECT_EQ(ds->file_count, 4u);
  EXPECT_EQ(ds->columns,
            (std::vector<std::string>{"Occurred Year", "Sector", "Council District", "DISTRICT"}));
  auto rows = cat->GetFile("datagov/apd-searches/files/rows.txt");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->format, "csv");
  EXPECT_EQ((*rows->profile)["rows"], 2);
  EXPECT_EQ(cat->GetFile("datagov/apd-searches/files/data.txt")->format, "geojson");

  auto wiki = cat->GetDataset("wikipedia/2020_in_film");
  ASSERT_TRUE(wiki.ok());
  EXPECT_EQ(wiki->metadata.title, "2020 in film");
  EXPECT_EQ(wiki->metadata.description, "The year 2020 in film was shaped by the pandemic.");

  // Per-file errors with reasons; nothing dropped.
  auto bad_meta = cat->GetFile("datagov/bad-things/signed-metadata.txt");
  ASSERT_TRUE(bad_meta.ok());
  EXPECT_EQ(bad_meta->error_code, "parse_error");
  EXPECT_NE(bad_meta->error.find("signed-metadata.txt:3:"), std::string::npos) << bad_meta->error;
  EXPECT_EQ(cat->GetFile("datagov/bad-things/files/truncated.json")->error_code, "parse_error");
  EXPECT_EQ(cat->GetFile("datagov/bad-things/files/empty.txt")->format, "empty");
  auto latin = cat->GetFile("datagov/bad-things/files/latin1.txt");
  EXPECT_EQ((*latin->profile)["encoding"], "latin-1");
  auto ragged = cat->GetFile("datagov/bad-things/files/ragged.txt");
  EXPECT_NE(DumpJson((*ragged->profile)["warnings"]).find("ragged"), std::string::npos);
  for (const char* odd :
       {"datagov/bad-things/files/odd name \xC3\xA9 #1.csv", "datagov/bad-things/files/bad\xFF\xFEname.csv",
        "datagov/bad-things/files/new\nline.csv"}) {
    auto f = cat->GetFile(odd);
    ASSERT_TRUE(f.ok()) << odd;
    EXPECT_EQ(f->format, "csv") << odd;
    EXPECT_TRUE(f->error.empty()) << f->error;
  }
  auto stray = cat->GetFile("stray.txt");
  ASSERT_TRUE(stray.ok());
  EXPECT_NE(stray->error.find("not inside"), std::string::npos);
  auto fifo = cat->GetFile("datagov/bad-things/files/fifo");
  ASSERT_TRUE(fifo.ok());
  EXPECT_EQ(fifo->error_code, "unsupported");
  EXPECT_NE(fifo->error.find("FIFO"), std::string::npos);
  EXPECT_NE(cat->GetFile("datagov/bad-things/files/loop")->error.find("not followed"), std::string::npos);
  auto bad_ds = cat->GetDataset("datagov/bad-things");
  ASSERT_TRUE(bad_ds.ok());
  EXPECT_EQ(bad_ds->error_count, 4u);

  auto stats = cat->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->files, 16u);
  EXPECT_EQ(stats->file_errors, 5u);
  EXPECT_EQ(stats->unprofiled, 0u);
  auto listed = cat->ListDatasets("datagov/", 10);
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 2u);
  EXPECT_TRUE(PathExists(index_.path() + "/manifest.json"));
}

TEST_F(BuilderTest, RerunsProcessOnlyWhatChanged) {
  ASSERT_TRUE(BuildCatalog(*store_, index_.path(), Quiet()).ok());
  std::vector<std::string> first;
  {
    auto cat = Open();
    first = DumpLines(*cat);
  }
  auto again = BuildCatalog(*store_, index_.path(), Quiet());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->profiled, 0u);
  EXPECT_EQ(again->unchanged, 16u);
  {
    auto cat = Open();
    EXPECT_EQ(DumpLines(*cat), first);
  }
  sleep(0);  // etags include nanosecond mtimes and inode: a rewrite is always a change
  Put("datagov/apd-searches/files/rows.txt", "Occurred Year,Sector\n2024,Baker\n");
  ASSERT_EQ(unlink((lake_.path() + "/datagov/bad-things/files/ragged.txt").c_str()), 0);
  auto third = BuildCatalog(*store_, index_.path(), Quiet());
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->profiled, 1u);
  EXPECT_EQ(third->removed, 1u);
  auto cat = Open();
  EXPECT_EQ((*cat->GetFile("datagov/apd-searches/files/rows.txt")->profile)["rows"], 1);
  EXPECT_EQ(cat->GetDataset("datagov/bad-things")->file_count, 9u);
  // A stronger profile mode re-reads everything.
  auto full = BuildCatalog(*store_, index_.path(), Quiet(ProfileMode::kFull));
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->profiled, 15u);
}

TEST_F(BuilderTest, NoneModeReadsOnlyMetadataFiles) {
  auto report = BuildCatalog(*store_, index_.path(), Quiet(ProfileMode::kNone));
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->estimate["get_requests"], 4);  // 2 metadata records, columns.txt, the wikipedia page
  auto cat = Open();
  EXPECT_EQ(cat->GetDataset("datagov/apd-searches")->metadata.title, "APD Searches by Type");
  EXPECT_FALSE(cat->GetFile("datagov/apd-searches/files/rows.txt")->profile.has_value());
  EXPECT_EQ(cat->GetDataset("wikipedia/2020_in_film")->metadata.description,
            "The year 2020 in film was shaped by the pandemic.");
}

TEST_F(BuilderTest, ForEachDatasetVisitsEveryDatasetWithItsFiles) {
  ASSERT_TRUE(BuildCatalog(*store_, index_.path(), Quiet()).ok());
  auto cat = Open();
  std::vector<std::string> ids;
  size_t files = 0;
  Status s = cat->ForEachDataset([&](const DatasetRecord& d, const std::vector<FileRecord>& fs) {
    ids.push_back(d.FullId());
    for (const auto& f : fs) {
      EXPECT_EQ(f.ns + "/" + f.dataset_id, d.FullId());
      EXPECT_EQ(f.key, d.FullId() + "/" + f.path);
    }
    EXPECT_TRUE(std::is_sorted(fs.begin(), fs.end(), [](auto& a, auto& b) { return a.key < b.key; }));
    files += fs.size();
    return Status::Ok();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(ids, (std::vector<std::string>{"datagov/apd-searches", "datagov/bad-things",
                                           "wikipedia/2020_in_film"}));
  auto ls = [&](const std::string& prefix, uint64_t limit = 100, uint64_t offset = 0) {
    std::vector<std::string> out;
    auto r = cat->ListDatasets(prefix, limit, offset);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) {
      for (const auto& d : *r) out.push_back(d.FullId());
    }
    return out;
  };
  EXPECT_EQ(ls(""), ids);
  EXPECT_EQ(ls("datagov/"), (std::vector<std::string>{"datagov/apd-searches", "datagov/bad-things"}));
  EXPECT_EQ(ls("datagov/apd"), (std::vector<std::string>{"datagov/apd-searches"}));
  EXPECT_EQ(ls("wiki"), (std::vector<std::string>{"wikipedia/2020_in_film"}));
  EXPECT_EQ(ls("datagov"), (std::vector<std::string>{"datagov/apd-searches", "datagov/bad-things"}));
  EXPECT_TRUE(ls("datagov/zz").empty());
  EXPECT_TRUE(ls("\xFF\xFF").empty());
  EXPECT_EQ(ls("", 1, 1), (std::vector<std::string>{"datagov/bad-things"}));
  EXPECT_EQ(files, 15u);  // every file but the stray one outside a dataset folder
  // A visitor's error stops the walk and is returned.
  int visits = 0;
  Status stop = cat->ForEachDataset([&](const DatasetRecord&, const std::vector<FileRecord>&) {
    ++visits;
    return NotFound("enough");
  });
  EXPECT_EQ(stop.code(), ErrorCode::kNotFound);
  EXPECT_EQ(visits, 1);
}

TEST_F(BuilderTest, FileVanishingBetweenListingAndReadIsAPerFileError) {
  BuildOptions o = Quiet();
  Json estimate;
  o.on_estimate = [&](const Json& e) {
    estimate = e;
    // The listing is done; the file goes away before it is read (as an S3 object deleted mid-crawl would).
    ASSERT_EQ(unlink((lake_.path() + "/datagov/apd-searches/files/rows.txt").c_str()), 0);
  };
  auto report = BuildCatalog(*store_, index_.path(), o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(estimate["files_to_profile"], 16);
  EXPECT_EQ(estimate["get_requests"], 16);
  {
    auto cat = Open();
    auto rows = cat->GetFile("datagov/apd-searches/files/rows.txt");
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(rows->error_code, "not_found") << rows->error;
    EXPECT_NE(rows->error.find("rows.txt"), std::string::npos) << rows->error;
    EXPECT_EQ(cat->GetDataset("datagov/apd-searches")->file_count, 4u);  // the other files are all there
    EXPECT_EQ(cat->GetDataset("datagov/apd-searches")->error_count, 1u);
  }
  // The next build sees it gone.
  auto again = BuildCatalog(*store_, index_.path(), Quiet());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->removed, 1u);
  EXPECT_EQ(again->profiled, 0u);
  auto cat = Open();
  EXPECT_EQ(cat->GetFile("datagov/apd-searches/files/rows.txt").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat->GetDataset("datagov/apd-searches")->file_count, 3u);
  EXPECT_EQ(cat->GetDataset("datagov/apd-searches")->error_count, 0u);
}

TEST_F(BuilderTest, UnreadableFileIsAPerFileError) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: file permissions do not stop reads";
  std::string path = lake_.path() + "/datagov/apd-searches/files/secret.csv";
  Put("datagov/apd-searches/files/secret.csv", "a,b\n1,2\n");
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  ASSERT_TRUE(BuildCatalog(*store_, index_.path(), Quiet()).ok());
  auto f = Open()->GetFile("datagov/apd-searches/files/secret.csv");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->error_code, "permission_denied") << f->error;
}

TEST(BuilderHuge, FiveGigabyteSingleLineFileCostsOneHeadRead) {
  TempDir lake, index;
  lake::LocalStore store(lake.path());
  ASSERT_TRUE(store.Write("datagov/huge/files/line.txt", std::string(100000, 'x')).ok());
  // Sparse: 5 GB long, one line, no disk space.
  ASSERT_EQ(truncate((lake.path() + "/datagov/huge/files/line.txt").c_str(), 5'000'000'000LL), 0);
  auto report = BuildCatalog(store, index.path(), Quiet());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->estimate["bytes_to_read"], 65536);
  EXPECT_EQ(report->bytes_read, 65536u);
  auto cat = Catalog::Open(index.path() + "/catalog.sqlite");
  ASSERT_TRUE(cat.ok());
  auto f = (*cat)->GetFile("datagov/huge/files/line.txt");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->size, 5'000'000'000u);
  ASSERT_TRUE(f->profile.has_value());
  EXPECT_EQ((*f->profile)["bytes_read"], 65536);
  EXPECT_EQ((*cat)->GetDataset("datagov/huge")->bytes, 5'000'000'000u);
}

TEST(CatalogSchema, OlderSchemaIsRebuiltNewerIsRefused) {
  TempDir dir;
  std::string path = dir.path() + "/catalog.sqlite";
  {
    // A version-1 catalog, as lakeqa wrote it before profiles moved to their own table.
    auto c = Catalog::Open(path);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE((*c)->SetMeta("schema_version", "1").ok());
  }
  auto ro = Catalog::Open(path, /*read_only=*/true);
  ASSERT_FALSE(ro.ok());
  EXPECT_EQ(ro.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(ro.status().message().find("index build"), std::string::npos) << ro.status().ToString();
  {
    auto c = Catalog::Open(path);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    EXPECT_EQ((*c)->GetMeta("schema_version"), std::to_string(kSchemaVersion));
    EXPECT_TRUE((*c)->ListDatasets("", 10)->empty());
  }
  EXPECT_TRUE(Catalog::Open(path, true).ok());
}

TEST(BuilderCrash, KillDashNineThenRerunGivesTheSameCatalog) {
  const char* bin = std::getenv("LAKEQA_BIN");
  if (!bin || !PathExists(bin)) GTEST_SKIP() << "LAKEQA_BIN (the lakeqa binary) is not set";
  TempDir lake, a, b;
  lake::LocalStore store(lake.path());
  ingest::SynthOptions so;
  so.datasets = 400;
  so.seed = 9;
  so.with_bad_files = true;
  ASSERT_TRUE(ingest::SynthesizeLake(store, so).ok());

  auto run = [&](const std::string& index, const std::string& extra) {
    std::string cmd = std::string(bin) + " index build -q --lake " + lake.path() + " --index " + index + " " +
                      extra + " >/dev/null 2>&1";
    return std::system(cmd.c_str());
  };
  int rc = run(a.path(), "--debug-kill-after-batches 2");
  ASSERT_TRUE(WIFSIGNALED(rc) || (WIFEXITED(rc) && WEXITSTATUS(rc) == 137)) << rc;  // died mid-build
  {
    auto partial = Catalog::Open(a.path() + "/catalog.sqlite");
    ASSERT_TRUE(partial.ok());
    EXPECT_EQ((*partial)->GetMeta("build_state").value_or(""), "profiling");
    auto st = (*partial)->Stats();
    EXPECT_GT(st->unprofiled, 0u);
  }
  ASSERT_EQ(run(a.path(), ""), 0);  // resume
  ASSERT_EQ(run(b.path(), ""), 0);  // uninterrupted
  auto ca = Catalog::Open(a.path() + "/catalog.sqlite");
  auto cb = Catalog::Open(b.path() + "/catalog.sqlite");
  auto da = DumpLines(**ca), db = DumpLines(**cb);
  EXPECT_GT(da.size(), 400u);
  EXPECT_EQ(da, db);
}

TEST(BuilderS3, FolderAndS3ServerGiveIdenticalCatalogs) {
  auto server = testing::S3TestServer::Start({"lake"});
  if (!server.ok()) GTEST_SKIP() << server.status().ToString();
  lake::S3Options so;
  so.endpoint = (*server)->endpoint();
  so.access_key = testing::S3TestServer::kAccessKey;
  so.secret_key = testing::S3TestServer::kSecretKey;
  lake::S3Store s3("lake", "mirror", so);
  TempDir folder, ia, ib;
  lake::LocalStore local(folder.path());
  ingest::SynthOptions syn;
  syn.datasets = 120;
  syn.seed = 3;
  syn.with_bad_files = true;
  ASSERT_TRUE(ingest::SynthesizeLake(local, syn).ok());
  ASSERT_TRUE(ingest::SynthesizeLake(s3, syn).ok());
  // An empty file in a data folder: a ranged GET of it is where S3 servers disagree (s3rver answered a
  // malformed 206 that became a per-file network error, so the catalogs differed at 10k datasets).
  for (lake::Store* st : std::initializer_list<lake::Store*>{&local, &s3})
    ASSERT_TRUE(st->Write("datagov/aaa-empty/files/empty.txt", "").ok());
  uint64_t empty_files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(folder.path()))
    if (e.is_regular_file() && e.file_size() == 0) ++empty_files;
  ASSERT_GE(empty_files, 1u);
  auto ra = BuildCatalog(local, ia.path(), Quiet());
  auto rb = BuildCatalog(s3, ib.path(), Quiet());
  ASSERT_TRUE(ra.ok()) << ra.status().ToString();
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ(ra->listed, rb->listed);
  EXPECT_EQ(ra->errors, rb->errors);
  // List pages plus one ranged GET per non-empty file (empty ones need no request).
  EXPECT_GT(rb->requests, rb->listed - empty_files);
  auto ca = Catalog::Open(ia.path() + "/catalog.sqlite");
  auto cb = Catalog::Open(ib.path() + "/catalog.sqlite");
  // ETags and mtimes are the store's own (inode-based locally, MD5 on S3); everything else must match.
  EXPECT_EQ(DumpLines(**ca, true), DumpLines(**cb, true));
}

TEST(Catalog, SchemaVersionAndCorruptFiles) {
  TempDir dir;
  std::string path = dir.path() + "/catalog.sqlite";
  ASSERT_TRUE(WriteFileAtomic(path, "this is not a sqlite database, just text that is long enough").ok());
  auto bad = Catalog::Open(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kCorrupt) << bad.status().ToString();
  EXPECT_EQ(Catalog::Open(dir.path() + "/missing.sqlite", true).status().code(), ErrorCode::kNotFound);
  std::string p2 = dir.path() + "/c2.sqlite";
  {
    auto c = Catalog::Open(p2);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE((*c)->SetMeta("schema_version", "999").ok());
  }
  EXPECT_EQ(Catalog::Open(p2).status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ((*Catalog::Open(dir.path() + "/c3.sqlite"))->GetDataset("nonsense").status().code(),
            ErrorCode::kInvalidArgument);
}

TEST(CatalogCli, JsonOutputsParse) {
  const char* bin = std::getenv("LAKEQA_BIN");
  if (!bin || !PathExists(bin)) GTEST_SKIP() << "LAKEQA_BIN (the lakeqa binary) is not set";
  TempDir lake, index, out;
  std::string b(bin);
  ASSERT_EQ(std::system(
                (b + " lake synth -q --out " + lake.path() + " --datasets 30 --seed 5 > /dev/null").c_str()),
            0);
  ASSERT_EQ(std::system((b + " index build -q --json --lake " + lake.path() + " --index " + index.path() +
                         " > " + out.path() + "/build.json 2>/dev/null")
                            .c_str()),
            0);
  auto build = ParseJson(*ReadFile(out.path() + "/build.json"), "build.json");
  ASSERT_TRUE(build.ok());
  EXPECT_EQ((*build)["datasets"], 30);
  ASSERT_EQ(
      std::system(
          (b + " catalog stats --json --index " + index.path() + " > " + out.path() + "/stats.json").c_str()),
      0);
  auto stats = ParseJson(*ReadFile(out.path() + "/stats.json"), "stats.json");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ((*stats)["datasets"], 30);
  ASSERT_EQ(std::system((b + " catalog ls --json --index " + index.path() + " --prefix datagov/ > " +
                         out.path() + "/ls.json")
                            .c_str()),
            0);
  auto ls = ParseJson(*ReadFile(out.path() + "/ls.json"), "ls.json");
  ASSERT_TRUE(ls.ok());
  ASSERT_FALSE((*ls)["datasets"].empty());
  std::string first = (*ls)["datasets"][0]["id"];
  ASSERT_EQ(std::system((b + " catalog show --json --index " + index.path() + " '" + first + "' > " +
                         out.path() + "/show.json")
                            .c_str()),
            0);
  auto show = ParseJson(*ReadFile(out.path() + "/show.json"), "show.json");
  ASSERT_TRUE(show.ok());
  EXPECT_FALSE((*show)["files"].empty());
  // A missing dataset exits with the not_found code and a JSON error.
  int rc =
      std::system((b + " catalog show --json --index " + index.path() + " datagov/nope > /dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 3);
}

}  // namespace
}  // namespace lakeqa::catalog
