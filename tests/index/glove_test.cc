#include <cmath>
#include <cstring>
#include <fstream>

#include <gtest/gtest.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/embedder.h"

namespace lakeqa::index {
namespace {

struct TempDir {
  std::string path;
  TempDir() { path = MakeTempDir("glove_test").value(); }
  ~TempDir() { (void)RemoveAll(path); }
};

template <typename T>
void Put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

uint32_t Fnv(const std::string& s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<uint8_t>(s[i])) * 16777619u;
  return h;
}

// Built byte by byte from the layout in docs/vectors.md, independently of the converter.
// Words (rows in this order): "cat" rank 5, "dog" rank 0, "the" rank 1; dim 2.
std::string HandMadeBinary() {
  std::string s;
  s.append("LQXGLV01", 8);
  Put<uint32_t>(s, 2);  // dim
  Put<uint32_t>(s, 3);  // count
  Put<uint32_t>(s, 0);  // float32
  Put<uint32_t>(s, 0);
  uint64_t vo = 64, eo = vo + 3 * 2 * 4, so = eo + 3 * 16;
  Put<uint64_t>(s, vo);
  Put<uint64_t>(s, eo);
  Put<uint64_t>(s, so);
  Put<uint64_t>(s, 9);  // "catdogthe"
  Put<uint32_t>(s, Fnv(s, 56));
  Put<uint32_t>(s, 0);
  for (float f : {1.0f, 0.0f, 0.0f, 2.0f, 3.0f, 4.0f}) Put(s, f);
  // sorted: cat, dog, the
  for (uint32_t e : {0u, 3u, 0u, 5u, 3u, 3u, 1u, 0u, 6u, 3u, 2u, 1u}) Put(s, e);
  s += "catdogthe";
  return s;
}

TEST(GloveTest, HandMadeBinaryFormat) {
  TempDir tmp;
  std::string path = tmp.path + "/g.bin";
  ASSERT_TRUE(WriteFileAtomic(path, HandMadeBinary()).ok());
  auto g = GloveEmbedder::Open(path);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ((*g)->dim(), 2u);
  EXPECT_EQ((*g)->vocab_size(), 3u);
  uint32_t rank = 99;
  const float* v = (*g)->Lookup("dog", &rank);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(rank, 0u);
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_EQ(v[1], 2.0f);
  EXPECT_EQ((*g)->Lookup("cow"), nullptr);

  // "The CAT, the dog!" -> the(1), cat(5), the(1), dog(0); unknown "zebra" ignored.
  auto e = (*g)->Embed({"The CAT, the dog! zebra", "", "zebra"});
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->size(), 3u);
  double h = 1 + 0.5 + 1.0 / 3;
  auto w = [&](double r) { return 1e-3 / (1e-3 + 1.0 / ((r + 1) * h)); };
  double x = 2 * w(1) * 3 + w(5) * 1 + w(0) * 0, y = 2 * w(1) * 4 + w(5) * 0 + w(0) * 2;
  double n = std::hypot(x, y);
  EXPECT_NEAR((*e)[0][0], x / n, 1e-6);
  EXPECT_NEAR((*e)[0][1], y / n, 1e-6);
  EXPECT_EQ((*e)[1], (std::vector<float>{0, 0}));  // nothing known: the zero vector
  EXPECT_EQ((*e)[2], (std::vector<float>{0, 0}));
  EXPECT_NEAR((*g)->SifWeight(0), w(0), 1e-12);
}

TEST(GloveTest, CorruptBinariesAreRejected) {
  TempDir tmp;
  std::string good = HandMadeBinary();
  auto check = [&](std::string bytes, const char* what) {
    std::string path = tmp.path + "/bad.bin";
    ASSERT_TRUE(WriteFileAtomic(path, bytes).ok());
    auto g = GloveEmbedder::Open(path);
    EXPECT_FALSE(g.ok()) << what;
    if (!g.ok()) {
      EXPECT_NE(g.status().message().find("bad.bin"), std::string::npos) << g.status().message();
    }
  };
  check(good.substr(0, good.size() - 1), "truncated");
  check(good.substr(0, 10), "shorter than header");
  std::string m = good;
  m[0] = 'X';
  check(m, "magic");
  m = good;
  m[8] = 3;  // dim changed: header checksum fails
  check(m, "checksum");
  m = good;
  std::swap(m[136], m[138]);  // "tacdogthe": unsorted vocabulary
  check(m, "unsorted");
  EXPECT_EQ(GloveEmbedder::Open(tmp.path + "/none.bin").status().code(), ErrorCode::kNotFound);
}

TEST(GloveTest, ConvertJsonThenEmbed) {
  TempDir tmp;
  // The package's shape: metadata, the rank-ordered word list, vectors with norm and rank appended.
  std::string json = R"({"precision":8,"l2NormIndex":2,"wordIndex":3,"size":4,"dimensions":2,
    "words":["the","\"","caf\u00e9","rain"],
    "vectors":{"the":[1,0,1,0],"\"":[0.5,0.5,0.7,1],"caf\u00e9":[0,1,1,2],"rain":[-1,0.25,1.03,3]},
    "unkVector":[0,0,0,-1]})";
  ASSERT_TRUE(WriteFileAtomic(tmp.path + "/in.json", json).ok());
  auto r = ConvertGloveJson(tmp.path + "/in.json", tmp.path + "/out.bin");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->words, 4u);
  EXPECT_EQ(r->dim, 2u);
  EXPECT_EQ(r->out_bytes, 64u + 4 * 2 * 4 + 4 * 16 + 3 + 1 + 5 + 4);
  auto g = GloveEmbedder::Open(tmp.path + "/out.bin");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  uint32_t rank = 0;
  const float* v = (*g)->Lookup("café", &rank);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(rank, 2u);
  EXPECT_EQ(v[1], 1.0f);
  ASSERT_NE((*g)->Lookup("\""), nullptr);
  v = (*g)->Lookup("rain", &rank);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(rank, 3u);
  EXPECT_EQ(v[1], 0.25f);
  // Accents are stripped by the analyzer: "Café" folds to "cafe", which this vocabulary lacks.
  auto e = (*g)->Embed({"RAIN", "Café"});
  ASSERT_TRUE(e.ok());
  EXPECT_NEAR((*e)[0][0], -1 / std::hypot(1.0, 0.25), 1e-6);
  EXPECT_EQ((*e)[1], (std::vector<float>{0, 0}));
}

TEST(GloveTest, ConvertRejectsBadJson) {
  TempDir tmp;
  auto convert = [&](const std::string& json) {
    EXPECT_TRUE(WriteFileAtomic(tmp.path + "/in.json", json).ok());
    auto r = ConvertGloveJson(tmp.path + "/in.json", tmp.path + "/out.bin");
    EXPECT_FALSE(PathExists(tmp.path + "/out.bin"));
    return r.status();
  };
  Status s = convert(R"({"dimensions":2,"vectors":{"a":[1,2,0,0],"b":[1]}})");
  EXPECT_EQ(s.code(), ErrorCode::kParseError);
  EXPECT_NE(s.message().find("'b'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("in.json: byte"), std::string::npos) << s.message();
  EXPECT_EQ(convert(R"({"dimensions":2,"vectors":{"a":[1,2,0,0],"a":[1,2,0,1]}})").code(),
            ErrorCode::kParseError);
  EXPECT_EQ(convert(R"({"dimensions":2,"vectors":{"a":[1,2,0,0])").code(),
            ErrorCode::kParseError);  // truncated
  EXPECT_EQ(convert(R"({"vectors":{"a":[1,2]},"dimensions":2})").code(), ErrorCode::kParseError);
  EXPECT_EQ(convert(R"({"dimensions":2,"size":3,"vectors":{"a":[1,2,0,0]}})").code(), ErrorCode::kParseError);
  EXPECT_EQ(convert(R"({"dimensions":2,"vectors":{"a":[1,"x",0,0]}})").code(), ErrorCode::kParseError);
  EXPECT_EQ(convert(R"({"dimensions":2})").code(), ErrorCode::kParseError);
  EXPECT_EQ(convert("").code(), ErrorCode::kParseError);
  EXPECT_EQ(convert(R"({"dimensions":2,"vectors":{"a":[1,2,0,0]}} x)").code(), ErrorCode::kParseError);
  EXPECT_EQ(ConvertGloveJson(tmp.path + "/missing.json", tmp.path + "/o.bin").status().code(),
            ErrorCode::kNotFound);
}

// The real vectors, when scripts/setup has made them.
TEST(GloveTest, RealVectors) {
  std::string path = DefaultGlovePath(lakeqa::build_paths::SourceDir());
  if (!PathExists(path)) GTEST_SKIP() << path << " is missing: run scripts/setup to fetch and convert GloVe";
  auto g = GloveEmbedder::Open(path);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ((*g)->dim(), 100u);
  EXPECT_GT((*g)->vocab_size(), 300000u);
  uint32_t rank = 0;
  ASSERT_NE((*g)->Lookup("the", &rank), nullptr);
  EXPECT_EQ(rank, 0u);
  auto e = (*g)->Embed({"crime incidents reported by police", "police arrests and offenses",
                        "school enrollment by grade", "public school students"});
  ASSERT_TRUE(e.ok());
  auto cos = [&](size_t a, size_t b) {
    double d = 0;
    for (size_t j = 0; j < 100; ++j) d += (*e)[a][j] * (*e)[b][j];
    return d;
  };
  EXPECT_NEAR(cos(0, 0), 1.0, 1e-5);
  EXPECT_GT(cos(0, 1), cos(0, 2));
  EXPECT_GT(cos(2, 3), cos(1, 3));
}

}  // namespace
}  // namespace lakeqa::index
