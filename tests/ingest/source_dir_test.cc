// dir: folder trees → datasets, byte for byte; symlinks, top-level files, empty folders reported.
#include <gtest/gtest.h>
#include <unistd.h>

#include "ingest/build_test_util.h"
#include "lakeqa/ingest/build.h"

namespace lakeqa::ingest {
namespace {

using namespace testing;

Result<BuildReport> BuildDirLake(const std::string& src, const std::string& out, bool per_file,
                                 uint64_t max_file_bytes = 512ull << 20) {
  auto store = lake::OpenStore(out);
  if (!store.ok()) return store.status();
  BuildOptions o;
  o.jobs = 2;
  o.one_dataset_per_file = per_file;
  o.max_file_bytes = max_file_bytes;
  return BuildLake(**store, SourceSpec{"dir", src}, o);
}

void MakeTree(const std::string& src) {
  ASSERT_TRUE(MakeDirs(src + "/alpha/sub").ok());
  ASSERT_TRUE(MakeDirs(src + "/beta gamma").ok());
  ASSERT_TRUE(MakeDirs(src + "/empty").ok());
  WriteBytes(src + "/alpha/a.csv", "x,y\n1,2\n");
  WriteBytes(src + "/alpha/sub/b.bin", std::string("\0\1\2\3", 4));
  WriteBytes(src + "/beta gamma/notes.txt", "hello");
  WriteBytes(src + "/beta gamma/big.txt", std::string(5000, 'b'));
  WriteBytes(src + "/top.txt", "loose file");
  ASSERT_EQ(::symlink("/etc/passwd", (src + "/alpha/link").c_str()), 0);
}

TEST(DirBuild, TopLevelFoldersAreDatasets) {
  TempDir t;
  std::string src = t.path() + "/src";
  MakeTree(src);
  auto r = BuildDirLake(src, t.path() + "/lake", false, 1000);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Walk(t.path() + "/lake"),
            (std::vector<std::string>{"dir/alpha/a.csv", "dir/alpha/sub/b.bin", "dir/beta gamma/notes.txt"}));
  EXPECT_EQ(Slurp(t.path() + "/lake/dir/alpha/sub/b.bin"), std::string("\0\1\2\3", 4));
  EXPECT_EQ(r->datasets.at("folder"), 2u);
  EXPECT_EQ(r->files, 3u);
  EXPECT_EQ(r->bytes, 8u + 4u + 5u);
  EXPECT_EQ(r->skipped_by_reason.at("symbolic link (not followed)"), 1u);
  EXPECT_EQ(r->skipped_by_reason.at("empty folder"), 1u);
  EXPECT_EQ(r->skipped_by_reason.at("file larger than max_file_bytes"), 1u);
  EXPECT_EQ(r->skipped_by_reason.at("top-level file (not in a dataset folder; see --one-dataset-per-file)"),
            1u);
}

TEST(DirBuild, OneDatasetPerFile) {
  TempDir t;
  std::string src = t.path() + "/src";
  MakeTree(src);
  auto r = BuildDirLake(src, t.path() + "/lake", true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Walk(t.path() + "/lake"),
            (std::vector<std::string>{"dir/alpha%2Fa.csv/a.csv", "dir/alpha%2Fsub%2Fb.bin/b.bin",
                                      "dir/beta gamma%2Fbig.txt/big.txt",
                                      "dir/beta gamma%2Fnotes.txt/notes.txt", "dir/top.txt/top.txt"}));
  EXPECT_EQ(r->datasets.at("file"), 5u);
}

TEST(DirBuild, MissingSourceFails) {
  TempDir t;
  auto r = BuildDirLake(t.path() + "/nope", t.path() + "/lake", false);
  EXPECT_EQ(r.status().code(), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace lakeqa::ingest
