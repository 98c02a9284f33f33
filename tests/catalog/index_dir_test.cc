#include "lakeqa/catalog/index_dir.h"

#include <gtest/gtest.h>

#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::catalog {
namespace {

// The layout docs/formats.md and the index readers rely on: a rename here would orphan every index on disk.
TEST(IndexDirTest, NamesEveryPartOfTheFolder) {
  IndexDir d("/idx/one");
  EXPECT_EQ(d.dir(), "/idx/one");
  EXPECT_EQ(d.Catalog(), "/idx/one/catalog.sqlite");
  EXPECT_EQ(d.Manifest(), "/idx/one/manifest.json");
  EXPECT_EQ(d.Text(), "/idx/one/text");
  EXPECT_EQ(d.Chunks(), "/idx/one/chunks");
  EXPECT_EQ(d.Paragraphs(), "/idx/one/paragraphs");
  EXPECT_EQ(d.Vectors(), "/idx/one/vectors");
  EXPECT_EQ(d.VectorsManifest(), "/idx/one/vectors/manifest.json");
  EXPECT_EQ(d.Graph(), "/idx/one/graph");
  EXPECT_EQ(d.GraphSchema(), "/idx/one/graph/schema.json");
  EXPECT_EQ(d.Sources(), "/idx/one/sources.json");
  EXPECT_EQ(d.NearDuplicates(), "/idx/one/near_duplicates.json");
  EXPECT_EQ(d.PartialBuild(), "/idx/one/.partial-build");
  // SQLite's companions all start with the catalog's name: the first build's cleanup keys on that.
  for (std::string_view f : IndexDir::kCatalogFiles) EXPECT_TRUE(f.starts_with(IndexDir::kCatalogName)) << f;
}

TEST(IndexDirTest, RelativeFolderStaysRelative) {
  IndexDir d("idx");
  EXPECT_EQ(d.Catalog(), "idx/catalog.sqlite");
  EXPECT_EQ(d.GraphSchema(), "idx/graph/schema.json");
}

// What the catalog builder writes is where IndexDir says it is, and the manifest names the catalog file.
TEST(IndexDirTest, BuilderWritesWhereIndexDirPoints) {
  std::string lake = *MakeTempDir("lakeqa-idxdir-lake-"), index = *MakeTempDir("lakeqa-idxdir-index-");
  lake::LocalStore store(lake);
  ASSERT_TRUE(store.Write("datagov/a/files/rows.csv", "x,y\n1,2\n").ok());
  BuildOptions o;
  o.progress = false;
  o.jobs = 1;
  ASSERT_TRUE(BuildCatalog(store, index, o).ok());
  IndexDir d(index);
  EXPECT_TRUE(PathExists(d.Catalog()));
  ASSERT_TRUE(PathExists(d.Manifest()));
  auto m = ParseJson(*ReadFile(d.Manifest()), d.Manifest());
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)["catalog"]["file"], std::string(IndexDir::kCatalogName));
  auto cat = Catalog::Open(d.Catalog(), /*read_only=*/true);
  ASSERT_TRUE(cat.ok()) << cat.status().message();
  (void)RemoveAll(lake);
  (void)RemoveAll(index);
}

}  // namespace
}  // namespace lakeqa::catalog
