// MCP as clients speak it: JSON-RPC validation, batches (2025-03-26 only), the HTTP header rules, the
// stateless revision 2026-07-28 beside the session-based ones, resources, prompts, completion, logging,
// annotations and output schemas, and cancellation of a running call.
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "server/server_test_util.h"

namespace lakeqa::server::testing {
namespace {

class McpProtocolTest : public ServerFixture {
 protected:
  const Json mcp_versions_ = Json{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
};

Json Init(const char* version = "2025-06-18") {
  return {{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", version},
            {"capabilities", Json::object()},
            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
}

Json Req(Json id, const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

Json Meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", Json::object()}};
}

TEST_F(McpProtocolTest, JsonRpcEnvelopeIsValidated) {
  McpConnection c(*sessions_);
  ASSERT_TRUE(c.Handle(Init()));
  Json r = *c.Handle({{"jsonrpc", "1.0"}, {"id", 2}, {"method", "ping"}});
  EXPECT_EQ(r["error"]["code"], -32600);
  r = *c.Handle({{"jsonrpc", "2.0"}, {"id", {{"a", 1}}}, {"method", "ping"}});
  EXPECT_EQ(r["error"]["code"], -32600);
  EXPECT_TRUE(r["id"].is_null());
  r = *c.Handle({{"jsonrpc", "2.0"}, {"id", 1.5}, {"method", "ping"}});
  EXPECT_EQ(r["error"]["code"], -32600);
  r = *c.Handle({{"jsonrpc", "2.0"}, {"id", "s"}, {"method", "ping"}});
  EXPECT_EQ(r["result"], Json::object());
  r = *c.Handle({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}, {"params", 5}});
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_FALSE(c.Handle({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  r = *c.HandleText("{oops");
  EXPECT_EQ(r["error"]["code"], -32700);
}

TEST_F(McpProtocolTest, BatchesOnlyIn20250326) {
  McpConnection old(*sessions_);
  EXPECT_EQ((*old.Handle(Init("2025-03-26")))["result"]["protocolVersion"], "2025-03-26");
  Json batch = Json::array(
      {Req(2, "ping"), {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, Req(3, "tools/list")});
  Json r = *old.Handle(batch);
  ASSERT_TRUE(r.is_array()) << r.dump();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["id"], 2);
  EXPECT_EQ(r[1]["result"]["tools"].size(), 12u);
  EXPECT_EQ((*old.Handle(Json::array()))["error"]["code"], -32600);
  McpConnection now(*sessions_);
  (void)now.Handle(Init("2025-06-18"));
  r = *now.Handle(batch);
  EXPECT_EQ(r["error"]["code"], -32600);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("2025-03-26"), std::string::npos);
}

TEST_F(McpProtocolTest, HttpHeaderRules) {
  StartHttp();
  HttpReply r = Curl("POST", base_ + "/mcp", Init().dump());
  std::string sid = Header(r.headers, "Mcp-Session-Id");
  ASSERT_FALSE(sid.empty());
  r = Curl("POST", base_ + "/mcp", Req(2, "ping").dump(),
           {"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 1999-01-01"});
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(r.json["error"]["code"], -32022);
  EXPECT_EQ(r.json["error"]["data"]["requested"], "1999-01-01");
  r = Curl("DELETE", base_ + "/mcp");
  EXPECT_EQ(r.status, 400);
  r = Curl("DELETE", base_ + "/mcp", "", {"Mcp-Session-Id: " + sid});
  EXPECT_EQ(r.status, 204);
  r = Curl("DELETE", base_ + "/mcp", "", {"Mcp-Session-Id: " + sid});
  EXPECT_EQ(r.status, 404);
}

TEST_F(McpProtocolTest, StatelessRevisionOverHttp) {
  StartHttp();
  auto post = [&](const Json& body, std::vector<std::string> headers) {
    return Curl("POST", base_ + "/mcp", body.dump(), headers);
  };
  std::vector<std::string> h = {"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: server/discover"};
  HttpReply r = post(Req("d", "server/discover", {{"_meta", Meta()}}), h);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["result"]["supportedVersions"][0], "2026-07-28");
  EXPECT_EQ(r.json["result"]["resultType"], "complete");
  EXPECT_EQ(r.json["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "lakeqa");
  EXPECT_EQ(Header(r.headers, "Mcp-Session-Id"), "") << "no session header in the stateless revision";
  // Missing _meta fields: -32602 and 400; a header that disagrees with the body: -32020.
  r = post(Req(2, "tools/list"), {"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/list"});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["error"]["code"], -32602);
  r = post(Req(3, "tools/list", {{"_meta", Meta()}}),
           {"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call"});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["error"]["code"], -32020);
  Json old = Meta();
  old["io.modelcontextprotocol/protocolVersion"] = "2030-01-01";
  r = post(Req(4, "tools/list", {{"_meta", old}}),
           {"MCP-Protocol-Version: 2030-01-01", "Mcp-Method: tools/list"});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["error"]["code"], -32022);
  r = post(Req(5, "ping", {{"_meta", Meta()}}), {"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: ping"});
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.json["error"]["code"], -32601);
  EXPECT_EQ(r.json["id"], 5);
  // A sandbox is a handle: open_session, then pass it to every call.
  auto call = [&](int id, const std::string& tool, Json args) {
    return post(Req(id, "tools/call", {{"name", tool}, {"arguments", std::move(args)}, {"_meta", Meta()}}),
                {"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: " + tool});
  };
  r = call(6, "open_session", Json::object());
  ASSERT_EQ(r.status, 200) << r.body;
  std::string handle = r.json["result"]["structuredContent"]["session"];
  r = call(
      7, "download",
      {{"session", handle}, {"files", {{{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}}});
  EXPECT_EQ(r.json["result"]["isError"], false) << r.body;
  r = call(8, "query",
           {{"session", handle}, {"sql", "SELECT count(*) FROM 'datagov/austin-water/files/data.csv'"}});
  EXPECT_EQ(r.json["result"]["structuredContent"]["rows"][0][0], 2) << r.body;
  r = call(9, "query", {{"sql", "SELECT 1"}});
  EXPECT_EQ(r.json["result"]["isError"], true) << "a sandbox tool needs a handle";
  r = call(10, "search", {{"prefixes", {"apd"}}});
  EXPECT_EQ(r.json["result"]["structuredContent"]["count"], 2) << "lake tools run without one";
  r = call(11, "close_session", {{"session", handle}});
  EXPECT_EQ(r.json["result"]["structuredContent"]["closed"], true);
  EXPECT_EQ(sessions_->size(), 0u);
  // The session-based revision still works on the same endpoint.
  r = Curl("POST", base_ + "/mcp", Init().dump());
  EXPECT_EQ(r.json["result"]["protocolVersion"], "2025-06-18");
}

TEST_F(McpProtocolTest, StatelessRevisionOverStdio) {
  Json meta = Meta();
  std::string in_text;
  for (const Json& m :
       {Req(1, "server/discover", {{"_meta", meta}}),
        Req(2, "tools/call", {{"name", "open_session"}, {"arguments", Json::object()}, {"_meta", meta}}),
        Req(3, "initialize", {{"_meta", meta}})})
    in_text += m.dump() + "\n";
  std::istringstream in(in_text);
  std::ostringstream out;
  ASSERT_TRUE(RunMcpStdio(*sessions_, in, out).ok());
  std::map<int, Json> by_id;
  for (const Json& j : JsonLines(out.str())) by_id[j["id"].get<int>()] = j;
  EXPECT_EQ(by_id[1]["result"]["supportedVersions"], mcp_versions_);
  EXPECT_EQ(by_id[2]["result"]["structuredContent"]["session"].get<std::string>().size(), 32u)
      << by_id[2].dump();
  EXPECT_EQ(by_id[3]["error"]["code"], -32601) << "initialize is not a method of the stateless revision";
}

TEST_F(McpProtocolTest, ClosingTheConnectionCancelsTheCall) {
  StartHttp();
  std::string id = Curl("POST", base_ + "/v1/sessions").json["session_id"];
  std::string body = R"({"sql": "SELECT sum(a.range * b.range) FROM range(200000) a, range(200000) b"})";
  {
    RawConn c(http_->port());
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c.Send("POST /v1/sessions/" + id +
                       "/tools/query HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       "Content-Type: application/json\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n\r\n" + body));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }  // the client hangs up mid-call
  Json events;
  for (int i = 0; i < 200 && events.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    events = Curl("GET", base_ + "/v1/sessions/" + id + "/trace").json["events"];
  }
  ASSERT_EQ(events.size(), 1u) << "the query did not stop";
  EXPECT_EQ(events[0]["status"], "cancelled") << events.dump();
}

TEST_F(McpProtocolTest, ToolsCarryAnnotationsAndOutputSchemas) {
  McpConnection c(*sessions_);
  (void)c.Handle(Init());
  Json tools = (*c.Handle(Req(2, "tools/list")))["result"]["tools"];
  ASSERT_EQ(tools.size(), 12u);
  for (const auto& t : tools) {
    EXPECT_TRUE(t["annotations"].contains("readOnlyHint")) << t.dump();
    EXPECT_EQ(t["annotations"]["openWorldHint"], false);
    EXPECT_EQ(t["outputSchema"]["type"], "object");
  }
  EXPECT_EQ(tools[0]["annotations"]["readOnlyHint"], true);     // search
  EXPECT_EQ(tools[6]["annotations"]["destructiveHint"], true);  // execute_code
  Json r = *c.Handle(Req(3, "tools/call", {{"name", "search"}, {"arguments", {{"prefixes", {"apd"}}}}}));
  EXPECT_EQ(r["result"]["structuredContent"]["count"], 2);
}

TEST_F(McpProtocolTest, ResourcesPromptsCompletionAndLogging) {
  std::vector<Json> notes;
  McpCallContext ctx;
  ctx.notify = [&](const Json& n) { notes.push_back(n); };
  McpConnection c(*sessions_);
  Json init = *c.Handle(Init());
  EXPECT_TRUE(init["result"]["capabilities"].contains("resources"));
  EXPECT_TRUE(init["result"]["capabilities"].contains("prompts"));
  Json r = *c.Handle(Req(2, "resources/list"));
  bool found = false;
  for (const auto& res : r["result"]["resources"])
    found = found || res["uri"] == "lakeqa://datagov/austin-water";
  EXPECT_TRUE(found) << r.dump();
  r = *c.Handle(Req(3, "resources/templates/list"));
  EXPECT_EQ(r["result"]["resourceTemplates"][1]["uriTemplate"], "lakeqa://{namespace}/{dataset}/{+path}");
  r = *c.Handle(Req(4, "resources/read", {{"uri", "lakeqa://datagov/austin-water/files/data.csv"}}));
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_EQ(r["result"]["contents"][0]["mimeType"], "text/csv");
  EXPECT_EQ(r["result"]["contents"][0]["text"].get<std::string>().rfind("station,ph", 0), 0u);
  r = *c.Handle(Req(5, "resources/read", {{"uri", "lakeqa://datagov/austin-water"}}));
  EXPECT_NE(r["result"]["contents"][0]["text"].get<std::string>().find("files/data.csv"), std::string::npos);
  r = *c.Handle(Req(6, "resources/read", {{"uri", "lakeqa://datagov/austin-water/../../etc/passwd"}}));
  EXPECT_EQ(r["error"]["code"], -32602) << r.dump();
  r = *c.Handle(Req(7, "resources/read", {{"uri", "lakeqa://datagov/no-such/x.csv"}}));
  EXPECT_EQ(r["error"]["code"], -32002) << r.dump();
  r = *c.Handle(
      Req(8, "prompts/get", {{"name", "lakeqa_agent"}, {"arguments", {{"question", "How many stations?"}}}}));
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_NE(r["result"]["messages"][1]["content"]["text"].get<std::string>().find("How many stations?"),
            std::string::npos);
  EXPECT_EQ((*c.Handle(Req(9, "prompts/get", {{"name", "lakeqa_agent"}})))["error"]["code"], -32602);
  r = *c.Handle(Req(10, "completion/complete",
                    {{"ref", {{"type", "ref/resource"}, {"uri", "lakeqa://{namespace}/{dataset}"}}},
                     {"argument", {{"name", "dataset"}, {"value", "apd"}}},
                     {"context", {{"arguments", {{"namespace", "datagov"}}}}}}));
  EXPECT_EQ(r["result"]["completion"]["values"], (Json{"apd-searches-by-type"})) << r.dump();
  // logging/setLevel: a tool call then sends a notifications/message.
  EXPECT_EQ((*c.Handle(Req(11, "logging/setLevel", {{"level", "info"}})))["result"], Json::object());
  EXPECT_EQ((*c.Handle(Req(12, "logging/setLevel", {{"level", "loud"}})))["error"]["code"], -32602);
  (void)c.Handle(
      Req(13, "tools/call", {{"name", "list_files"}, {"arguments", {{"dataset_ids", {"austin-water"}}}}}),
      ctx);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0]["method"], "notifications/message");
  EXPECT_EQ(notes[0]["params"]["data"]["tool"], "list_files");
}

// A real `lakeqa mcp` process: requests run concurrently and a cancelled call stops and is never answered.
TEST_F(McpProtocolTest, StdioServesConcurrentlyAndCancels) {
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  ServerProcess p({bin, "mcp", "--index", index_, "--lake", lake_, "--cache-dir", root_ + "/cache",
                   "--sessions-dir", root_ + "/stdio-sessions", "--call-timeout-ms", "60000"});
  ASSERT_TRUE(p.ok());
  p.Send(Init());
  ASSERT_TRUE(p.Next(20000));
  // A cross join DuckDB needs minutes for, then a ping while it runs, then its cancellation.
  p.Send(
      Req(2, "tools/call",
          {{"name", "query"},
           {"arguments", {{"sql", "SELECT sum(a.range * b.range) FROM range(200000) a, range(200000) b"}}}}));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  p.Send(Req(3, "ping"));
  auto pong = p.Next(10000);
  ASSERT_TRUE(pong) << "ping was not answered while the tool ran";
  EXPECT_EQ((*pong)["id"], 3);
  p.Send({{"jsonrpc", "2.0"},
          {"method", "notifications/cancelled"},
          {"params", {{"requestId", 2}, {"reason", "test"}}}});
  p.Send(Req(4, "ping"));
  // The next message is the ping's answer, and nothing for request 2 follows.
  auto next = p.Next(20000);
  ASSERT_TRUE(next);
  EXPECT_EQ((*next)["id"], 4) << next->dump();
  p.Send(Req(5, "tools/call", {{"name", "get_sandbox_info"}, {"arguments", Json::object()}}));
  next = p.Next(20000);
  ASSERT_TRUE(next);
  EXPECT_EQ((*next)["id"], 5) << "a response for the cancelled request was sent: " << next->dump();
  p.CloseInput();
  EXPECT_FALSE(p.Next(5000)) << "output after the end";
  // The trace says the query was cancelled (the work stopped, it did not run to its time limit).
  std::string sdir = root_ + "/stdio-sessions";
  std::string trace;
  for (const auto& e : std::filesystem::directory_iterator(sdir))
    trace = ReadFile(e.path().string() + "/trace.jsonl").value_or("");
  EXPECT_NE(trace.find(R"("status":"cancelled")"), std::string::npos) << trace;
}

}  // namespace
}  // namespace lakeqa::server::testing
