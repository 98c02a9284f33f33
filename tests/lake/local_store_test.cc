#include "lakeqa/lake/local_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "lakeqa/common/fs.h"

namespace lakeqa::lake {
namespace {

class LocalStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = *MakeTempDir("lakeqa-local-");
    store_ = std::make_unique<LocalStore>(dir_);
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(store_->Write(key, data).ok()) << key;
  }
  std::vector<std::string> AllKeys(uint32_t page_size, const std::string& prefix = "") {
    std::vector<std::string> keys;
    ListOptions o;
    o.prefix = prefix;
    o.max_keys = page_size;
    for (;;) {
      auto page = store_->List(o);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) break;
      EXPECT_LE(page->objects.size(), page_size);
      for (auto& obj : page->objects) keys.push_back(obj.key);
      if (page->next_continuation_token.empty()) break;
      o.continuation_token = page->next_continuation_token;
    }
    return keys;
  }
  std::string dir_;
  std::unique_ptr<LocalStore> store_;
};

TEST_F(LocalStoreTest, ListsInByteOrderAcrossPages) {
  std::vector<std::string> keys = {"a.txt",
                                   "a/b",
                                   "a/c/d",
                                   "a0",
                                   "datagov/x/files/rows.txt",
                                   "datagov/x/signed-metadata.txt",
                                   "datagov/x-y/z",
                                   "wikipedia/Émile Zola/content.txt",
                                   "wikipedia/odd name (1)/content.txt",
                                   "z"};
  for (auto& k : keys) Put(k, "data:" + k);
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t page : {1u, 2u, 3u, 1000u}) EXPECT_EQ(AllKeys(page), sorted) << "page size " << page;
  EXPECT_EQ(AllKeys(2, "datagov/x/"),
            (std::vector<std::string>{"datagov/x/files/rows.txt", "datagov/x/signed-metadata.txt"}));
  EXPECT_EQ(AllKeys(2, "datagov/x"), (std::vector<std::string>{"datagov/x-y/z", "datagov/x/files/rows.txt",
                                                               "datagov/x/signed-metadata.txt"}));
  EXPECT_TRUE(AllKeys(10, "nothing/").empty());
}

TEST_F(LocalStoreTest, DelimiterRollsUpFolders) {
  for (auto k :
       {"datagov/a/files/rows.txt", "datagov/a/m.txt", "datagov/b/x", "wikipedia/P/content.txt", "top.txt"})
    Put(k, "x");
  ListOptions o;
  o.delimiter = '/';
  auto root = store_->List(o);
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->common_prefixes, (std::vector<std::string>{"datagov/", "wikipedia/"}));
  ASSERT_EQ(root->objects.size(), 1u);
  EXPECT_EQ(root->objects[0].key, "top.txt");
  o.prefix = "datagov/";
  auto ns = store_->List(o);
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(ns->common_prefixes, (std::vector<std::string>{"datagov/a/", "datagov/b/"}));
  // Paginated roll-up: one entry per page, continuing after a common prefix.
  o.max_keys = 1;
  auto p1 = store_->List(o);
  ASSERT_TRUE(p1.ok());
  EXPECT_EQ(p1->common_prefixes, (std::vector<std::string>{"datagov/a/"}));
  o.continuation_token = p1->next_continuation_token;
  auto p2 = store_->List(o);
  ASSERT_TRUE(p2.ok());
  EXPECT_EQ(p2->common_prefixes, (std::vector<std::string>{"datagov/b/"}));
}

TEST_F(LocalStoreTest, ReadsRangesAndStreams) {
  std::string big(300000, 'x');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  Put("f", big);
  EXPECT_EQ(*store_->ReadRange("f", 0, 5), "abcde");
  EXPECT_EQ(*store_->ReadRange("f", 26, 3), "abc");
  EXPECT_EQ(store_->ReadRange("f", big.size() - 2, 100)->size(), 2u);
  EXPECT_EQ(*store_->ReadRange("f", big.size() + 10, 5), "");
  EXPECT_EQ(*store_->ReadRange("f", 0, 0), big);
  std::string streamed;
  size_t chunks = 0;
  ASSERT_TRUE(store_
                  ->ReadStream("f",
                               [&](std::string_view c) {
                                 streamed.append(c);
                                 ++chunks;
                                 return true;
                               })
                  .ok());
  EXPECT_EQ(streamed, big);
  EXPECT_GT(chunks, 1u);
  // Early stop is not an error.
  size_t seen = 0;
  ASSERT_TRUE(store_
                  ->ReadStream("f",
                               [&](std::string_view c) {
                                 seen += c.size();
                                 return false;
                               })
                  .ok());
  EXPECT_LT(seen, big.size());
  auto st = store_->Stat("f");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->size, big.size());
  EXPECT_FALSE(st->etag.empty());
  EXPECT_EQ(store_->Stat("missing").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(store_->ReadRange("missing", 0, 1).status().code(), ErrorCode::kNotFound);
}

TEST_F(LocalStoreTest, RejectsHostileKeys) {
  for (const std::string& k : std::vector<std::string>{"../etc/passwd", "/etc/passwd", "a/../../b", "a//b",
                                                       "", "./a", std::string("a\0b", 3)}) {
    EXPECT_EQ(store_->Write(k, "x").code(), ErrorCode::kInvalidArgument) << k;
    EXPECT_EQ(store_->ReadRange(k, 0, 1).status().code(), ErrorCode::kInvalidArgument) << k;
  }
  ListOptions o;
  o.prefix = "../";
  EXPECT_EQ(store_->List(o).status().code(), ErrorCode::kInvalidArgument);
}

TEST_F(LocalStoreTest, SkipsLoopsFifosAndDanglingLinks) {
  Put("d/real.txt", "r");
  ASSERT_EQ(symlink((dir_ + "/d").c_str(), (dir_ + "/d/loop").c_str()), 0);  // directory loop
  ASSERT_EQ(symlink("nowhere", (dir_ + "/d/dangling").c_str()), 0);
  ASSERT_EQ(symlink((dir_ + "/d/real.txt").c_str(), (dir_ + "/d/link.txt").c_str()), 0);  // followed
  ASSERT_EQ(mkfifo((dir_ + "/d/fifo").c_str(), 0644), 0);
  ListOptions o;
  auto page = store_->List(o);
  ASSERT_TRUE(page.ok());
  std::vector<std::string> keys;
  for (auto& obj : page->objects) keys.push_back(obj.key);
  // Special entries are listed (so a crawl can record them) but never followed or opened.
  EXPECT_EQ(keys, (std::vector<std::string>{"d/dangling", "d/fifo", "d/link.txt", "d/loop", "d/real.txt"}));
  EXPECT_EQ(page->warnings.size(), 3u);
  EXPECT_EQ(*store_->ReadRange("d/link.txt", 0, 0), "r");
  auto fifo = store_->ReadRange("d/fifo", 0, 1);  // never blocks
  EXPECT_EQ(fifo.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(fifo.status().message().find("FIFO"), std::string::npos);
  auto loop = store_->ReadRange("d/loop", 0, 1);
  EXPECT_NE(loop.status().message().find("directories are not followed"), std::string::npos)
      << loop.status().ToString();
  EXPECT_EQ(store_->ReadRange("d/dangling", 0, 1).status().code(), ErrorCode::kNotFound);
}

// Security regression (issue 15): a dataset folder or a file that links out of the lake is neither listed
// through nor read; links that stay inside still work.
TEST_F(LocalStoreTest, LinksOutOfTheRootAreRefused) {
  std::string outside = *MakeTempDir("lakeqa-outside-");
  ASSERT_TRUE(WriteFileAtomic(outside + "/secret.txt", "hunter2").ok());
  Put("datagov/real/files/a.txt", "a");
  std::string files = dir_ + "/datagov/real/files";
  ASSERT_EQ(symlink(outside.c_str(), (dir_ + "/datagov/linked").c_str()), 0);  // a dataset folder -> /etc
  ASSERT_EQ(symlink((outside + "/secret.txt").c_str(), (files + "/shadow.txt").c_str()), 0);
  std::string rel_out = "../../../../" + std::filesystem::path(outside).filename().string() + "/secret.txt";
  ASSERT_EQ(symlink(rel_out.c_str(), (files + "/relative.txt").c_str()), 0);
  ASSERT_EQ(symlink((files + "/a.txt").c_str(), (files + "/absolute_inside.txt").c_str()), 0);
  ASSERT_EQ(symlink("a.txt", (files + "/relative_inside.txt").c_str()), 0);
  ASSERT_EQ(*ReadFile(files + "/relative.txt"), "hunter2");  // the link really leads out

  ListOptions o;
  o.prefix = "datagov/linked/";
  auto page = store_->List(o);
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), ErrorCode::kPermissionDenied) << page.status().ToString();
  o.prefix = "datagov/real/files/";
  page = store_->List(o);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  for (const auto& obj : page->objects) {
    if (obj.key.find("shadow") != std::string::npos || obj.key.find("relative.txt") != std::string::npos) {
      EXPECT_EQ(obj.size, 0u) << obj.key;  // not the secret's size
    }
  }
  size_t outside_warnings = 0;
  for (const auto& w : page->warnings) outside_warnings += w.find("outside the lake") != std::string::npos;
  EXPECT_EQ(outside_warnings, 2u);
  for (const char* key :
       {"datagov/real/files/shadow.txt", "datagov/real/files/relative.txt", "datagov/linked/secret.txt"}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(store_->Stat(key).status().code(), ErrorCode::kPermissionDenied);
    auto r = store_->ReadRange(key, 0, 0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kPermissionDenied);
    std::string got;
    Status st = store_->ReadStream(key, [&](std::string_view c) {
      got += c;
      return true;
    });
    EXPECT_EQ(st.code(), ErrorCode::kPermissionDenied);
    EXPECT_EQ(got.find("hunter2"), std::string::npos);
  }
  EXPECT_EQ(*store_->ReadRange("datagov/real/files/absolute_inside.txt", 0, 0), "a");
  EXPECT_EQ(*store_->ReadRange("datagov/real/files/relative_inside.txt", 0, 0), "a");
  EXPECT_EQ(store_->Stat("datagov/real/files/relative_inside.txt")->size, 1u);
  (void)RemoveAll(outside);
}

TEST_F(LocalStoreTest, WriteIsAtomicAndLeavesNoTempFiles) {
  Put("a/b.txt", "one");
  Put("a/b.txt", "two");
  EXPECT_EQ(*store_->ReadRange("a/b.txt", 0, 0), "two");
  EXPECT_EQ(AllKeys(100), (std::vector<std::string>{"a/b.txt"}));
}

TEST(OpenStore, ParsesUris) {
  auto local = OpenStore("/tmp/some lake");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ((*local)->Uri(), "file:///tmp/some lake");
  EXPECT_FALSE((*local)->IsRemote());
  EXPECT_EQ((*OpenStore("file:///x/y/"))->Uri(), "file:///x/y");
  auto s3 = OpenStore("s3://bucket/pre/fix/");
  ASSERT_TRUE(s3.ok());
  EXPECT_EQ((*s3)->Uri(), "s3://bucket/pre/fix");
  EXPECT_TRUE((*s3)->IsRemote());
  EXPECT_EQ(OpenStore("s3://").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(OpenStore("gs://b").status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace lakeqa::lake
