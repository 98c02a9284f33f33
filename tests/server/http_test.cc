// The HTTP JSON API through curl: session lifecycle, every tool, errors with HTTP statuses, the bearer
// token, refusing public binds without a token, and concurrent sessions kept apart.
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "lakeqa/exec/python.h"

#include "server/server_test_util.h"

namespace lakeqa::server::testing {
namespace {

using HttpTest = ServerFixture;

TEST_F(HttpTest, SessionLifecycleAndEveryTool) {
  StartHttp();
  HttpReply r = Curl("GET", base_ + "/v1/tools");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["tools"].size(), 12u);
  r = Curl("POST", base_ + "/v1/sessions");
  ASSERT_EQ(r.status, 201) << r.body;
  std::string id = r.json["session_id"];
  std::string tool = base_ + "/v1/sessions/" + id + "/tools/";
  r = Curl("POST", tool + "search", R"({"prefixes": ["apd"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["count"], 2);
  r = Curl("POST", tool + "search_keyword", R"({"keywords": ["police"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["results"][0]["dataset_id"], "apd-searches-by-type");
  r = Curl("POST", tool + "list_files", R"({"dataset_ids": ["austin-water"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["files"][0]["path"], "files/data.csv");
  r = Curl("POST", tool + "inspect_file", R"({"dataset_id": "austin-water", "file_path": "files/data.csv"})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["header_columns"], (Json{"station", "ph"}));
  r = Curl("POST", tool + "download",
           R"({"files": [{"dataset_id": "austin-water", "file_path": "files/data.csv"}]})");
  ASSERT_EQ(r.status, 200) << r.body;
  r = Curl("POST", tool + "query",
           R"({"sql": "SELECT count(*) AS n FROM 'datagov/austin-water/files/data.csv'"})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["rows"][0][0], 2);
  if (exec::CheckPythonSandbox().ok()) {
    r = Curl("POST", tool + "execute_code", R"J({"code": "print(len(FILES))"})J");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["output"], "1\n");
  }
  r = Curl("POST", tool + "get_sandbox_info", "");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["file_count"], 1);
  r = Curl("POST", tool + "submit_answer", R"({"answer": "[2]", "sources": ["datagov/austin-water"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  r = Curl("GET", base_ + "/v1/sessions/" + id + "/trace");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_GE(r.json["events"].size(), 8u);
  EXPECT_EQ(r.json["events"][0]["tool"], "search");
  EXPECT_EQ(r.json["events"][0]["returned"],
            (Json{"datagov/apd-searches-by-type", "wikipedia/apd-searches-by-type"}));
  EXPECT_EQ(r.json["events"][2]["accessed"], (Json{"datagov/austin-water"}));
  r = Curl("DELETE", base_ + "/v1/sessions/" + id);
  ASSERT_EQ(r.status, 200) << r.body;
  r = Curl("POST", tool + "search", R"({"prefixes": ["apd"]})");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.json["error"]["code"], "not_found");
}

TEST_F(HttpTest, ErrorsAreJsonWithStatuses) {
  StartHttp();
  std::string id = Curl("POST", base_ + "/v1/sessions").json["session_id"];
  std::string tool = base_ + "/v1/sessions/" + id + "/tools/";
  HttpReply r = Curl("POST", tool + "download",
                     R"({"dataset_id": "austin-water", "file_path": "../../../etc/passwd"})");
  EXPECT_EQ(r.status, HttpStatusFor(ErrorCode::kPermissionDenied)) << r.body;
  EXPECT_EQ(r.json["error"]["code"], "permission_denied");
  r = Curl("POST", tool + "nope", "{}");
  EXPECT_EQ(r.status, 404);
  r = Curl("POST", tool + "search", "{not json");
  EXPECT_EQ(r.status, HttpStatusFor(ErrorCode::kParseError)) << r.body;
  EXPECT_EQ(r.json["error"]["code"], "parse_error");
  r = Curl("POST", base_ + "/v1/sessions/nosuch/tools/search", R"({"prefixes": ["ap"]})");
  EXPECT_EQ(r.status, 404);
  r = Curl("GET", base_ + "/v2/whatever");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.json["error"]["code"], "not_found");
  // The server still serves.
  r = Curl("POST", tool + "search", R"({"prefixes": ["au"]})");
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(HttpTest, BearerToken) {
  StartHttp("s3cret");
  HttpReply r = Curl("GET", base_ + "/v1/tools");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.json["error"]["code"], "unauthenticated");
  r = Curl("GET", base_ + "/v1/tools", "", {"Authorization: Bearer wrong"});
  EXPECT_EQ(r.status, 401);
  r = Curl("GET", base_ + "/v1/tools", "", {"Authorization: Bearer s3cret"});
  EXPECT_EQ(r.status, 200);
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(r.status, 401);
}

TEST(ListenCheck, RefusesPublicBindsWithoutToken) {
  std::string host;
  int port = -1;
  EXPECT_TRUE(CheckListen("127.0.0.1:8080", "", &host, &port).ok());
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 8080);
  EXPECT_TRUE(CheckListen("localhost:0", "", nullptr, nullptr).ok());
  EXPECT_TRUE(CheckListen("[::1]:9", "", nullptr, nullptr).ok());
  EXPECT_EQ(CheckListen("0.0.0.0:8080", "", nullptr, nullptr).code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(CheckListen("10.1.2.3:8080", "", nullptr, nullptr).code(), ErrorCode::kPermissionDenied);
  EXPECT_TRUE(CheckListen("0.0.0.0:8080", "t", nullptr, nullptr).ok());
  EXPECT_EQ(CheckListen("127.0.0.1", "", nullptr, nullptr).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(CheckListen("127.0.0.1:99999", "", nullptr, nullptr).code(), ErrorCode::kInvalidArgument);
}

TEST_F(HttpTest, ServeCommandRefusesPublicBindWithoutToken) {
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  CmdResult r = RunCommand("env -u LAKEQA_TOKEN " + Sh(bin) + " serve --index " + Sh(index_) + " --lake " +
                           Sh(lake_) + " --listen 0.0.0.0:0 2>&1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("without --token"), std::string::npos) << r.out;
}

TEST_F(HttpTest, ConcurrentSessionsAreIsolated) {
  StartHttp();
  const char* files[] = {"files/data.csv", "files/rows.txt", "files/data.txt"};
  const char* datasets[] = {"austin-water", "datagov/apd-searches-by-type", "geo"};
  constexpr int kSessions = 6;
  std::vector<std::string> ids(kSessions);
  std::vector<Json> infos(kSessions);
  std::vector<std::thread> threads;
  for (int i = 0; i < kSessions; ++i) {
    threads.emplace_back([&, i] {
      ids[i] = Curl("POST", base_ + "/v1/sessions").json.value("session_id", "");
      std::string tool = base_ + "/v1/sessions/" + ids[i] + "/tools/";
      Json args = {{"dataset_id", datasets[i % 3]}, {"file_path", files[i % 3]}};
      Curl("POST", tool + "download", args.dump());
      infos[i] = Curl("POST", tool + "get_sandbox_info", "{}").json;
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> distinct(ids.begin(), ids.end());
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kSessions));
  for (int i = 0; i < kSessions; ++i) {
    ASSERT_EQ(infos[i]["file_count"], 1) << infos[i].dump();
    std::string rel = infos[i]["files"][0]["relative_path"];
    EXPECT_NE(rel.find(files[i % 3]), std::string::npos) << rel;
    EXPECT_EQ(infos[i]["sandbox_dir"], "/sandbox");  // every session's own sandbox, never its host path
  }
  // Each trace holds only its own session's calls.
  for (int i = 0; i < kSessions; ++i) {
    Json t = Curl("GET", base_ + "/v1/sessions/" + ids[i] + "/trace").json;
    EXPECT_EQ(t["events"].size(), 2u);
  }
}

// MCP's streamable HTTP with plain curl: the session header and JSON-RPC errors.
TEST_F(HttpTest, McpOverHttpWithCurl) {
  StartHttp();
  HttpReply r =
      Curl("POST", base_ + "/mcp",
           R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
           R"("capabilities":{},"clientInfo":{"name":"curl","version":"1"}}})",
           {"Accept: application/json, text/event-stream"});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["result"]["protocolVersion"], "2025-06-18");
  std::string sid = Header(r.headers, "Mcp-Session-Id");
  ASSERT_FALSE(sid.empty()) << r.headers;
  std::vector<std::string> h = {"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-06-18"};
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","method":"notifications/initialized"})", h);
  EXPECT_EQ(r.status, 202);
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", h);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.json["result"]["tools"].size(), 12u);
  EXPECT_TRUE(r.json["result"]["tools"][0].contains("inputSchema"));
  r = Curl(
      "POST", base_ + "/mcp",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"inspect_file","arguments":{"dataset_id":"../x","file_path":"a.csv"}}})",
      h);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.json["result"]["isError"], true);
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","id":4,"method":"bogus"})", h);
  EXPECT_EQ(r.json["error"]["code"], -32601);
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})");
  EXPECT_EQ(r.status, 400);
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","id":6,"method":"tools/list"})",
           {"Mcp-Session-Id: nope"});
  EXPECT_EQ(r.status, 404);
  r = Curl("DELETE", base_ + "/mcp", "", h);
  EXPECT_EQ(r.status, 204);
  r = Curl("POST", base_ + "/mcp", R"({"jsonrpc":"2.0","id":7,"method":"ping"})", h);
  EXPECT_EQ(r.status, 404);
}

}  // namespace
}  // namespace lakeqa::server::testing
