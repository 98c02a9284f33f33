// The paragraph units of prose pages and <index>/paragraphs/ over a small real lake (local folder, SQLite
// catalog, on-disk index): ids and numbering as KILT's, the caps counted, a page that cannot be read a
// per-file error, and a lake without pages leaving no stale paragraph index.
#include "lakeqa/index/paragraphs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "index/test_util.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::index {
namespace {

using testing::TempDir;

TEST(PageParagraphsTest, KiltNumberingSkipsTheTitleEmptyLinesAndMarkersButCountsThem) {
  ParagraphCuts cuts;
  auto p = PageParagraphs(
      "Alpha Centauri\n\nFirst paragraph.\nSection::::History.\n  Second one.  \nBULLET::::- item\n",
      "Alpha Centauri", {}, &cuts);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].id, 2);
  EXPECT_EQ(p[0].text, "First paragraph.");
  EXPECT_EQ(p[1].id, 4);
  EXPECT_EQ(p[1].text, "Second one.");
  EXPECT_EQ(cuts.paragraphs, 0u);
  EXPECT_EQ(cuts.bytes, 0u);
  // enwiki's content.txt starts with the text, not the title: its line 0 is a paragraph; so is a later line
  // that happens to equal the title.
  auto e = PageParagraphs("Body first.\n\nAlpha\n", "Alpha");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].id, 0);
  EXPECT_EQ(e[1].id, 2);
}

TEST(PageParagraphsTest, CapsCutAndCount) {
  ParagraphOptions o;
  o.max_paragraphs_per_page = 2;
  o.max_paragraph_bytes = 5;
  ParagraphCuts cuts;
  auto p = PageParagraphs("T\nabcdefgh\nxy\nthird\nfourth\n", "T", o, &cuts);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].text, "abcde");
  EXPECT_EQ(p[1].text, "xy");
  EXPECT_EQ(cuts.paragraphs, 2u);  // third, fourth
  EXPECT_EQ(cuts.bytes, 1u);
}

class ParagraphIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = std::make_unique<lake::LocalStore>(lake_.path);
    Put("wikipedia/Alpha/content.txt",
        "Alpha\n\nAlpha is a star in the southern sky.\nSection::::Name.\n"
        "The name comes from Greek letters.\n");
    Put("wikipedia/Beta/content.txt", std::string("Beta\n\nBeta has a NUL\0 byte.\n", 28));
    Put("wikipedia/Gamma/content.txt", "Gamma\n\nGamma rays are radiation.\n");
    Put("datagov/parks/files/rows.csv", "Park Name,Facility\nZilker,Pool\n");
  }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(store_->Write(key, data).ok()) << key;
  }
  std::unique_ptr<catalog::Catalog> Catalog() {
    catalog::BuildOptions bo;
    bo.progress = false;
    bo.jobs = 1;
    auto r = catalog::BuildCatalog(*store_, index_.path, bo);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    auto cat = catalog::Catalog::Open(index_.path + "/catalog.sqlite");
    EXPECT_TRUE(cat.ok()) << cat.status().ToString();
    return std::move(*cat);
  }
  TempDir lake_, index_;
  std::unique_ptr<lake::LocalStore> store_;
};

TEST_F(ParagraphIndexTest, OneDocumentPerParagraphAndUnreadablePagesAreFileErrors) {
  auto cat = Catalog();
  // Gone after cataloguing: the read fails, as for an object deleted between crawl and build.
  std::filesystem::remove(lake_.path + "/wikipedia/Gamma/content.txt");
  auto r = BuildParagraphIndex(*cat, *store_, index_.path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->written);
  EXPECT_EQ(r->pages, 1u);
  EXPECT_EQ(r->paragraphs, 2u);
  ASSERT_EQ(r->errors.size(), 2u);
  std::map<std::string, std::string> errors;
  for (const auto& e : r->errors) errors[e.file] = e.message;
  EXPECT_NE(errors["wikipedia/Beta/content.txt"].find("NUL byte at offset 20"), std::string::npos)
      << errors["wikipedia/Beta/content.txt"];
  EXPECT_TRUE(errors.count("wikipedia/Gamma/content.txt"));
  Json j = r->ToJson();
  EXPECT_EQ(j["pages"], 1);
  EXPECT_EQ(j["paragraphs"], 2);
  EXPECT_EQ(j["errors"], 2);

  auto reader = IndexReader::Open(index_.path + "/paragraphs");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::map<std::string, std::map<std::string, std::string>> docs;
  ASSERT_TRUE(ForEachStoredDocument(**reader, [&](const Hit& h) {
                for (const auto& [f, v] : h.fields) docs[h.id][f] = v;
                return Status::Ok();
              }).ok());
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs["wikipedia/Alpha#2"]["text"], "Alpha is a star in the southern sky.");
  EXPECT_EQ(docs["wikipedia/Alpha#2"]["title"], "Alpha");
  EXPECT_EQ(docs["wikipedia/Alpha#2"]["page"], "wikipedia/Alpha");
  EXPECT_EQ(docs["wikipedia/Alpha#4"]["paragraph"], "4");
  Searcher s(*reader);
  auto hits = s.Search("greek letters");
  ASSERT_TRUE(hits.ok());
  ASSERT_FALSE(hits->hits.empty());
  EXPECT_EQ(hits->hits[0].id, "wikipedia/Alpha#4");
  auto by_page = s.Search("alpha");  // the page title is a field: every paragraph of the page matches
  ASSERT_TRUE(by_page.ok());
  EXPECT_EQ(by_page->hits.size(), 2u);
}

TEST_F(ParagraphIndexTest, ALakeWithoutPagesWritesNoneAndRemovesAStaleOne) {
  {
    auto cat = Catalog();
    auto r = BuildParagraphIndex(*cat, *store_, index_.path);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->pages, 2u);  // Beta is not text
    ASSERT_TRUE(PathExists(index_.path + "/paragraphs/index.json"));
  }
  for (const char* p : {"Alpha", "Beta", "Gamma"})
    std::filesystem::remove_all(lake_.path + "/wikipedia/" + p);
  auto cat = Catalog();
  auto r = BuildParagraphIndex(*cat, *store_, index_.path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->written);
  EXPECT_EQ(r->pages, 0u);
  EXPECT_FALSE(PathExists(index_.path + "/paragraphs"));
}

TEST_F(ParagraphIndexTest, KeptWhenNoPageChangedAndRebuiltWhenOneDid) {
  for (const char* p : {"Beta", "Gamma"}) std::filesystem::remove_all(lake_.path + "/wikipedia/" + p);
  {
    auto cat = Catalog();
    auto first = BuildParagraphIndex(*cat, *store_, index_.path);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    EXPECT_TRUE(first->rebuilt);
    auto again = BuildParagraphIndex(*cat, *store_, index_.path);
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    EXPECT_FALSE(again->rebuilt);
    EXPECT_TRUE(again->written);
    EXPECT_EQ(again->pages, 1u);
    EXPECT_EQ(again->paragraphs, 2u);
  }
  Put("wikipedia/Alpha/content.txt", "Alpha\n\nAlpha is a star.\n\nIt is bright.\n\nIt is far away.\n");
  auto cat = Catalog();
  auto r = BuildParagraphIndex(*cat, *store_, index_.path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->rebuilt);
  EXPECT_EQ(r->paragraphs, 3u);
  auto reader = IndexReader::Open(index_.path + "/paragraphs");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_docs(), 3u);
}

}  // namespace
}  // namespace lakeqa::index
