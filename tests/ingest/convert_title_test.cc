#include <gtest/gtest.h>

#include "lakeqa/ingest/convert.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::ingest {
namespace {

TEST(TitleToFolder, SpacesSlashesAndPercent) {
  EXPECT_EQ(TitleToFolder("Alpha Centauri"), "Alpha_Centauri");
  EXPECT_EQ(TitleToFolder("AC/DC"), "AC%2FDC");
  EXPECT_EQ(TitleToFolder("100% Pure"), "100%25_Pure");
  EXPECT_EQ(TitleToFolder("a_b"), "a%5Fb");
  EXPECT_EQ(TitleToFolder("back\\slash"), "back%5Cslash");
  EXPECT_EQ(TitleToFolder("."), "%2E");
  EXPECT_EQ(TitleToFolder(".."), "%2E%2E");
  EXPECT_EQ(TitleToFolder("Zürich"), "Zürich");
  EXPECT_EQ(NameToFolder("my_file name.csv"), "my_file name.csv");
  EXPECT_EQ(NameToFolder("dir/file.csv"), "dir%2Ffile.csv");
}

TEST(TitleToFolder, RoundTripsAndMakesValidKeys) {
  for (std::string t :
       {"Alpha Centauri", "AC/DC", "100% Pure", "a_b c", ".", "..", "%%", "x%%0123456789ABCDEF", "Tab\there",
        "Zürich / Genève", "C++", "?!*:", "...And Justice for All", ""}) {
    std::string f = TitleToFolder(t);
    auto back = FolderToTitle(f);
    ASSERT_TRUE(back.ok()) << t << " → " << f << ": " << back.status().ToString();
    EXPECT_EQ(*back, t);
    EXPECT_FALSE(IsTruncatedFolder(f)) << f;
    EXPECT_TRUE(lake::ValidateKey("wikipedia/" + f + "/content.txt").ok()) << f;
    auto name_back = FolderToName(NameToFolder(t));
    ASSERT_TRUE(name_back.ok());
    EXPECT_EQ(*name_back, t);
  }
}

TEST(TitleToFolder, LongTitlesTruncatedWithHash) {
  std::string t = "Long " + std::string(300, 'x');
  std::string f = TitleToFolder(t);
  EXPECT_LE(f.size(), kMaxFolderBytes);
  EXPECT_TRUE(IsTruncatedFolder(f));
  EXPECT_EQ(f.substr(0, 6), "Long_x");
  auto back = FolderToTitle(f);
  EXPECT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("truncated"), std::string::npos);
  // Different long titles with the same prefix get different folders.
  EXPECT_NE(f, TitleToFolder("Long " + std::string(301, 'x')));
  // Multi-byte characters are never split; a title of exactly the limit is not truncated.
  std::string u;
  for (int i = 0; i < 150; ++i) u += "\xC3\xA9";  // é × 150 = 300 bytes
  std::string fu = TitleToFolder(u);
  EXPECT_TRUE(IsTruncatedFolder(fu));
  EXPECT_EQ((fu.size() - 18) % 2, 0u);
  std::string exact(kMaxFolderBytes, 'y');
  EXPECT_EQ(TitleToFolder(exact), exact);
  // Escapes near the cut stay whole.
  std::string slashes(150, '/');
  std::string fs = TitleToFolder(slashes);
  EXPECT_TRUE(IsTruncatedFolder(fs));
  EXPECT_EQ((fs.size() - 18) % 3, 0u);
}

TEST(FolderToTitle, RejectsBadEscapes) {
  EXPECT_FALSE(FolderToTitle("a%2").ok());
  EXPECT_FALSE(FolderToTitle("a%zz").ok());
  EXPECT_EQ(*FolderToTitle("Walt_Frazier"), "Walt Frazier");
}

}  // namespace
}  // namespace lakeqa::ingest
