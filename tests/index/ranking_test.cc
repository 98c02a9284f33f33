// Ranking parameters: JSON round trip, bad input named precisely, the manifest records them and readers
// use them, and a weight change neither needs nor triggers re-indexing.
#include "lakeqa/index/ranking.h"
#include "lakeqa/common/json.h"

#include <gtest/gtest.h>

#include "index/test_util.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {
namespace {

using testing::TempDir;

TEST(RankingParamsTest, DefaultsComeFromTheSchema) {
  Schema s = Schema::Datasets();
  RankingParams p = RankingParams::FromSchema(s);
  EXPECT_EQ(p.k1, kDefaultK1);
  EXPECT_EQ(p.proximity, kDefaultProximity);
  size_t text = 0;
  for (const auto& f : s.fields()) {
    if (!f.text) {
      EXPECT_EQ(p.fields.count(f.name), 0u) << f.name;
      continue;
    }
    ++text;
    EXPECT_EQ(p.fields.at(f.name).weight, f.weight);
    EXPECT_EQ(p.fields.at(f.name).b, f.b);
  }
  EXPECT_EQ(p.fields.size(), text);
  EXPECT_TRUE(p.Validate(s).ok());
}

TEST(RankingParamsTest, JsonRoundTripAndPartialOverride) {
  Schema s = Schema::Datasets();
  RankingParams p = RankingParams::FromSchema(s);
  ASSERT_TRUE(p.Set("k1", 0.9).ok());
  ASSERT_TRUE(p.Set("title.weight", 5).ok());
  ASSERT_TRUE(p.Set("values.b", 0.25).ok());
  ASSERT_TRUE(p.Set("proximity", 0.4).ok());
  ASSERT_TRUE(p.Set("values.data", 1).ok());
  ASSERT_TRUE(p.Set("data_k1", 0.6).ok());
  ASSERT_TRUE(p.Set("fuzzy", 0.2).ok());
  ASSERT_TRUE(p.Set("correction", 0.7).ok());
  EXPECT_TRUE(p.fields.at("values").data);
  EXPECT_FALSE(p.Set("values.data", 0.5).ok());  // a switch: 0 or 1
  auto back = RankingParams::FromJson(p.ToJson(), s, RankingParams::FromSchema(s));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == p);
  // Fields left out keep the base's values.
  auto partial = RankingParams::FromJson(Json{{"fields", {{"columns", {{"weight", 7}}}}}}, s, p);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->fields.at("columns").weight, 7);
  EXPECT_EQ(partial->fields.at("title").weight, 5);
  EXPECT_EQ(partial->k1, 0.9);
  EXPECT_EQ(*p.Get("values.b"), 0.25);
  EXPECT_EQ(p.Names().size(), 5 + 3 * p.fields.size());
  EXPECT_EQ(*p.Get("values.data"), 1.0);
  EXPECT_EQ(*p.Get("fuzzy"), 0.2);
  EXPECT_TRUE(back->fields.at("values").data);
  EXPECT_FALSE(back->fields.at("title").data);
}

TEST(RankingParamsTest, BadInputIsNamed) {
  Schema s = Schema::Datasets();
  RankingParams base = RankingParams::FromSchema(s);
  struct Case {
    Json j;
    const char* says;
  };
  const Case cases[] = {
      {Json::array(), "JSON object"},
      {Json{{"k1", "high"}}, "k1 must be a number"},
      {Json{{"k1", -1}}, "k1 must be a finite number >= 0"},
      {Json{{"proximity", -0.5}}, "proximity"},
      {Json{{"fields", {{"namespace", {{"weight", 2}}}}}}, "'namespace' is not a text field"},
      {Json{{"fields", {{"nosuch", {{"weight", 2}}}}}}, "'nosuch' is not a text field"},
      {Json{{"fields", {{"title", {{"weight", 0}}}}}}, "title.weight"},
      {Json{{"fields", {{"title", {{"b", 1.5}}}}}}, "title.b"},
      {Json{{"fields", {{"title", {{"boost", 2}}}}}}, "unknown key 'boost'"},
      {Json{{"kone", 1}}, "unknown key 'kone'"},
      {Json{{"data_k1", 0}}, "data_k1 must be a finite number > 0"},
      {Json{{"fuzzy", 1.5}}, "fuzzy must be in [0, 1]"},
      {Json{{"correction", -1}}, "correction must be in [0, 1]"},
      {Json{{"fields", {{"values", {{"data", 1}}}}}}, "values.data must be true or false"},
  };
  for (const Case& c : cases) {
    auto r = RankingParams::FromJson(c.j, s, base);
    ASSERT_FALSE(r.ok()) << c.j.dump();
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(c.says), std::string::npos) << r.status().message();
  }
  RankingParams p = base;
  Status st = p.Set("title.boost", 1);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("title.weight"), std::string::npos) << st.message();  // lists the names
}

TEST(RankingParamsTest, ManifestRecordsThemAndReadersUseThem) {
  TempDir dir;
  Schema s = Schema::Datasets();
  std::vector<Document> docs(2);
  docs[0].id = "a";
  docs[0].Add("title", "river levels").Add("values", "flood flood");
  docs[1].id = "b";
  docs[1].Add("title", "flood warnings");
  {
    auto w = IndexWriter::Open(dir.path, s);
    ASSERT_TRUE(w.ok());
    for (const auto& d : docs) ASSERT_TRUE((*w)->Add(d).ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  auto r = IndexReader::Open(dir.path);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE((*r)->ranking() == RankingParams::FromSchema(s));  // none recorded: the schema's
  Searcher s1(*r);
  auto hits = s1.Search("flood");
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->hits.size(), 2u);
  EXPECT_EQ(hits->hits[0].id, "b");  // the title outweighs cell values by default
  // Record values that favour cell values; no document is re-added.
  RankingParams values_first = RankingParams::FromSchema(s);
  values_first.fields["values"].weight = 20;
  {
    auto w = IndexWriter::Open(dir.path, s);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->SetRanking(values_first).ok());
    RankingParams bad = values_first;
    bad.k1 = -1;
    EXPECT_FALSE((*w)->SetRanking(bad).ok());
    ASSERT_TRUE((*w)->Commit().ok());
    EXPECT_EQ((*w)->segments().size(), 1u);
  }
  auto r2 = IndexReader::Open(dir.path);
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE((*r2)->ranking() == values_first);
  Searcher s2(*r2);
  hits = s2.Search("flood");
  ASSERT_TRUE(hits.ok());
  EXPECT_EQ(hits->hits[0].id, "a");
  // A per-search override wins over the manifest.
  RankingParams defaults = RankingParams::FromSchema(s);
  SearchOptions o;
  o.ranking = &defaults;
  hits = s2.Search("flood", o);
  ASSERT_TRUE(hits.ok());
  EXPECT_EQ(hits->hits[0].id, "b");
  // A damaged ranking in the manifest is named when the index is opened.
  auto text = ReadFile(dir.path + "/" + std::string(kManifestName));
  ASSERT_TRUE(text.ok());
  auto j = ParseJson(*text, "manifest");
  ASSERT_TRUE(j.ok());
  (*j)["ranking"]["k1"] = "x";
  ASSERT_TRUE(WriteFileAtomic(dir.path + "/" + std::string(kManifestName), j->dump()).ok());
  auto broken = IndexReader::Open(dir.path);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.status().message().find("k1"), std::string::npos) << broken.status().message();
}

TEST(RankingParamsTest, OlderAnalysisOrLayoutIsRefusedByTheWriter) {
  TempDir dir;
  Schema s = Schema::Datasets();
  {
    auto w = IndexWriter::Open(dir.path, s);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Commit().ok());
  }
  // Another layout: a field more.
  std::vector<FieldSpec> fields = s.fields();
  fields.push_back(FieldSpec{"extra", true, false, 1.0, true, 0.75});
  auto other = IndexWriter::Open(dir.path, Schema(fields));
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("different schema"), std::string::npos);
  // Same layout, other weights: fine.
  fields.pop_back();
  fields[0].weight = 9;
  EXPECT_TRUE(IndexWriter::Open(dir.path, Schema(fields)).ok());
  // An index written by the analyzer of before year spans.
  auto text = ReadFile(dir.path + "/" + std::string(kManifestName));
  ASSERT_TRUE(text.ok());
  auto j = ParseJson(*text, "manifest");
  ASSERT_TRUE(j.ok());
  j->erase("analysis");
  ASSERT_TRUE(WriteFileAtomic(dir.path + "/" + std::string(kManifestName), j->dump()).ok());
  auto old = IndexWriter::Open(dir.path, s);
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.status().message().find("analysis version 1"), std::string::npos) << old.status().message();
}

}  // namespace
}  // namespace lakeqa::index
