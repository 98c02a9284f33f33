// Durability::kBatch: objects are written to temp files, invisible until the batch commits, then renamed
// into place in write order; no temp file is ever left behind and the content is what was written last.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "lakeqa/common/fs.h"
#include "lakeqa/lake/local_store.h"

namespace lakeqa::lake {
namespace {

// Every regular file under dir, relative, sorted (temp files included, unlike List's view of keys).
std::vector<std::string> FilesOnDisk(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class LocalStoreBatchTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = *MakeTempDir("lakeqa-batch-"); }
  void TearDown() override { (void)RemoveAll(dir_); }
  std::string dir_;
};

TEST_F(LocalStoreBatchTest, ObjectsAppearAtCommitWithTheirLastContent) {
  LocalStore store(dir_);
  EXPECT_EQ(store.durability(), Durability::kPerObject);
  ASSERT_TRUE(store.SetDurability(Durability::kBatch, 100).ok());
  ASSERT_TRUE(store.Write("w/a/content.txt", "first").ok());
  ASSERT_TRUE(store.Write("w/a/content.txt", "second").ok());  // same key twice in one batch: last wins
  ASSERT_TRUE(store.Write("w/b/metadata.json", "{}\n").ok());
  EXPECT_EQ(store.PendingObjects(), 3u);
  // Before the commit: only temp files, nothing under a final key.
  EXPECT_EQ(store.Stat("w/a/content.txt").status().code(), ErrorCode::kNotFound);
  auto before = FilesOnDisk(dir_);
  ASSERT_EQ(before.size(), 3u);
  for (const auto& f : before) EXPECT_NE(f.find(".tmp."), std::string::npos) << f;

  ASSERT_TRUE(store.Commit().ok());
  EXPECT_EQ(store.PendingObjects(), 0u);
  EXPECT_EQ(FilesOnDisk(dir_), (std::vector<std::string>{"w/a/content.txt", "w/b/metadata.json"}));
  EXPECT_EQ(*store.ReadRange("w/a/content.txt", 0, 0), "second");
  EXPECT_EQ(*store.ReadRange("w/b/metadata.json", 0, 0), "{}\n");
  EXPECT_TRUE(store.Commit().ok());  // nothing pending: a no-op
}

TEST_F(LocalStoreBatchTest, CommitsAutomaticallyEveryBatchAndOnDestruction) {
  {
    LocalStore store(dir_);
    ASSERT_TRUE(store.SetDurability(Durability::kBatch, 4).ok());
    for (int i = 0; i < 10; ++i) {
      ASSERT_TRUE(store.Write("k/" + std::to_string(i), std::string(static_cast<size_t>(i), 'x')).ok());
    }
    EXPECT_EQ(store.PendingObjects(), 2u);  // two full batches of 4 committed on the way
    EXPECT_TRUE(store.Stat("k/7").ok());
    EXPECT_FALSE(store.Stat("k/9").ok());
  }
  // The destructor committed the rest.
  LocalStore reopened(dir_);
  for (int i = 0; i < 10; ++i) {
    auto data = reopened.ReadRange("k/" + std::to_string(i), 0, 0);
    ASSERT_TRUE(data.ok()) << i;
    EXPECT_EQ(*data, std::string(static_cast<size_t>(i), 'x'));
  }
  for (const auto& f : FilesOnDisk(dir_)) EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
}

TEST_F(LocalStoreBatchTest, SwitchingBackToPerObjectCommitsAndWritesDirectly) {
  LocalStore store(dir_);
  ASSERT_TRUE(store.SetDurability(Durability::kBatch).ok());
  ASSERT_TRUE(store.Write("a", "1").ok());
  ASSERT_TRUE(store.SetDurability(Durability::kPerObject).ok());
  EXPECT_EQ(store.PendingObjects(), 0u);
  EXPECT_EQ(*store.ReadRange("a", 0, 0), "1");
  ASSERT_TRUE(store.Write("b", "2").ok());
  EXPECT_EQ(*store.ReadRange("b", 0, 0), "2");  // per-object: visible at once
  EXPECT_EQ(FilesOnDisk(dir_), (std::vector<std::string>{"a", "b"}));
}

TEST_F(LocalStoreBatchTest, AFailedRenameIsReportedAndLeavesNoTempFile) {
  LocalStore store(dir_);
  ASSERT_TRUE(store.SetDurability(Durability::kBatch).ok());
  ASSERT_TRUE(store.Write("x/ok.txt", "fine").ok());
  ASSERT_TRUE(store.Write("x/dir", "will not fit").ok());
  // A folder appears where the object should go: its rename fails at commit.
  ASSERT_TRUE(MakeDirs(dir_ + "/x/dir/sub").ok());
  Status s = store.Commit();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("x/dir"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("1 of 2 objects"), std::string::npos) << s.ToString();
  EXPECT_EQ(*store.ReadRange("x/ok.txt", 0, 0), "fine");
  EXPECT_EQ(FilesOnDisk(dir_), (std::vector<std::string>{"x/ok.txt"}));
}

TEST_F(LocalStoreBatchTest, ValidatesKeysAsBefore) {
  LocalStore store(dir_);
  ASSERT_TRUE(store.SetDurability(Durability::kBatch).ok());
  EXPECT_EQ(store.Write("../escape", "x").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(store.PendingObjects(), 0u);
}

}  // namespace
}  // namespace lakeqa::lake
