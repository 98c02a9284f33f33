#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/index/embedder.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/vector_index.h"

namespace lakeqa::index {
namespace {

std::vector<float> RandomUnit(std::mt19937& rng, size_t dim) {
  std::normal_distribution<float> g;
  std::vector<float> v(dim);
  for (float& x : v) x = g(rng);
  L2Normalize(v);
  return v;
}

struct TempDir {
  std::string path;
  TempDir() { path = MakeTempDir("vector_test").value(); }
  ~TempDir() { (void)RemoveAll(path); }
};

std::unique_ptr<VectorIndex> RandomIndex(size_t n, size_t dim, uint32_t seed) {
  VectorIndexOptions o;
  o.dim = dim;
  o.ef_construction = 100;  // the -O0 debug build inserts slowly; recall is still checked below
  o.embedder = "random";
  auto ix = VectorIndex::Create(o);
  EXPECT_TRUE(ix.ok());
  std::mt19937 rng(seed);
  for (size_t i = 0; i < n; ++i)
    EXPECT_TRUE((*ix)->Add("doc" + std::to_string(i), RandomUnit(rng, dim)).ok());
  return std::move(*ix);
}

TEST(VectorIndexTest, ExactSearchMatchesBruteForceDotProducts) {
  auto ix = RandomIndex(300, 16, 1);
  std::mt19937 rng(99);
  auto q = RandomUnit(rng, 16);
  auto hits = ix->SearchExact(q, 5);
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->size(), 5u);
  // Independent reference: double-precision dot products over a re-generated copy of the data.
  std::mt19937 regen(1);
  std::vector<std::pair<double, std::string>> all;
  for (int i = 0; i < 300; ++i) {
    auto v = RandomUnit(regen, 16);
    double d = 0;
    for (size_t j = 0; j < 16; ++j) d += static_cast<double>(v[j]) * q[j];
    all.push_back({-d, "doc" + std::to_string(i)});
  }
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ((*hits)[i].id, all[i].second);
    EXPECT_NEAR((*hits)[i].score, -all[i].first, 1e-5);
  }
}

TEST(VectorIndexTest, HnswRecallAt10IsMeasuredAndHigh) {
  auto ix = RandomIndex(2000, 32, 2);
  std::mt19937 rng(3);
  std::vector<std::vector<float>> queries;
  for (int i = 0; i < 100; ++i) queries.push_back(RandomUnit(rng, 32));
  auto r = MeasureRecall(*ix, queries, 10);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->queries, 100u);
  EXPECT_EQ(r->k, 10u);
  std::printf(
      "HNSW recall@10 on 2000 random 32-d unit vectors, 100 queries, M=16 ef_construction=100 ef=%zu: %.4f\n",
      ix->options().ef_search, r->recall);
  RecordProperty("recall_at_10", std::to_string(r->recall));
  EXPECT_GE(r->recall, 0.9);
  EXPECT_LE(r->recall, 1.0);
  // A tiny beam must do worse than a large one: recall is measured, not assumed.
  ix->set_ef_search(1);
  auto low = MeasureRecall(*ix, queries, 10);
  ASSERT_TRUE(low.ok());
  ix->set_ef_search(400);
  auto high = MeasureRecall(*ix, queries, 10);
  ASSERT_TRUE(high.ok());
  EXPECT_LE(low->recall, high->recall);
  EXPECT_GE(high->recall, r->recall);
}

TEST(VectorIndexTest, SaveLoadRoundTripAndGenerations) {
  TempDir tmp;
  auto ix = RandomIndex(200, 8, 4);
  std::string dir = tmp.path + "/vectors";
  ASSERT_TRUE(ix->Save(dir).ok());
  ASSERT_TRUE(ix->Save(dir).ok());  // second generation replaces the first
  EXPECT_FALSE(PathExists(dir + "/hnsw-1.bin"));
  EXPECT_TRUE(PathExists(dir + "/hnsw-2.bin"));
  auto m = ParseJson(ReadFile(dir + "/manifest.json").value(), "manifest");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)["embedder"], "random");
  EXPECT_EQ((*m)["dim"], 8);
  EXPECT_EQ((*m)["count"], 200);
  EXPECT_EQ((*m)["M"], 16);

  auto back = VectorIndex::Load(dir);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->size(), 200u);
  EXPECT_EQ((*back)->options().embedder, "random");
  std::mt19937 rng(5);
  for (int i = 0; i < 10; ++i) {
    auto q = RandomUnit(rng, 8);
    auto a = ix->Search(q, 10), b = (*back)->Search(q, 10);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->size(), b->size());
    for (size_t j = 0; j < a->size(); ++j) EXPECT_EQ((*a)[j].id, (*b)[j].id);
  }
}

TEST(VectorIndexTest, CorruptFilesAreRejected) {
  TempDir tmp;
  auto ix = RandomIndex(50, 8, 6);
  std::string dir = tmp.path + "/v";
  ASSERT_TRUE(ix->Save(dir).ok());
  {
    std::fstream f(dir + "/hnsw-1.bin", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.put('\x7f');
  }
  auto bad = VectorIndex::Load(dir);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(bad.status().message().find("hnsw-1.bin"), std::string::npos) << bad.status().message();

  ASSERT_TRUE(WriteFileAtomic(dir + "/manifest.json", "{\"format\": 1, \"dim\": 8}").ok());
  EXPECT_EQ(VectorIndex::Load(dir).status().code(), ErrorCode::kCorrupt);
  ASSERT_TRUE(WriteFileAtomic(dir + "/manifest.json", "not json").ok());
  EXPECT_FALSE(VectorIndex::Load(dir).ok());
  EXPECT_EQ(VectorIndex::Load(tmp.path + "/missing").status().code(), ErrorCode::kNotFound);
}

TEST(VectorIndexTest, BadInput) {
  EXPECT_FALSE(VectorIndex::Create({}).ok());
  auto ix = RandomIndex(3, 4, 7);
  EXPECT_EQ(ix->Add("x", {1, 2}).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ix->Add("x", {1, 2, NAN, 0}).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ix->Add("doc1", {1, 0, 0, 0}).code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(ix->Add("a\nb", {1, 0, 0, 0}).code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(ix->Search({1, 0}, 3).ok());
  auto all = ix->Search({1, 0, 0, 0}, 100);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 3u);
}

// The whole path on real components: a text index written by IndexWriter, a GloVe binary converted from
// a small JSON, the vector index on disk, then a query.
TEST(VectorBuildTest, BuildsFromTextIndexStoredFields) {
  TempDir tmp;
  std::string json = R"({"dimensions":3,"size":6,"vectors":{
    "the":[0.1,0.1,0.1,0,0], "crime":[1,0,0,0,1], "police":[0.9,0.1,0,0,2],
    "school":[0,1,0,0,3], "students":[0,0.9,0.2,0,4], "weather":[0,0,1,0,5]}})";
  ASSERT_TRUE(WriteFileAtomic(tmp.path + "/g.json", json).ok());
  ASSERT_TRUE(ConvertGloveJson(tmp.path + "/g.json", tmp.path + "/g.bin").ok());
  auto glove = GloveEmbedder::Open(tmp.path + "/g.bin");
  ASSERT_TRUE(glove.ok());

  {
    auto w = IndexWriter::Open(tmp.path + "/text", Schema::Datasets());
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    Document a{"datagov/crime-2020", {}};
    a.Add("title", "Crime incidents").Add("columns", "police_district").Add("values", "school school school");
    Document b{"datagov/schools", {}};
    b.Add("title", "The school list").Add("description", "students");
    Document c{"datagov/old", {}};
    c.Add("title", "weather");
    Document d{"datagov/nothing", {}};
    d.Add("title", "zzz qqq");
    for (auto* doc : {&a, &b, &c, &d}) ASSERT_TRUE((*w)->Add(*doc).ok());
    ASSERT_TRUE((*w)->Commit().ok());
    ASSERT_TRUE((*w)->Delete("datagov/old").ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  auto report = BuildDatasetVectors(tmp.path, **glove, {.batch = 2, .M = 8, .ef_construction = 50});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->documents, 3u);
  EXPECT_EQ(report->empty, 1u);  // "zzz qqq" has no known word

  auto vix = VectorIndex::Load(tmp.path + "/vectors");
  ASSERT_TRUE(vix.ok()) << vix.status().ToString();
  EXPECT_EQ((*vix)->size(), 3u);
  EXPECT_EQ((*vix)->options().embedder, "glove-sg-100d-sif");
  EXPECT_TRUE((*vix)->CheckEmbedder(**glove).ok());
  auto other = HttpEmbedder::Create({});
  ASSERT_TRUE(other.ok());
  Status mismatch = (*vix)->CheckEmbedder(**other);
  EXPECT_EQ(mismatch.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(mismatch.message().find("glove-sg-100d-sif"), std::string::npos) << mismatch.message();
  auto q = (*glove)->Embed({"police"});
  ASSERT_TRUE(q.ok());
  auto hits = (*vix)->Search((*q)[0], 3);
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->size(), 3u);
  // "values" are not embedded: the crime dataset is about crime, not schools.
  EXPECT_EQ((*hits)[0].id, "datagov/crime-2020");
  EXPECT_EQ((*hits)[1].id, "datagov/schools");
  EXPECT_EQ((*hits)[2].id, "datagov/nothing");
  EXPECT_EQ((*hits)[2].score, 0.0f);

  EXPECT_EQ(BuildDatasetVectors(tmp.path + "/none", **glove).status().code(), ErrorCode::kNotFound);
}

TEST(VectorBuildTest, EmbeddingTextUsesDescriptiveFieldsInOrder) {
  std::string t =
      DatasetEmbeddingText({{"columns", "a_b"}, {"values", "v"}, {"title", "T"}, {"content", "c"}});
  EXPECT_EQ(t, "T\na_b");
}

}  // namespace
}  // namespace lakeqa::index
