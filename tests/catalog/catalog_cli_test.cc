// The `catalog` verbs through the real binary: ls prints a header and "A-B of M", show takes a bare id and
// prints column types and samples, dump has --json, and a usage error under --json is a JSON error object.
#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "support/cli_runner.h"

namespace lakeqa::catalog {
namespace {

using lakeqa::testing::CmdResult;
using lakeqa::testing::LakeqaBin;
using lakeqa::testing::Sh;

class CatalogCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PathExists(LakeqaBin())) GTEST_SKIP() << "lakeqa binary not built at " << LakeqaBin();
    dir_ = *MakeTempDir("lakeqa-catcli-");
    Put("datagov/parks/files/rows.csv",
        "name,acres,opened\nRiverside,32,1921-05-01\nHilltop,10,1950-01-01\n");
    Put("datagov/parks/metadata.json", R"({"title": "City Parks", "tags": ["parks"]})");
    Put("datagov/x/files/a.csv", "k\n1\n");
    Put("other/x/files/b.csv", "k\n2\n");
    for (int i = 1; i <= 3; ++i)
      Put("datagov/d" + std::to_string(i) + "/files/f.csv", "v\n" + std::to_string(i) + "\n");
    CmdResult b = Cli("index build -q --lake " + Sh(dir_ + "/lake") + " --index " + Sh(index()) + " 2>&1");
    ASSERT_EQ(b.exit_code, 0) << b.out;
  }
  void TearDown() override {
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }
  void Put(const std::string& key, const std::string& text) {
    lakeqa::testing::PutFile(dir_ + "/lake", key, text);
  }
  std::string index() const { return dir_ + "/index"; }
  CmdResult Cli(const std::string& args) { return lakeqa::testing::Lakeqa(args); }
  Json CliJson(const std::string& args, int want_exit = 0) {
    return lakeqa::testing::LakeqaJson(args, want_exit);
  }
  std::string dir_;
};

TEST_F(CatalogCliTest, LsPrintsAHeaderAndNOfM) {
  CmdResult r = Cli("catalog ls --index " + Sh(index()) + " --limit 2");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("DATASET", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("TITLE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1-2 of 6 datasets (next: --offset 2)"), std::string::npos) << r.out;
  r = Cli("catalog ls --index " + Sh(index()) + " --prefix datagov/d --offset 1");
  EXPECT_NE(r.out.find("2-3 of 3 datasets with prefix 'datagov/d'\n"), std::string::npos) << r.out;
  r = Cli("catalog ls --index " + Sh(index()) + " --prefix zzz");
  EXPECT_NE(r.out.find("0 of 0 datasets with prefix 'zzz'"), std::string::npos) << r.out;
  Json j = CliJson("catalog ls --json --index " + Sh(index()) + " --prefix datagov/ --limit 1");
  EXPECT_EQ(j["total"], 5);
  EXPECT_EQ(j["datasets"].size(), 1u);
}

TEST_F(CatalogCliTest, ShowTakesABareIdAndPrintsColumnTypesAndSamples) {
  CmdResult r = Cli("catalog show --index " + Sh(index()) + " parks");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("datagov/parks\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("name (string): Riverside, Hilltop"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("acres (integer): 32, 10"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("opened (date): 1921-05-01, 1950-01-01"), std::string::npos) << r.out;
  EXPECT_EQ(CliJson("catalog show --json --index " + Sh(index()) + " parks")["dataset_id"], "parks");
  // An id two namespaces share is ambiguous: both are named; the full id still works.
  Json amb = CliJson("catalog show --json --index " + Sh(index()) + " x", 2);
  EXPECT_EQ(amb["error"]["code"], "invalid_argument");
  std::string msg = amb["error"]["message"];
  EXPECT_NE(msg.find("datagov/x"), std::string::npos) << msg;
  EXPECT_NE(msg.find("other/x"), std::string::npos) << msg;
  EXPECT_EQ(Cli("catalog show --index " + Sh(index()) + " other/x").exit_code, 0);
  EXPECT_EQ(CliJson("catalog show --json --index " + Sh(index()) + " nope", 3)["error"]["code"], "not_found");
}

TEST_F(CatalogCliTest, DumpHasJson) {
  CmdResult text = Cli("catalog dump --index " + Sh(index()));
  ASSERT_EQ(text.exit_code, 0);
  size_t lines = std::count(text.out.begin(), text.out.end(), '\n');
  Json j = CliJson("catalog dump --json --index " + Sh(index()));
  ASSERT_TRUE(j["rows"].is_array());
  EXPECT_EQ(j["rows"].size(), lines);
  size_t datasets = 0;
  for (const Json& row : j["rows"]) {
    datasets += row["kind"] == "dataset";
    EXPECT_TRUE(row["row"].is_object()) << row.dump();
  }
  EXPECT_EQ(datasets, 6u);
  Json missing = CliJson("catalog dump --json --index " + Sh(dir_ + "/no-index"), 3);  // not_found
  EXPECT_TRUE(missing.contains("error")) << missing.dump();
}

TEST_F(CatalogCliTest, UsageErrorsUnderJsonAreJsonErrors) {
  for (const std::string args : {"catalog ls --json", "catalog ls --json --index x --bogus", "lake ls --json",
                                 "catalog show --json --index x a b", "search --json --limit nope q"}) {
    CmdResult r = Cli(args + " 2>/dev/null");
    EXPECT_EQ(r.exit_code, 2) << args;
    auto j = ParseJson(r.out, args);
    ASSERT_TRUE(j.ok()) << args << " printed: " << r.out;
    EXPECT_EQ((*j)["error"]["code"], "invalid_argument") << args;
    EXPECT_FALSE((*j)["error"]["message"].get<std::string>().empty()) << args;
  }
  // Without --json the usage text goes to stderr and stdout stays empty.
  CmdResult plain = Cli("catalog ls 2>/dev/null");
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_EQ(plain.out, "");
  EXPECT_EQ(Cli("catalog ls --help").exit_code, 0);
}

}  // namespace
}  // namespace lakeqa::catalog
