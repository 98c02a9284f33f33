// The workbench mounted on lakeqa's HTTP server, through a real HTTP client (curl): the token rules of
// `serve` hold for the API, the UI's static files are public, and the tool API still answers beside it.
#include <gtest/gtest.h>

#include "lakeqa/server/server.h"
#include "server/server_test_util.h"

#include "workbench/fixture.h"

namespace lakeqa::workbench {
namespace {

using server::testing::Curl;
using server::testing::HaveCurl;

class Http : public testing::WorkbenchFixture {
 protected:
  void SetUp() override {
    if (!HaveCurl()) GTEST_SKIP() << "curl is not installed";
    WorkbenchFixture::SetUp();
    if (HasFatalFailure()) return;
  }
  void TearDown() override {
    if (http_) http_->Stop();
    http_.reset();
    WorkbenchFixture::TearDown();
  }
  void Start(const std::string& token, server::ServerOptions so = {}) {
    WorkbenchOptions o = Options();
    Open(o);
    so.listen = "127.0.0.1:0";
    so.token = token;
    so.http.workers = 8;
    so.mounts = wb_->Mounts();
    http_ = std::make_unique<server::HttpServer>(wb_->sessions(), so);
    Status st = http_->Start();
    ASSERT_TRUE(st.ok()) << st.ToString();
    base_ = "http://127.0.0.1:" + std::to_string(http_->port());
  }
  std::unique_ptr<server::HttpServer> http_;
  std::string base_;
};

TEST_F(Http, TokenGuardsTheApiNotTheAssets) {
  Start("s3cret");
  EXPECT_EQ(Curl("GET", base_ + "/ui/").status, 200);
  EXPECT_EQ(Curl("GET", base_ + "/ui/vendor/preact/dist/preact.mjs").status, 200);
  auto denied = Curl("GET", base_ + "/api/info", "", {"X-Lakeqa-Client: workbench"});
  EXPECT_EQ(denied.status, 401);
  EXPECT_EQ(denied.json["error"]["code"], "unauthenticated");
  auto ok =
      Curl("GET", base_ + "/api/info", "", {"X-Lakeqa-Client: workbench", "Authorization: Bearer s3cret"});
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.json["datasets"], 3);
  EXPECT_EQ(Curl("GET", base_ + "/v1/tools").status, 401);
  EXPECT_EQ(Curl("GET", base_ + "/v1/tools", "", {"Authorization: Bearer s3cret"}).status, 200);
}

TEST_F(Http, LoopbackWithoutTokenServesTheWholeFlow) {
  Start("");
  auto redirect = Curl("GET", base_ + "/");
  EXPECT_EQ(redirect.status, 302);
  EXPECT_EQ(server::testing::Header(redirect.headers, "Location"), "/ui/");
  std::vector<std::string> h = {"X-Lakeqa-Client: workbench", "X-Lakeqa-User: alice"};
  auto created = Curl("POST", base_ + "/api/tasks", DumpJson({{"task", testing::TwoHopTask()}}), h);
  ASSERT_EQ(created.status, 201) << created.body;
  auto search = Curl("GET", base_ + "/api/search?q=capital&namespace=wikipedia", "", h);
  ASSERT_EQ(search.status, 200) << search.body;
  EXPECT_EQ(search.json["hits"][0]["id"], "wikipedia/Georgia");
  // A page on another site cannot send the client header without a preflight this server never grants.
  EXPECT_EQ(Curl("POST", base_ + "/api/tasks", "{}", {"X-Lakeqa-User: mallory"}).status, 403);
  EXPECT_EQ(Curl("GET", base_ + "/v1/tools").status, 200);
}

// The server's Host and Origin checks stand in front of the workbench too, with `lakeqa ui --allowed-host`
// and `--allowed-origin` (the same flags as `serve`).
TEST_F(Http, HostAndOriginChecksGuardTheWorkbench) {
  server::ServerOptions so;
  so.allowed_hosts = {"lab.example"};
  so.allowed_origins = {"http://lab.example:8090"};
  Start("", so);
  std::vector<std::string> h = {"X-Lakeqa-Client: workbench"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), h.begin(), h.end());
    return Curl("GET", base_ + "/api/info", "", extra);
  };
  auto rebinding = with({"Host: attacker.example:8090"});
  EXPECT_EQ(rebinding.status, 403);
  EXPECT_NE(rebinding.body.find("attacker.example"), std::string::npos) << rebinding.body;
  EXPECT_EQ(with({"Host: lab.example:8090"}).status, 200);
  EXPECT_EQ(with({"Origin: http://evil.example"}).status, 403);
  auto cors = with({"Host: lab.example:8090", "Origin: http://lab.example:8090"});
  EXPECT_EQ(cors.status, 200) << cors.body;
  EXPECT_EQ(server::testing::Header(cors.headers, "Access-Control-Allow-Origin"), "http://lab.example:8090");
}

}  // namespace
}  // namespace lakeqa::workbench
