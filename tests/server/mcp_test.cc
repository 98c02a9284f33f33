// MCP with the official TypeScript SDK client (npm @modelcontextprotocol/sdk, installed by scripts/setup
// into .deps/mcp-sdk): over stdio against `lakeqa mcp` and over streamable HTTP against /mcp. The client
// lists the tools and calls every one of them. Skips when node or the SDK is missing.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "lakeqa/exec/python.h"

#include "lakeqa/common/build_paths.h"
#include "server/server_test_util.h"

namespace lakeqa::server::testing {
namespace {

Json EveryToolCall() {
  Json calls = Json::array();
  calls.push_back({{"name", "search"}, {"arguments", {{"prefixes", {"apd"}}}}});
  calls.push_back({{"name", "search_keyword"}, {"arguments", {{"keywords", {"police"}}}}});
  calls.push_back({{"name", "list_files"}, {"arguments", {{"dataset_ids", {"austin-water"}}}}});
  calls.push_back({{"name", "inspect_file"},
                   {"arguments", {{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}});
  calls.push_back(
      {{"name", "download"},
       {"arguments", {{"files", {{{"dataset_id", "austin-water"}, {"file_path", "files/data.csv"}}}}}}});
  calls.push_back(
      {{"name", "query"},
       {"arguments", {{"sql", "SELECT count(*) AS n FROM 'datagov/austin-water/files/data.csv'"}}}});
  if (exec::CheckPythonSandbox().ok())
    calls.push_back({{"name", "execute_code"}, {"arguments", {{"code", "print(len(FILES))"}}}});
  calls.push_back({{"name", "get_sandbox_info"}, {"arguments", Json::object()}});
  calls.push_back(
      {{"name", "download"},
       {"arguments", {{"files", {{{"dataset_id", "austin-water"}, {"file_path", "%2e%2e/%2e%2e/x"}}}}}}});
  calls.push_back({{"name", "submit_answer"}, {"arguments", {{"answer", "[2]"}}}});
  return calls;
}

class McpTest : public ServerFixture {
 protected:
  void SetUp() override {
    Status st = SdkAvailable();
    if (!st.ok()) GTEST_SKIP() << "MCP SDK client unavailable: " << st.ToString();
    ServerFixture::SetUp();
  }

  Json RunClient(const std::string& transport_args) { return RunSdkClient(EveryToolCall(), transport_args); }

  void CheckReport(const Json& report) {
    ASSERT_FALSE(report.contains("fatal")) << report.dump(2);
    EXPECT_EQ(report["server"]["name"], "lakeqa");
    std::vector<std::string> names;
    for (const auto& t : report["tools"]) names.push_back(t["name"]);
    EXPECT_EQ(names,
              (std::vector<std::string>{"search", "search_keyword", "list_files", "download", "inspect_file",
                                        "query", "execute_code", "get_sandbox_info", "submit_answer",
                                        "graph_find_nodes", "graph_neighbors", "graph_query"}));
    Json calls = EveryToolCall();
    ASSERT_EQ(report["calls"].size(), calls.size()) << report.dump(2);
    for (size_t i = 0; i < calls.size(); ++i) {
      const Json& c = report["calls"][i];
      bool hostile = calls[i]["name"] == "download" && i + 2 == calls.size();
      EXPECT_EQ(c["isError"], hostile) << c.dump();
      ASSERT_TRUE(c["structured"].is_object()) << c.dump();
      auto text = ParseJson(c["text"].get<std::string>(), "content text");
      ASSERT_TRUE(text.ok());
      EXPECT_EQ(*text, c["structured"]);
    }
    EXPECT_EQ(report["calls"][0]["structured"]["count"], 2);
    EXPECT_EQ(report["calls"][5]["structured"]["rows"][0][0], 2);
    EXPECT_EQ(report["calls"][calls.size() - 2]["structured"]["error"]["code"], "permission_denied");
    EXPECT_EQ(report["unknownTool"], "-32602");
    EXPECT_NE(
        std::find(report["resources"].begin(), report["resources"].end(), "lakeqa://datagov/austin-water"),
        report["resources"].end())
        << report["resources"].dump();
    EXPECT_EQ(report["resourceText"].get<std::string>().rfind("station,ph", 0), 0u);
    EXPECT_EQ(report["promptMessages"], 2);
    EXPECT_EQ(report["completions"], (Json{"apd-searches-by-type"}));
    EXPECT_EQ(report["annotated"], true);
  }
};

TEST_F(McpTest, SdkClientOverStdio) {
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  Json report = RunClient("stdio " + Sh(bin) + " mcp --index " + Sh(index_) + " --lake " + Sh(lake_) +
                          " --cache-dir " + Sh(root_ + "/cache"));
  CheckReport(report);
}

TEST_F(McpTest, SdkClientOverStreamableHttp) {
  StartHttp();
  Json report = RunClient("http " + Sh(base_ + "/mcp"));
  CheckReport(report);
  EXPECT_FALSE(report["sessionId"].is_null());
  // terminateSession closed the session.
  EXPECT_EQ(sessions_->size(), 0u);
}

TEST_F(McpTest, SdkClientWithToken) {
  StartHttp("tok");
  Json report = RunClient("http " + Sh(base_ + "/mcp") + " tok");
  CheckReport(report);
}

// The stdio transport in-process: framing, notifications and errors.
TEST_F(McpTest, StdioFraming) {
  std::istringstream in(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
      "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
      "\n\n"
      "{broken\n"
      R"({"jsonrpc":"2.0","id":"x","method":"ping"})"
      "\n");
  std::ostringstream out;
  ASSERT_TRUE(RunMcpStdio(*sessions_, in, out).ok());
  std::vector<Json> lines = JsonLines(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  EXPECT_EQ(lines[0]["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(lines[1]["error"]["code"], -32700);
  EXPECT_EQ(lines[2]["id"], "x");
  EXPECT_EQ(lines[2]["result"], Json::object());
}

}  // namespace
}  // namespace lakeqa::server::testing
