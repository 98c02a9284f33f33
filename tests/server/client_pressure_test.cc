// MCP clients under pressure (issue 30, item 14), mostly with the official TypeScript SDK client
// (tests/support/mcp_client.mjs): temporary folders removed on every way a server ends (signals, a client
// closing during a call, a client that vanishes), an oversized message answered with its request's id or
// the connection closed, 413s that every HTTP client receives, and stateless calls outside the session cap.
#include <cstring>
#include <sstream>

#include <gtest/gtest.h>

#include "lakeqa/exec/python.h"

#include "server/mcp_internal.h"
#include "server/server_test_util.h"

namespace lakeqa::server::testing {
namespace {

constexpr uint64_t kFiveMiB = 5ULL << 20;  // over the default 4 MiB message limit

Json Req(Json id, const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

Json Init() {
  return Req(1, "initialize",
             {{"protocolVersion", "2025-06-18"},
              {"capabilities", Json::object()},
              {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
}

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + " ";
  return s;
}

class ClientPressureTest : public ServerFixture {
 protected:
  void SetUp() override {
    ServerFixture::SetUp();
    if (IsSkipped()) return;
    tmp_ = root_ + "/tmp";  // the servers' TMPDIR, where their temporary folders go
    ASSERT_TRUE(MakeDirs(tmp_).ok());
    ::chmod(tmp_.c_str(), 0755);
    sandbox_ = exec::CheckPythonSandbox().ok();
  }
  bool NeedBinary() {
    if (PathExists(LakeqaBin())) return true;
    ADD_FAILURE() << "lakeqa binary not built at " << LakeqaBin();
    return false;
  }
  std::vector<std::string> McpArgs() {
    return {LakeqaBin(), "mcp", "--index", index_, "--lake", lake_, "--cache-dir", root_ + "/cache"};
  }
  std::string McpCommand() {
    std::string cmd;
    for (const auto& a : McpArgs()) cmd += Sh(a) + " ";
    return cmd;
  }
  // A call that runs in the sandbox's Python (so the shim folder lakeqa-py-* exists) for `seconds`, or,
  // without a sandbox, a query that runs until the call timeout.
  Json LongCall(int seconds) {
    if (sandbox_)
      return {
          {"name", "execute_code"},
          {"arguments", {{"code", "import time\ntime.sleep(" + std::to_string(seconds) + ")\nprint(1)"}}}};
    return {{"name", "query"},
            {"arguments", {{"sql", "SELECT sum(a.range * b.range) FROM range(200000) a, range(200000) b"}}}};
  }
  std::string tmp_;
  bool sandbox_ = false;
};

// --- temporary folders on every exit path ---------------------------------------------------------------

// The SDK's close(): it ends stdin, and SIGTERMs a server still running 2 s later (here: inside a call).
TEST_F(ClientPressureTest, SdkCloseDuringACallRemovesEveryTemporaryFolder) {
  if (auto st = SdkAvailable(); !st.ok()) GTEST_SKIP() << st.ToString();
  if (!NeedBinary()) return;
  Json plan = {{"scenario", "close-during-call"},
               {"call", LongCall(60)},
               {"waitDir", tmp_},
               {"waitPrefix", sandbox_ ? "lakeqa-py-" : "lakeqa-serve-"}};
  Json r = RunSdkClient(plan, "stdio " + McpCommand() + " --call-timeout-ms 60000", "TMPDIR=" + Sh(tmp_));
  ASSERT_FALSE(r.contains("fatal")) << r.dump(2);
  EXPECT_EQ(r["started"], true) << r.dump(2);
  // The call cannot succeed: the SDK rejects it when the connection closes, unless the error result of the
  // killed sandbox gets out first.
  EXPECT_TRUE(r["call"]["ok"] == false || r["call"]["isError"] == true) << r.dump(2);
  EXPECT_EQ(r["ended"]["exitCode"], 0) << "SIGTERM is a clean stop, not SIGKILL: " << r.dump(2);
  EXPECT_TRUE(Entries(tmp_).empty()) << "left behind: " << Joined(Entries(tmp_));
}

// Ctrl-C, SIGTERM from a supervisor, SIGHUP from a closed terminal: each removes the sessions folder and
// the Python shim folder, and exits 0.
TEST_F(ClientPressureTest, SignalsToMcpRemoveEveryTemporaryFolder) {
  if (!NeedBinary()) return;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(strsignal(sig));
    ServerProcess p(McpArgs(), {"TMPDIR=" + tmp_});
    ASSERT_TRUE(p.ok());
    p.Send(Init());
    ASSERT_TRUE(p.Next(30000));
    Json call = sandbox_ ? Json{{"name", "execute_code"}, {"arguments", {{"code", "print(1)"}}}}
                         : Json{{"name", "query"}, {"arguments", {{"sql", "SELECT 1"}}}};
    p.Send(Req(2, "tools/call", call));
    auto answer = p.Next(60000);
    ASSERT_TRUE(answer);
    EXPECT_EQ((*answer)["result"]["isError"], false) << answer->dump();
    EXPECT_FALSE(Entries(tmp_).empty()) << "the session lives in a temporary folder under TMPDIR";
    p.Signal(sig);  // with stdin still open, as a client or a user stops a stdio server
    auto status = p.Wait(30000);
    ASSERT_TRUE(status) << "no exit after the signal";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
    EXPECT_TRUE(Entries(tmp_).empty()) << "left behind: " << Joined(Entries(tmp_));
  }
}

// A client that crashes mid-call: stdin ends and stdout is gone. The answer cannot be written (EPIPE, not
// a SIGPIPE that kills the server), the connection ends, and the folders go with it.
TEST_F(ClientPressureTest, ClientVanishingMidCallLeavesNoFolders) {
  if (auto st = SdkAvailable(); !st.ok()) GTEST_SKIP() << st.ToString();
  if (!NeedBinary()) return;
  Json plan = {{"scenario", "vanish-during-call"},
               {"call", LongCall(3)},
               {"waitDir", tmp_},
               {"waitPrefix", sandbox_ ? "lakeqa-py-" : "lakeqa-serve-"}};
  Json r = RunSdkClient(plan, "stdio " + McpCommand() + " --call-timeout-ms 3000", "TMPDIR=" + Sh(tmp_));
  ASSERT_TRUE(r.contains("pid")) << r.dump(2);
  EXPECT_EQ(r["started"], true);
  // The server (now nobody's child) ends once its call returns; its folders must be gone by then.
  std::string stat = "/proc/" + std::to_string(r["pid"].get<int>()) + "/stat";
  auto alive = [&] {
    auto s = ReadFile(stat);
    return s.ok() && s->find(") Z ") == std::string::npos;  // a zombie has ended
  };
  for (int i = 0; i < 600 && alive(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(alive()) << "the server still runs 60 s after its client vanished";
  EXPECT_TRUE(Entries(tmp_).empty()) << "left behind: " << Joined(Entries(tmp_));
}

TEST_F(ClientPressureTest, SignalsToServeRemoveEveryTemporaryFolder) {
  if (!NeedBinary()) return;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(strsignal(sig));
    ServerProcess p(
        {LakeqaBin(), "serve", "--index", index_, "--lake", lake_, "--listen", "127.0.0.1:0", "--json"},
        {"TMPDIR=" + tmp_});
    ASSERT_TRUE(p.ok());
    auto listening = p.Next(30000);
    ASSERT_TRUE(listening && listening->contains("port"));
    std::string base = "http://127.0.0.1:" + std::to_string((*listening)["port"].get<int>());
    std::string id = Curl("POST", base + "/v1/sessions").json["session_id"];
    ASSERT_FALSE(id.empty());
    HttpReply r =
        sandbox_
            ? Curl("POST", base + "/v1/sessions/" + id + "/tools/execute_code", R"J({"code": "print(1)"})J")
            : Curl("POST", base + "/v1/sessions/" + id + "/tools/query", R"({"sql": "SELECT 1"})");
    EXPECT_EQ(r.status, 200) << r.body;
    p.Signal(sig);
    auto status = p.Wait(30000);
    ASSERT_TRUE(status) << "no exit after the signal";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
    EXPECT_TRUE(Entries(tmp_).empty()) << "left behind: " << Joined(Entries(tmp_));
  }
}

// --- oversized messages -----------------------------------------------------------------------------------

TEST(FindJsonRpcId, FromEitherEndWithoutParsingTheMiddle) {
  std::string big(200000, 'x');
  // The Python SDK writes the id first, the TypeScript SDK last; the middle is never looked at.
  std::string first = R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":")" + big + R"("}})";
  std::string last = R"({"method":"tools/call","params":{"a":")" + big + R"("},"jsonrpc":"2.0","id":"r-9"})";
  auto ends = [](const std::string& s) {
    return std::make_pair(s.substr(0, 65536), s.substr(s.size() - 65536));
  };
  auto [h1, t1] = ends(first);
  EXPECT_EQ(mcp::FindJsonRpcId(h1, t1), 7);
  auto [h2, t2] = ends(last);
  EXPECT_EQ(mcp::FindJsonRpcId(h2, t2), "r-9");
  // Nested "id" members and ids inside strings are not the request's.
  std::string nested = R"({"params":{"id":1,"x":"\"id\":2"},"jsonrpc":"2.0","id":3})";
  EXPECT_EQ(mcp::FindJsonRpcId(nested, nested), 3);
  std::string in_string = R"({"method":"m","params":{"q":"},\"id\":5}"}, "id" : 6 })";
  EXPECT_EQ(mcp::FindJsonRpcId("", in_string), 6);
  EXPECT_EQ(mcp::FindJsonRpcId(R"({"a":{"id":1},"id":-4,"b":[)", ""), -4);
  // An id between two huge parts, a notification, a float id, and not JSON at all: no id.
  std::string hidden = R"({"params":{"a":")" + big + R"("},"id":8,"pad":")" + big + R"("})";
  auto [h3, t3] = ends(hidden);
  EXPECT_TRUE(mcp::FindJsonRpcId(h3, t3).is_null());
  EXPECT_TRUE(
      mcp::FindJsonRpcId(R"({"jsonrpc":"2.0","method":"x"})", R"({"jsonrpc":"2.0","method":"x"})").is_null());
  EXPECT_TRUE(mcp::FindJsonRpcId(R"({"id":1.5,)", "").is_null());
  EXPECT_TRUE(mcp::FindJsonRpcId("xxxx", "xxxx").is_null());
  // A quote after a run of backslashes that starts the window cannot be judged (escaped or not): no guess.
  EXPECT_TRUE(mcp::FindJsonRpcId("", R"(\"x"})").is_null());
}

// In process: an oversized line with a readable id is answered with it and the next line is served; one
// without ends the connection (RunMcpStdio returns the reason) and nothing after it is read.
TEST_F(ClientPressureTest, OversizedStdioLines) {
  std::string big(kFiveMiB, 'x');
  std::string with_id = R"({"method":"tools/call","params":{"name":"search","arguments":{"prefixes":[")" +
                        big + R"("]}},"jsonrpc":"2.0","id":41})";
  std::string hidden = R"({"params":{"a":")" + big + R"("},"id":42,"pad":")" + big + R"("})";
  std::istringstream in(with_id + "\n" + Req(43, "ping").dump() + "\n" + hidden + "\n" +
                        Req(44, "ping").dump() + "\n");
  std::ostringstream out;
  Status st = RunMcpStdio(*sessions_, in, out);
  std::vector<Json> lines = JsonLines(out.str());
  ASSERT_EQ(lines.size(), 2u) << out.str();
  EXPECT_EQ(lines[0]["id"], 41);
  EXPECT_EQ(lines[0]["error"]["code"], -32600);
  EXPECT_NE(lines[0]["error"]["message"].get<std::string>().find("over the limit of 4194304 bytes"),
            std::string::npos)
      << lines[0].dump();
  EXPECT_EQ(lines[1]["id"], 43);
  EXPECT_EQ(st.code(), ErrorCode::kResourceExhausted) << st.ToString();
  EXPECT_NE(st.message().find("its id could not be read"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("closing the connection"), std::string::npos) << st.ToString();
}

// The SDK sends a 5 MiB tools/call over stdio: each call fails at once with the server's -32600 (not the
// SDK's own timeout after 60 s, -32001), and the connection still serves the next call.
TEST_F(ClientPressureTest, SdkOversizedStdioCallFailsWithItsId) {
  if (auto st = SdkAvailable(); !st.ok()) GTEST_SKIP() << st.ToString();
  if (!NeedBinary()) return;
  Json r =
      RunSdkClient({{"scenario", "oversized"}, {"bytes", kFiveMiB}, {"tries", 2}}, "stdio " + McpCommand());
  ASSERT_FALSE(r.contains("fatal")) << r.dump(2);
  ASSERT_EQ(r["tries"].size(), 2u);
  for (const auto& t : r["tries"]) {
    EXPECT_EQ(t["ok"], false);
    EXPECT_EQ(t["code"], -32600) << t.dump();
    EXPECT_NE(t["message"].get<std::string>().find("over the limit of 4194304 bytes"), std::string::npos)
        << t.dump();
  }
  EXPECT_EQ(r["after"]["ok"], true) << r["after"].dump();
}

// When the id cannot be read the server closes the connection with the reason on stderr: the SDK's
// pending call fails at once with "Connection closed" (-32000), not after its 60 s timeout.
TEST_F(ClientPressureTest, SdkOversizedCallWithoutAReadableIdClosesTheConnection) {
  if (auto st = SdkAvailable(); !st.ok()) GTEST_SKIP() << st.ToString();
  if (!NeedBinary()) return;
  Json r = RunSdkClient({{"scenario", "hidden-id"}, {"bytes", kFiveMiB}}, "stdio " + McpCommand());
  ASSERT_FALSE(r.contains("fatal")) << r.dump(2);
  EXPECT_EQ(r["hidden"]["ok"], false);
  EXPECT_EQ(r["hidden"]["code"], -32000) << r["hidden"].dump();
  std::string err = r["stderr"];
  EXPECT_NE(err.find("over the limit of 4194304 bytes"), std::string::npos) << err;
  EXPECT_NE(err.find("its id could not be read"), std::string::npos) << err;
}

// 40 oversized POSTs from Node's fetch (undici) and 40 through the SDK's streamable HTTP transport: every
// one receives the 413 (the server reads and drops the body it refused before closing, so no client sees
// ECONNRESET or EPIPE instead).
TEST_F(ClientPressureTest, EveryOversizedPostReceivesThe413) {
  if (auto st = SdkAvailable(); !st.ok()) GTEST_SKIP() << st.ToString();
  StartHttp();
  Json r =
      RunSdkClient({{"scenario", "fetch"}, {"bytes", kFiveMiB}, {"tries", 40}}, "http " + Sh(base_ + "/mcp"));
  ASSERT_EQ(r["tries"].size(), 40u) << r.dump();
  int got = 0;
  for (const auto& t : r["tries"]) {
    got += t.value("status", 0) == 413 ? 1 : 0;
    EXPECT_EQ(t.value("status", 0), 413) << t.dump();
  }
  EXPECT_EQ(got, 40);
  r = RunSdkClient({{"scenario", "oversized"}, {"bytes", kFiveMiB}, {"tries", 40}},
                   "http " + Sh(base_ + "/mcp"));
  ASSERT_FALSE(r.contains("fatal")) << r.dump(2);
  ASSERT_EQ(r["tries"].size(), 40u);
  got = 0;
  for (const auto& t : r["tries"]) {
    got += t["code"] == 413 ? 1 : 0;
    EXPECT_EQ(t["code"], 413) << t.dump();
  }
  EXPECT_EQ(got, 40);
  EXPECT_NE(r["tries"][0]["message"].get<std::string>().find("over the limit of 4194304 bytes"),
            std::string::npos);
  EXPECT_EQ(r["after"]["ok"], true) << r["after"].dump();
}

// --- the session cap --------------------------------------------------------------------------------------

TEST_F(ClientPressureTest, StatelessCallsAreOutsideTheSessionCap) {
  SessionPolicy p;
  p.max_per_client = 3;
  sessions_ = std::make_unique<SessionManager>(*tools_, root_ + "/capped", tools::SessionLimits{}, p);
  StartHttp();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Curl("POST", base_ + "/v1/sessions").status, 201);
  Json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
               {"io.modelcontextprotocol/clientCapabilities", Json::object()}};
  auto call = [&](int id, const std::string& tool, Json args) {
    return Curl(
        "POST", base_ + "/mcp",
        Req(id, "tools/call", {{"name", tool}, {"arguments", std::move(args)}, {"_meta", meta}}).dump(),
        {"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: " + tool});
  };
  // A call without a handle holds no session once it returns: the full cap does not refuse it.
  HttpReply r = call(1, "search", {{"prefixes", {"apd"}}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["result"]["isError"], false) << r.body;
  EXPECT_EQ(r.json["result"]["structuredContent"]["count"], 2) << r.body;
  EXPECT_EQ(sessions_->size(), 3u) << "the call's own session is gone";
  // A handle is a session the client holds: that one counts.
  r = call(2, "open_session", Json::object());
  EXPECT_EQ(r.json["result"]["isError"], true) << r.body;
  EXPECT_EQ(r.json["result"]["structuredContent"]["error"]["code"], "resource_exhausted") << r.body;
  // The session-based initialize over the cap: 503 with the JSON-RPC error naming the cap.
  r = Curl("POST", base_ + "/mcp", Init().dump());
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_EQ(r.json["id"], 1);
  EXPECT_EQ(r.json["error"]["code"], -32603);
  EXPECT_EQ(r.json["error"]["data"]["code"], "resource_exhausted");
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("already has 3 open sessions"),
            std::string::npos);
  EXPECT_EQ(Header(r.headers, "Mcp-Session-Id"), "");
  // And the SDK client sees it at connect, with the status and the reason.
  if (SdkAvailable().ok()) {
    Json c = RunSdkClient({{"scenario", "connect"}}, "http " + Sh(base_ + "/mcp"));
    EXPECT_EQ(c["fatalCode"], 503) << c.dump();
    EXPECT_NE(c.value("fatal", "").find("already has 3 open sessions"), std::string::npos) << c.dump();
  }
}

}  // namespace
}  // namespace lakeqa::server::testing
