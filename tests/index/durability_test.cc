// Crashes and damage: a crashed writer never makes the last commit unreadable, and a damaged file is
// reported as kCorrupt naming it, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "index/test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

SearchOptions K(size_t k) {
  SearchOptions o;
  o.k = k;
  return o;
}
SearchOptions Facet(const std::string& f) {
  SearchOptions o;
  o.facet_fields = {f};
  return o;
}

Document Doc(int i) {
  Document d;
  d.id = "d" + std::to_string(i);
  d.Add("title", "crime report " + std::to_string(i))
      .Add("description", "austin police incidents by district");
  d.Add("format", i % 2 ? "csv" : "json").Add("columns", "incident_id");
  return d;
}

void BuildCommitted(const std::string& dir, int n) {
  auto w = IndexWriter::Open(dir, Schema::Datasets());
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (int i = 0; i < n; ++i) ASSERT_TRUE((*w)->Add(Doc(i)).ok());
  ASSERT_TRUE((*w)->Commit().ok());
}

std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(DurabilityTest, CrashedWriterLeavesPreviousCommit) {
  TempDir dir;
  BuildCommitted(dir.path, 50);
  auto before = Files(dir.path);
  {
    WriterOptions wo;
    wo.max_buffered_docs = 10;  // flushes segments that are never committed
    auto w = IndexWriter::Open(dir.path, Schema::Datasets(), wo);
    ASSERT_TRUE(w.ok());
    for (int i = 50; i < 95; ++i) ASSERT_TRUE((*w)->Add(Doc(i)).ok());
    ASSERT_TRUE((*w)->Delete("d1").ok());
    // "Crash": the writer goes away without Commit. Add a half-written file and a manifest temp file too.
  }
  {
    std::ofstream(dir.path + "/seg_000777.pst") << "LQXPST01 half written";
    std::ofstream(dir.path + "/index.json.tmp.123.456") << "{\"format\": \"lakeqa-text";
  }
  EXPECT_GT(Files(dir.path).size(), before.size());
  auto r = IndexReader::Open(dir.path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->num_docs(), 50u);
  Searcher s(*r);
  auto res = s.Search("crime", K(100));
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->hits.size(), 50u);
  // The next writer removes the debris and carries on from the last commit.
  {
    auto w = IndexWriter::Open(dir.path, Schema::Datasets());
    ASSERT_TRUE(w.ok());
    auto files = Files(dir.path);
    files.erase(std::remove(files.begin(), files.end(), "write.lock"), files.end());
    before.erase(std::remove(before.begin(), before.end(), "write.lock"), before.end());
    EXPECT_EQ(files, before);
    ASSERT_TRUE((*w)->Add(Doc(1000)).ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  r = IndexReader::Open(dir.path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->num_docs(), 51u);
}

TEST(DurabilityTest, OneWriterAtATimeAndSchemaMustMatch) {
  TempDir dir;
  auto w = IndexWriter::Open(dir.path, Schema::Datasets());
  ASSERT_TRUE(w.ok());
  auto w2 = IndexWriter::Open(dir.path, Schema::Datasets());
  EXPECT_EQ(w2.status().code(), ErrorCode::kUnavailable);
  w->reset();
  Schema other({{"title", true, false, 1.0, true}});
  EXPECT_EQ(IndexWriter::Open(dir.path, other).status().code(), ErrorCode::kInvalidArgument);
  // An index that was created but never given documents is valid and empty.
  auto r = IndexReader::Open(dir.path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->num_docs(), 0u);
  Searcher s(*r);
  auto res = s.Search("anything", Facet("format"));
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res->hits.empty());
  EXPECT_EQ(res->total, 0);
}

TEST(DurabilityTest, BadDocumentsAreRejected) {
  TempDir dir;
  auto w = IndexWriter::Open(dir.path, Schema::Datasets());
  ASSERT_TRUE(w.ok());
  Document d;
  EXPECT_EQ((*w)->Add(d).code(), ErrorCode::kInvalidArgument);
  d.id = "x";
  d.Add("colour", "red");
  Status st = (*w)->Add(d);
  EXPECT_EQ(st.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(st.message().find("colour"), std::string::npos);
  EXPECT_FALSE(Schema({{"id", true, false, 1.0, true}}).Validate().ok());
  EXPECT_FALSE(Schema({{"a", false, false, 1.0, false}}).Validate().ok());
  EXPECT_FALSE(Schema({{"a", true, false, 1.0, true}, {"a", true, false, 1.0, true}}).Validate().ok());
  EXPECT_EQ(IndexReader::Open(dir.path + "/nope").status().code(), ErrorCode::kNotFound);
}

class CorruptTest : public ::testing::TestWithParam<std::string> {};

// Each damage: file extension, what to do with it.
void Damage(const std::string& path, const std::string& how) {
  std::string data = *ReadFile(path);
  if (how == "truncate") data.resize(data.size() / 2);
  if (how == "empty") data.clear();
  if (how == "magic") data[0] ^= 0x20;
  if (how == "flip") data[data.size() / 2] ^= 0x01;
  if (how == "tail") data.resize(data.size() - 3);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

TEST_P(CorruptTest, ReportsCorruptNamingTheFile) {
  TempDir dir;
  BuildCommitted(dir.path, 300);
  {  // a deletes file to damage too
    auto w = IndexWriter::Open(dir.path, Schema::Datasets());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Delete("d3").ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  std::string param = GetParam();
  std::string ext = param.substr(0, param.find('/')), how = param.substr(param.find('/') + 1);
  std::string victim;
  for (const std::string& f : Files(dir.path)) {
    if (f.size() >= ext.size() && f.compare(f.size() - ext.size(), ext.size(), ext) == 0) victim = f;
  }
  ASSERT_FALSE(victim.empty()) << ext;
  Damage(dir.path + "/" + victim, how);
  auto r = IndexReader::Open(dir.path);
  ASSERT_FALSE(r.ok()) << victim << " " << how;
  EXPECT_EQ(r.status().code(), ErrorCode::kCorrupt) << r.status().ToString();
  EXPECT_NE(r.status().message().find(victim), std::string::npos) << r.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(Files, CorruptTest,
                         ::testing::Values("tdi/truncate", "pst/truncate", "nrm/truncate", "sto/truncate",
                                           "del/truncate", "tdi/magic", "pst/magic", "sto/empty", "tdi/flip",
                                           "pst/flip", "nrm/flip", "sto/flip", "del/flip", "pst/tail",
                                           "index.json/truncate", "index.json/empty"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '/' || c == '.') c = '_';
                           return s;
                         });

// Without checksum verification, damaged postings must still never crash a search.
TEST(DurabilityTest, UncheckedDamageNeverCrashes) {
  for (int seed = 0; seed < 12; ++seed) {
    TempDir dir;
    BuildCommitted(dir.path, 400);
    std::string pst;
    for (const std::string& f : Files(dir.path)) {
      if (f.size() > 4 && f.compare(f.size() - 4, 4, ".pst") == 0) pst = dir.path + "/" + f;
    }
    std::string data = *ReadFile(pst);
    std::mt19937 rng(seed);
    for (int i = 0; i < 20; ++i) data[8 + rng() % (data.size() - 24)] = static_cast<char>(rng());
    std::ofstream(pst, std::ios::binary | std::ios::trunc) << data;
    ReaderOptions ro;
    ro.verify_checksums = false;
    auto r = IndexReader::Open(dir.path, ro);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), ErrorCode::kCorrupt);
      continue;
    }
    Searcher s(*r);
    for (const char* q : {"crime report", "austin police", "\"police incidents\"", "rep*", "format:csv 7"}) {
      auto res = s.Search(q, Facet("format"));
      if (!res.ok()) {
        EXPECT_EQ(res.status().code(), ErrorCode::kCorrupt) << res.status().ToString();
      }
    }
  }
}

}  // namespace
}  // namespace lakeqa::index
