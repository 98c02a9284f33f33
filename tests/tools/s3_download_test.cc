// Downloads from an S3 lake (the s3rver test server on loopback): streamed into the shared cache with
// the ETag's MD5 checked, then hard-linked into each session's sandbox.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/lake/s3_store.h"
#include "lakeqa/tools/tools.h"

#include "support/s3_server.h"
#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

TEST(S3Download, StreamsOnceAndLinksIntoEverySandbox) {
  auto server = ::lakeqa::testing::S3TestServer::Start({"lake"});
  if (!server.ok()) GTEST_SKIP() << server.status().ToString();
  lake::S3Options so;
  so.endpoint = (*server)->endpoint();
  so.access_key = ::lakeqa::testing::S3TestServer::kAccessKey;
  so.secret_key = ::lakeqa::testing::S3TestServer::kSecretKey;
  auto store = std::make_unique<lake::S3Store>("lake", "", so);
  std::string body;
  for (int i = 0; i < 2000; ++i) body += std::to_string(i) + ",row " + std::to_string(i * 7) + "\n";
  ASSERT_TRUE(store->Write("datagov/big/files/rows.txt", "id,text\n" + body).ok());
  std::string root = *MakeTempDir("lakeqa-tools-s3-");
  ::chmod(root.c_str(), 0755);
  catalog::BuildOptions bo;
  bo.progress = false;
  bo.jobs = 1;
  ASSERT_TRUE(catalog::BuildCatalog(*store, root + "/index", bo).ok());
  ToolSetOptions o;
  o.index_dir = root + "/index";
  o.cache_dir = root + "/cache";
  auto tools = ToolSet::Open(std::move(store), o);
  ASSERT_TRUE(tools.ok()) << tools.status().ToString();
  auto a = Session::Create(root + "/sessions", "a");
  auto b = Session::Create(root + "/sessions", "b");
  ASSERT_TRUE(a.ok() && b.ok());
  Json args = {{"dataset_id", "big"}, {"file_path", "files/rows.txt"}};
  Json ra = (*tools)->Call(**a, "download", args);
  ASSERT_FALSE(ra.contains("error")) << ra.dump();
  Json rb = (*tools)->Call(**b, "download", args);
  ASSERT_FALSE(rb.contains("error")) << rb.dump();
  EXPECT_EQ(ra["downloaded"][0]["cached"], false);
  EXPECT_EQ(rb["downloaded"][0]["cached"], true);
  EXPECT_EQ(ra["downloaded"][0]["sha256"], rb["downloaded"][0]["sha256"]);
  std::string rel = ra["downloaded"][0]["relative_path"];
  EXPECT_EQ(*ReadFile((*a)->sandbox_dir() + "/" + rel), "id,text\n" + body);
  struct stat sa {
  }, sb{};
  ASSERT_EQ(::stat(((*a)->sandbox_dir() + "/" + rel).c_str(), &sa), 0);
  ASSERT_EQ(::stat(((*b)->sandbox_dir() + "/" + rel).c_str(), &sb), 0);
  EXPECT_EQ(sa.st_ino, sb.st_ino);
  Json q = (*tools)->Call(**b, "query", {{"sql", "SELECT count(*) FROM 'datagov/big/files/rows.txt'"}});
  ASSERT_FALSE(q.contains("error")) << q.dump();
  EXPECT_EQ(q["rows"][0][0], 2000);
  a->reset();
  b->reset();
  tools->reset();
  (void)RemoveAll(root);
}

}  // namespace
}  // namespace lakeqa::tools
