// `lakeqa lake ls` and `lake cat` through the real binary: a listing cut by --limit hands back a
// continuation token that lists the rest, and `cat --json` carries the object's metadata with its bytes as
// text or base64.
#include <gtest/gtest.h>

#include <set>

#include "lakeqa/common/base64.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "support/cli_runner.h"

namespace lakeqa::lake {
namespace {

using lakeqa::testing::CmdResult;
using lakeqa::testing::LakeqaBin;
using lakeqa::testing::Sh;

class LakeCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(LakeqaBin())) GTEST_SKIP() << "lakeqa binary not built at " << LakeqaBin();
    dir_ = *MakeTempDir("lakeqa-lakecli-");
    for (int i = 0; i < 7; ++i) Put("ns/d" + std::to_string(i) + "/f.txt", "row " + std::to_string(i) + "\n");
    Put("ns/bin/blob.bin", std::string("\x00\xff\xfe\x01 binary", 10));
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  void Put(const std::string& key, const std::string& bytes) { lakeqa::testing::PutFile(dir_, key, bytes); }
  Json CliJson(const std::string& args, int want_exit = 0) {
    return lakeqa::testing::LakeqaJson(args, want_exit);
  }
  std::string dir_;
};

TEST_F(LakeCliTest, LsLimitHandsBackAContinuationToken) {
  std::set<std::string> seen;
  std::string token;
  int pages = 0;
  do {
    std::string args = "lake ls --json " + Sh(dir_) + " --limit 3";
    if (!token.empty()) args += " --continuation-token " + Sh(token);
    Json page = CliJson(args);
    ASSERT_TRUE(page["objects"].is_array());
    EXPECT_LE(page["objects"].size(), 3u);
    for (const Json& o : page["objects"])
      EXPECT_TRUE(seen.insert(o["key"].get<std::string>()).second) << o.dump();
    EXPECT_EQ(page["truncated"], !page["continuation_token"].is_null());
    token = page["continuation_token"].is_null() ? "" : page["continuation_token"].get<std::string>();
    ASSERT_LT(++pages, 10);
  } while (!token.empty());
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen.size(), 8u);
  // Text mode names the token on stderr.
  CmdResult text = lakeqa::testing::Lakeqa("lake ls " + Sh(dir_) + " --limit 2 2>&1 >/dev/null");
  EXPECT_NE(text.out.find("--continuation-token "), std::string::npos) << text.out;
  EXPECT_EQ(CliJson("lake ls --json " + Sh(dir_) + " --limit 0", 2)["error"]["code"], "invalid_argument");
}

TEST_F(LakeCliTest, CatJsonCarriesMetadataAndTextOrBase64) {
  Json t = CliJson("lake cat --json " + Sh(dir_) + " ns/d3/f.txt");
  EXPECT_EQ(t["key"], "ns/d3/f.txt");
  EXPECT_EQ(t["size"], 6);
  EXPECT_FALSE(t["etag"].get<std::string>().empty());
  EXPECT_GT(t["mtime_ms"].get<int64_t>(), 0);
  EXPECT_EQ(t["encoding"], "text");
  EXPECT_EQ(t["text"], "row 3\n");

  Json b = CliJson("lake cat --json " + Sh(dir_) + " ns/bin/blob.bin");
  EXPECT_EQ(b["encoding"], "base64");
  EXPECT_FALSE(b.contains("text"));
  std::string bytes;
  ASSERT_TRUE(DecodeBase64(b["base64"].get<std::string>(), bytes));
  EXPECT_EQ(bytes, std::string("\x00\xff\xfe\x01 binary", 10));

  Json r = CliJson("lake cat --json " + Sh(dir_) + " ns/d3/f.txt --range 1-3");
  EXPECT_EQ(r["offset"], 1);
  EXPECT_EQ(r["length"], 3);
  EXPECT_EQ(r["text"], "ow ");
  EXPECT_EQ(r["size"], 6);  // the object's size, not the range's

  EXPECT_EQ(CliJson("lake cat --json " + Sh(dir_) + " ns/d3/f.txt --max-bytes 2", 10)["error"]["code"],
            "resource_exhausted");
  EXPECT_EQ(CliJson("lake cat --json " + Sh(dir_) + " ns/none.txt", 3)["error"]["code"], "not_found");
  EXPECT_EQ(CliJson("lake cat --json " + Sh(dir_) + " ns/d3/f.txt --range 5-1", 2)["error"]["code"],
            "invalid_argument");
  // Without --json the bytes are written as they are.
  EXPECT_EQ(lakeqa::testing::Lakeqa("lake cat " + Sh(dir_) + " ns/d3/f.txt").out, "row 3\n");
}

}  // namespace
}  // namespace lakeqa::lake
