// The build pipeline as a whole: source specs, the report, a build into S3 (s3rver), and the CLI verb.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "ingest/build_test_util.h"
#include "lakeqa/ingest/build.h"
#include "support/s3_server.h"

namespace lakeqa::ingest {
namespace {

using testing::PageXml;
using testing::Slurp;
using testing::TempDir;
using testing::WriteBytes;

TEST(ParseSourceSpec, KindsAndErrors) {
  auto s = ParseSourceSpec("enwiki:/data/dump.xml.bz2");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, "enwiki");
  EXPECT_EQ(s->path, "/data/dump.xml.bz2");
  // A benchmark's kind (cmdbench:, kramabench:) parses once it is registered: tests/<benchmark>/.
  EXPECT_EQ(ParseSourceSpec("datagov:x")->kind, "datagov");
  EXPECT_EQ(ParseSourceSpec("dir:C:/x")->path, "C:/x");
  EXPECT_EQ(ParseSourceSpec("/no/kind").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(ParseSourceSpec("ftp:/x").status().message().find("unknown source kind 'ftp'"),
            std::string::npos);
  EXPECT_FALSE(ParseSourceSpec("dir:").ok());
}

TEST(BuildReport, JsonShape) {
  BuildReport r;
  r.source = "dir:/x";
  r.lake = "file:///l";
  r.datasets["folder"] = 2;
  r.files = 3;
  r.bytes = 10;
  r.skipped_total = 1;
  r.skipped_by_reason["empty folder"] = 1;
  r.skipped.push_back({"e", "empty folder"});
  r.errors_total = 1;
  r.errors.push_back({"bad", "parse_error: x"});
  Json j = r.ToJson();
  EXPECT_EQ(j["datasets_total"], 2);
  EXPECT_EQ(j["skipped"][0]["reason"], "empty folder");
  EXPECT_EQ(j["errors"][0]["error"], "parse_error: x");
  EXPECT_EQ(j["skipped_by_reason"]["empty folder"], 1);
}

TEST(BuildLake, ReportListsAreCappedCountsAreNot) {
  TempDir t;
  std::string xml = testing::kDumpHeader;
  for (int i = 0; i < 30; ++i)
    xml += PageXml({"Talk:P" + std::to_string(i), 1, static_cast<uint64_t>(i + 1), "x", ""});
  WriteBytes(t.path() + "/d.xml", xml + testing::kDumpFooter);
  auto store = lake::OpenStore(t.path() + "/lake");
  BuildOptions o;
  o.max_report_items = 5;
  auto r = BuildLake(**store, SourceSpec{"enwiki", t.path() + "/d.xml"}, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->skipped_total, 30u);
  EXPECT_EQ(r->skipped.size(), 5u);
}

TEST(BuildLake, EnwikiIntoS3) {
  auto server = ::lakeqa::testing::S3TestServer::Start({"lake"});
  if (!server.ok()) GTEST_SKIP() << server.status().ToString();
  TempDir t;
  std::string xml = std::string(testing::kDumpHeader) +
                    PageXml({"Ada Lovelace", 0, 1, "'''Ada''' was a [[mathematician]].", ""}) +
                    PageXml({"Ada King", 0, 2, "#REDIRECT [[Ada Lovelace]]", "Ada Lovelace"}) +
                    testing::kDumpFooter;
  WriteBytes(t.path() + "/d.xml.bz2", testing::Bz2(xml));
  lake::S3Options opts;
  opts.endpoint = (*server)->endpoint();
  opts.access_key = ::lakeqa::testing::S3TestServer::kAccessKey;
  opts.secret_key = ::lakeqa::testing::S3TestServer::kSecretKey;
  auto store = lake::OpenStore("s3://lake/prefix", opts);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  BuildOptions o;
  o.jobs = 2;
  auto r = BuildLake(**store, SourceSpec{"enwiki", t.path() + "/d.xml.bz2"}, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->datasets.at("article"), 1u);
  EXPECT_EQ(r->lake, "s3://lake/prefix");
  auto text = (*store)->ReadRange("wikipedia/Ada_Lovelace/content.txt", 0, 0);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text, "Ada was a mathematician.\n");
  auto meta = (*store)->ReadRange("wikipedia/Ada_Lovelace/metadata.json", 0, 0);
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ((*ParseJson(*meta, "meta"))["aliases"], Json::array({"Ada King"}));
}

TEST(LakeBuildCli, WritesLakeAndJsonReport) {
  const char* bin = std::getenv("LAKEQA_BIN");
  if (!bin || !PathExists(bin)) GTEST_SKIP() << "LAKEQA_BIN not set or missing (build the lakeqa target)";
  TempDir t;
  ASSERT_TRUE(MakeDirs(t.path() + "/src/ds1").ok());
  WriteBytes(t.path() + "/src/ds1/a.txt", "alpha");
  WriteBytes(t.path() + "/src/loose.txt", "x");
  std::string cmd = std::string(bin) + " lake build --source dir:" + t.path() + "/src --out " + t.path() +
                    "/lake --json --quiet --report " + t.path() + "/report.json > " + t.path() + "/out.json";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto out = ParseJson(Slurp(t.path() + "/out.json"), "stdout");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)["datasets"]["folder"], 1);
  EXPECT_EQ((*out)["skipped_total"], 1);
  EXPECT_EQ(*ParseJson(Slurp(t.path() + "/report.json"), "report"), *out);
  EXPECT_EQ(Slurp(t.path() + "/lake/dir/ds1/a.txt"), "alpha");
  std::string bad =
      std::string(bin) + " lake build --source nope:/x --out " + t.path() + "/l2 --json > /dev/null";
  int rc = std::system(bad.c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 2);
}

}  // namespace
}  // namespace lakeqa::ingest
