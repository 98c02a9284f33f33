#include "lakeqa/ingest/synth.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "lakeqa/common/fs.h"
#include "lakeqa/ingest/metadata.h"
#include "lakeqa/ingest/profile.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::ingest {
namespace {

std::map<std::string, std::string> ReadTree(const std::string& root) {
  std::map<std::string, std::string> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out[e.path().string().substr(root.size())] = *ReadFile(e.path().string());
  }
  return out;
}

TEST(Synth, SameSeedSameBytesDifferentSeedDifferentLake) {
  std::string a = *MakeTempDir("lakeqa-syn-a-"), b = *MakeTempDir("lakeqa-syn-b-"), c = *MakeTempDir("lakeqa-syn-c-");
  lake::LocalStore sa(a), sb(b), sc(c);
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
  EXPECT_GT(ra->files, 1000u);
  EXPECT_GT(ra->bad_files, 0u);
  auto ta = ReadTree(a), tb = ReadTree(b), tc = ReadTree(c);
  EXPECT_EQ(ta.size(), ra->files);
  EXPECT_TRUE(ta == tb);
  EXPECT_FALSE(ta == tc);
  for (auto d : {a, b, c}) (void)RemoveAll(d);
}

TEST(Synth, DatasetsCarryParseableMetadataAndDeclaredColumns) {
  std::string dir = *MakeTempDir("lakeqa-syn-");
  lake::LocalStore store(dir);
  SynthOptions o;
  o.datasets = 200;
  o.seed = 1;
  ASSERT_TRUE(SynthesizeLake(store, o).ok());
  size_t checked = 0, wiki = 0;
  for (auto& e : std::filesystem::directory_iterator(dir + "/datagov")) {
    std::string id = e.path().filename().string();
    auto meta_text = ReadFile(e.path().string() + "/signed-metadata.txt");
    ASSERT_TRUE(meta_text.ok()) << id;
    auto meta = ParseMetadataFile("signed-metadata.txt", *meta_text);
    ASSERT_TRUE(meta.ok()) << id << ": " << meta.status().ToString();
    EXPECT_FALSE(meta->title.empty());
    EXPECT_FALSE(meta->publisher.empty());
    EXPECT_FALSE(CategorizeThemes(*meta).empty()) << meta->title;
    auto prof = ProfileObject(store, "datagov/" + id + "/files/rows.txt", ProfileOptions{});
    ASSERT_TRUE(prof.ok());
    EXPECT_EQ(prof->format, Format::kCsv);
    EXPECT_EQ(prof->columns.size(), 6u);
    EXPECT_TRUE(prof->warnings.empty()) << id;
    ++checked;
  }
  for (auto& e : std::filesystem::directory_iterator(dir + "/wikipedia")) {
    EXPECT_TRUE(std::filesystem::exists(e.path() / "content.txt"));
    ++wiki;
  }
  EXPECT_EQ(checked + wiki, 200u);
  EXPECT_GT(wiki, 20u);
  (void)RemoveAll(dir);
}

TEST(Synth, RejectsBadOptions) {
  std::string dir = *MakeTempDir("lakeqa-syn-");
  lake::LocalStore store(dir);
  SynthOptions o;
  o.wikipedia_fraction = 1.5;
  EXPECT_EQ(SynthesizeLake(store, o).status().code(), ErrorCode::kInvalidArgument);
  (void)RemoveAll(dir);
}

}  // namespace
}  // namespace lakeqa::ingest
