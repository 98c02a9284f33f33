// The server half of the security regression suite (issue 15): each test is an attack that once worked
// (or a protection the server must keep), asserting the attack fails and the server still serves after.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include "server/server_test_util.h"

namespace lakeqa::server::testing {
namespace {

using SecurityTest = ServerFixture;

std::string Deep(size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

void ExpectHealthy(const std::string& base) {
  HttpReply r = Curl("GET", base + "/v1/tools");
  EXPECT_EQ(r.status, 200) << "the server no longer serves: " << r.body;
}

TEST_F(SecurityTest, DeepJsonToV1IsRefusedBeforeParsing) {
  StartHttp();
  std::string id = Curl("POST", base_ + "/v1/sessions").json["session_id"];
  std::string body = R"({"prefixes": )" + Deep(100000) + "}";
  HttpReply r = Curl("POST", base_ + "/v1/sessions/" + id + "/tools/search", body);
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_EQ(r.json["error"]["code"], "resource_exhausted");
  EXPECT_NE(r.body.find("nested deeper than the limit of 64"), std::string::npos) << r.body;
  ExpectHealthy(base_);
  // The trace did not get the hostile body.
  HttpReply t = Curl("GET", base_ + "/v1/sessions/" + id + "/trace");
  EXPECT_EQ(t.json["events"].size(), 0u) << t.body;
}

TEST_F(SecurityTest, DeepJsonToMcpToolsCallIsRefused) {
  StartHttp();
  HttpReply r =
      Curl("POST", base_ + "/mcp",
           R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
           R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  std::string sid = Header(r.headers, "Mcp-Session-Id");
  ASSERT_FALSE(sid.empty());
  std::string call =
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"prefixes":)" +
      Deep(100000) + "}}}";
  r = Curl("POST", base_ + "/mcp", call, {"Mcp-Session-Id: " + sid});
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_EQ(r.json["error"]["code"], -32600) << r.body;
  EXPECT_NE(r.json["error"]["message"].get<std::string>().find("nested deeper"), std::string::npos);
  ExpectHealthy(base_);
  // And over stdio, in process: a clear error line, then the next message is still answered.
  std::istringstream in(call + "\n" + R"({"jsonrpc":"2.0","id":3,"method":"ping"})" + "\n");
  std::ostringstream out;
  ASSERT_TRUE(RunMcpStdio(*sessions_, in, out).ok());
  EXPECT_NE(out.str().find("nested deeper than the limit"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(R"("id":3,"result":{})"), std::string::npos) << out.str();
}

TEST_F(SecurityTest, HugeBodyIsRefusedBeforeItIsRead) {
  ServerOptions o;
  o.http.max_body_bytes = 1 << 20;
  StartHttpWith(o);
  RawConn c(http_->port());
  ASSERT_TRUE(c.ok());
  // Declares 100 MB and sends none of it: the answer comes from the head alone.
  ASSERT_TRUE(
      c.Send("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Content-Length: 104857600\r\n\r\n{"));
  std::string reply = c.ReadAll(5000);
  EXPECT_EQ(reply.rfind("HTTP/1.1 413", 0), 0u) << reply;
  EXPECT_NE(reply.find("over the limit of 1048576 bytes"), std::string::npos) << reply;
  ExpectHealthy(base_);
}

TEST_F(SecurityTest, ForeignOriginsAreRefusedOnEveryRoute) {
  StartHttp();
  const std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  for (const char* origin : {"http://localhost.evil.example", "http://127.0.0.1.evil.example:80", "null",
                             "http://evil.example", "http://localhost@evil.example"}) {
    HttpReply r = Curl("POST", base_ + "/mcp", ping, {std::string("Origin: ") + origin});
    EXPECT_EQ(r.status, 403) << origin << " " << r.body;
    r = Curl("GET", base_ + "/v1/tools", "", {std::string("Origin: ") + origin});
    EXPECT_EQ(r.status, 403) << origin;
    EXPECT_EQ(r.json["error"]["code"], "permission_denied");
    EXPECT_EQ(Header(r.headers, "Access-Control-Allow-Origin"), "");
  }
  HttpReply ok = Curl("GET", base_ + "/v1/tools", "", {"Origin: http://localhost:3000"});
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(Header(ok.headers, "Access-Control-Allow-Origin"), "") << "no CORS unless configured";
  EXPECT_TRUE(IsLoopbackOrigin("http://[::1]:8080"));
  EXPECT_FALSE(IsLoopbackOrigin("http://localhost.evil.example"));
  EXPECT_FALSE(IsLoopbackOrigin("http://localhost/path"));
}

TEST_F(SecurityTest, ConfiguredOriginGetsCors) {
  ServerOptions o;
  o.allowed_origins = {"https://app.example"};
  StartHttpWith(o);
  HttpReply r = Curl("OPTIONS", base_ + "/mcp", "", {"Origin: https://app.example"});
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(Header(r.headers, "Access-Control-Allow-Origin"), "https://app.example");
  r = Curl("OPTIONS", base_ + "/mcp", "", {"Origin: http://localhost:1"});
  EXPECT_EQ(r.status, 403);
}

TEST_F(SecurityTest, HostIsCheckedOnEveryRoute) {
  StartHttp();
  for (const char* path : {"/v1/tools", "/mcp", "/nowhere"}) {
    HttpReply r = Curl("GET", base_ + path, "", {"Host: evil.example"});
    EXPECT_EQ(r.status, 403) << path << " " << r.body;
    EXPECT_NE(r.body.find("DNS rebinding"), std::string::npos);
  }
  HttpReply r = Curl("POST", base_ + "/v1/sessions", "", {"Host: attacker.test:8080"});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(sessions_->size(), 0u);
  EXPECT_EQ(Curl("GET", base_ + "/v1/tools", "", {"Host: localhost:1234"}).status, 200);
  EXPECT_EQ(Curl("GET", base_ + "/v1/tools", "", {"Host: [::1]:1234"}).status, 200);
}

TEST_F(SecurityTest, SessionSlotsAreCappedPerClientAndExpire) {
  SessionPolicy p;
  p.max_per_client = 3;
  p.idle_ttl_s = 1;
  sessions_ = std::make_unique<SessionManager>(*tools_, root_ + "/capped", tools::SessionLimits{}, p);
  StartHttp();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Curl("POST", base_ + "/v1/sessions").status, 201);
  HttpReply r = Curl("POST", base_ + "/v1/sessions");
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_NE(r.body.find("already has 3 open sessions"), std::string::npos) << r.body;
  // Idle sessions expire: the slots come back and their folders are gone.
  bool freed = false;
  for (int i = 0; i < 100 && !freed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    freed = sessions_->size() == 0;
  }
  EXPECT_TRUE(freed);
  EXPECT_EQ(Curl("POST", base_ + "/v1/sessions").status, 201);
}

TEST_F(SecurityTest, SlowClientsDoNotBlockOthers) {
  ServerOptions o;
  o.http.workers = 2;
  o.http.header_timeout_ms = 1500;
  StartHttpWith(o);
  // Slowloris, scaled down: 8 connections (4 × the workers) each sending one header byte every 200 ms.
  std::atomic<bool> stop{false};
  std::atomic<int> closed_by_server{0};
  std::vector<std::thread> slow;
  for (int i = 0; i < 8; ++i) {
    slow.emplace_back([&] {
      RawConn c(http_->port());
      if (!c.ok() || !c.Send("GET /v1/tools HTTP/1.1\r\nHost: 127.0.0.1\r\n")) return;
      for (int k = 0; k < 40 && !stop; ++k) {  // at most 8 s
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (!c.Send("X")) {
          ++closed_by_server;
          return;
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (int i = 0; i < 3; ++i) {
    HttpReply r = Curl("GET", base_ + "/v1/tools");
    EXPECT_EQ(r.status, 200) << "a slow client blocked a normal one";
  }
  for (auto& t : slow) t.join();
  stop = true;
  // The header deadline closed the slow connections instead of serving them forever.
  EXPECT_EQ(closed_by_server.load(), 8);
}

TEST_F(SecurityTest, SixtyFourConcurrentCallsAllSucceed) {
  ServerOptions o;
  o.http.workers = 8;  // fewer workers than calls: the rest wait in the queue, none is reset
  StartHttpWith(o);
  std::string id = Curl("POST", base_ + "/v1/sessions").json["session_id"];
  std::string dir = *MakeTempDir("lakeqa-par-");
  (void)WriteFileAtomic(dir + "/req", R"({"prefixes": ["apd"]})");
  // One curl process, 64 transfers at once (--next gives each its own body).
  std::string cmd = "curl -s --parallel --parallel-immediate --parallel-max 64";
  for (int i = 0; i < 64; ++i)
    cmd += std::string(i > 0 ? " --next" : "") + " -H 'Content-Type: application/json' --data-binary @" +
           Sh(dir + "/req") + " -o /dev/null -w '%{http_code}\\n' " +
           Sh(base_ + "/v1/sessions/" + id + "/tools/search");
  CmdResult r = RunCommand(cmd + " 2>&1");
  (void)RemoveAll(dir);
  int ok = 0;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) ok += line == "200" ? 1 : 0;
  EXPECT_EQ(ok, 64) << r.out;
  EXPECT_EQ(Curl("GET", base_ + "/v1/sessions/" + id + "/trace").json["events"].size(), 64u);
}

TEST_F(SecurityTest, KeepAliveServesManyRequestsOnOneConnection) {
  StartHttp();
  // curl reuses one connection for every URL of a command; num_connects is 1 for the first, 0 after.
  std::string cmd = "curl -s -w '%{http_code} %{num_connects}\\n'";
  for (int i = 0; i < 20; ++i) cmd += " -o /dev/null " + Sh(base_ + "/v1/tools");
  CmdResult r = RunCommand(cmd + " 2>&1");
  int ok = 0, connects = 0;
  std::istringstream lines(r.out);
  int code = 0, n = 0;
  while (lines >> code >> n) {
    ok += code == 200 ? 1 : 0;
    connects += n;
  }
  EXPECT_EQ(ok, 20) << r.out;
  EXPECT_EQ(connects, 1) << "the server closed a keep-alive connection early: " << r.out;
}

TEST_F(SecurityTest, HugeArgumentsAreBoundedInTheTrace) {
  StartHttp();
  std::string id = Curl("POST", base_ + "/v1/sessions").json["session_id"];
  // Under the 4 MiB body limit, so it is served; the trace keeps a preview and the size, not the text.
  std::string sql = "SELECT 42 AS x -- " + std::string(2 << 20, 'a');
  HttpReply r = Curl("POST", base_ + "/v1/sessions/" + id + "/tools/query", Json{{"sql", sql}}.dump());
  EXPECT_EQ(r.status, 200) << r.body.substr(0, 500);
  HttpReply t = Curl("GET", base_ + "/v1/sessions/" + id + "/trace");
  ASSERT_EQ(t.json["events"].size(), 1u) << t.body.substr(0, 500);
  const Json& args = t.json["events"][0]["arguments"];
  EXPECT_EQ(args["truncated"], true) << args.dump().substr(0, 500);
  EXPECT_GT(args["bytes"].get<uint64_t>(), uint64_t{2} << 20);
  EXPECT_LT(t.body.size(), 64u << 10);
  ExpectHealthy(base_);
}

bool ProcessGone(pid_t pid) {
  std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat").value_or("");
  return stat.empty() || stat.find(") Z ") != std::string::npos;
}

// A `lakeqa serve` or `lakeqa ui` process listening on a free loopback port. It is never left running: at the
// end of the test it gets SIGTERM (so it removes its temporary folders), then SIGKILL after 5 s.
struct CliServer {
  pid_t pid = 0;
  int port = 0;
  ~CliServer() {
    if (pid <= 0 || ProcessGone(pid)) return;
    ::kill(pid, SIGTERM);
    for (int i = 0; i < 50 && !ProcessGone(pid); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!ProcessGone(pid)) ::kill(pid, SIGKILL);
  }
};

// Starts `command --listen 127.0.0.1:0 --json` in the background (output to `out`) and waits for the port
// it prints.
void StartCli(const std::string& command, const std::string& out, CliServer& s) {
  CmdResult started = RunCommand(command + " --listen 127.0.0.1:0 --json > " + Sh(out) + " 2>&1 & echo $!");
  s.pid = std::atoi(started.out.c_str());
  ASSERT_GT(s.pid, 0) << started.out;
  for (int i = 0; i < 300 && s.port == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::string text = ReadFile(out).value_or("");
    size_t brace = text.find('{');
    size_t nl = text.find('\n', brace == std::string::npos ? text.size() : brace);
    if (nl == std::string::npos) continue;
    auto j = ParseJson(text.substr(brace, nl - brace), out);
    if (j.ok() && j->contains("port")) s.port = (*j)["port"].get<int>();
  }
  ASSERT_GT(s.port, 0) << ReadFile(out).value_or("");
}

TEST_F(SecurityTest, SigtermRemovesTheServersTemporaryFolders) {
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  std::string tmp = root_ + "/tmp";
  ASSERT_TRUE(MakeDirs(tmp).ok());
  CliServer server;
  StartCli("env -u LAKEQA_TOKEN TMPDIR=" + Sh(tmp) + " " + Sh(bin) + " serve --index " + Sh(index_) +
               " --lake " + Sh(lake_),
           root_ + "/serve.out", server);
  if (HasFatalFailure()) return;
  pid_t pid = server.pid;
  int port = server.port;
  std::string base = "http://127.0.0.1:" + std::to_string(port);
  std::string id = Curl("POST", base + "/v1/sessions").json["session_id"];
  EXPECT_EQ(Curl("POST", base + "/v1/sessions/" + id + "/tools/query", R"({"sql": "SELECT 1"})").status, 200);
  auto serve_dirs = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp))
      n += e.path().filename().string().rfind("lakeqa-serve-", 0) == 0 ? 1 : 0;
    return n;
  };
  EXPECT_EQ(serve_dirs(), 1u) << "the server keeps its sessions in a temporary folder under TMPDIR";
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  bool gone = false;
  for (int i = 0; i < 150 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gone = ProcessGone(pid);
  }
  EXPECT_TRUE(gone) << "lakeqa serve did not exit on SIGTERM";
  EXPECT_EQ(serve_dirs(), 0u) << "SIGTERM left the sessions folder behind";
}

TEST_F(SecurityTest, BusyPortIsRefused) {
  StartHttp();
  ServerOptions o;
  o.listen = "127.0.0.1:" + std::to_string(http_->port());
  HttpServer second(*sessions_, o);
  Status st = second.Start();
  EXPECT_EQ(st.code(), ErrorCode::kAlreadyExists) << st.ToString();
  EXPECT_NE(st.message().find("address in use"), std::string::npos) << st.ToString();
  ExpectHealthy(base_);
  // The CLI: `serve` (which also serves MCP over HTTP) exits non-zero with the reason.
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  CmdResult r = RunCommand("env -u LAKEQA_TOKEN " + Sh(bin) + " serve --index " + Sh(index_) + " --lake " +
                           Sh(lake_) + " --listen 127.0.0.1:" + std::to_string(http_->port()) + " 2>&1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("address in use"), std::string::npos) << r.out;
}

// `lakeqa ui` serves the same API with the same HTTP flags as `serve` (one piece of code reads them).
TEST_F(SecurityTest, UiTakesTheHttpFlagsOfServe) {
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  std::string ui = "env -u LAKEQA_TOKEN TMPDIR=" + Sh(root_) + " " + Sh(bin) + " ui --index " + Sh(index_) +
                   " --lake " + Sh(lake_) + " --project " + Sh(root_ + "/project.sqlite");
  CmdResult open = RunCommand(ui + " --listen 0.0.0.0:0 2>&1");
  EXPECT_NE(open.exit_code, 0);
  EXPECT_NE(open.out.find("without --token"), std::string::npos) << open.out;
  CliServer server;
  StartCli(ui + " --allowed-host lab.example --allowed-origin http://lab.example --max-body-bytes 1024",
           root_ + "/ui.out", server);
  if (HasFatalFailure()) return;
  std::string api = "http://127.0.0.1:" + std::to_string(server.port) + "/api/info";
  EXPECT_EQ(Curl("GET", api, "", {"X-Lakeqa-Client: t", "Host: lab.example"}).status, 200);
  HttpReply other = Curl("GET", api, "", {"X-Lakeqa-Client: t", "Host: attacker.example"});
  EXPECT_EQ(other.status, 403) << other.body;
  HttpReply cors = Curl("GET", api, "", {"X-Lakeqa-Client: t", "Origin: http://lab.example"});
  EXPECT_EQ(cors.status, 200) << cors.body;
  EXPECT_EQ(Header(cors.headers, "Access-Control-Allow-Origin"), "http://lab.example");
  HttpReply big = Curl("POST", "http://127.0.0.1:" + std::to_string(server.port) + "/v1/sessions",
                       "{\"pad\": \"" + std::string(2048, 'x') + "\"}");
  EXPECT_EQ(big.status, 413) << big.body;
}

TEST_F(SecurityTest, TokenOnTheCommandLineIsWarnedAbout) {
  std::string bin = LakeqaBin();
  if (!PathExists(bin)) GTEST_SKIP() << "lakeqa binary not built at " << bin;
  StartHttp();  // its port is busy, so the command below stops right after reading its options
  CmdResult r =
      RunCommand("env -u LAKEQA_TOKEN " + Sh(bin) + " serve --index " + Sh(index_) + " --lake " + Sh(lake_) +
                 " --token visible --listen 127.0.0.1:" + std::to_string(http_->port()) + " 2>&1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("--token is visible to every user of this machine (ps)"), std::string::npos) << r.out;
}

TEST_F(SecurityTest, TokenFromFileOrEnvironmentWithWwwAuthenticate) {
  std::string file = root_ + "/token";
  ASSERT_TRUE(WriteFileAtomic(file, "s3cret\n").ok());
  ::chmod(file.c_str(), 0644);
  EXPECT_EQ(LoadToken(file).status().code(), ErrorCode::kPermissionDenied);
  ::chmod(file.c_str(), 0600);
  auto t = LoadToken(file);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(*t, "s3cret");
  ::setenv("LAKEQA_TOKEN", "fromenv", 1);
  EXPECT_EQ(*LoadToken(""), "fromenv");
  ::unsetenv("LAKEQA_TOKEN");
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
  StartHttp(*t);
  HttpReply r = Curl("GET", base_ + "/v1/tools");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Header(r.headers, "WWW-Authenticate"), R"(Bearer realm="lakeqa")");
  r = Curl("GET", base_ + "/v1/tools", "", {"Authorization: Bearer nope"});
  EXPECT_EQ(r.status, 401);
  EXPECT_NE(Header(r.headers, "WWW-Authenticate").find("invalid_token"), std::string::npos);
  EXPECT_EQ(Curl("GET", base_ + "/v1/tools", "", {"Authorization: Bearer s3cret"}).status, 200);
}

}  // namespace
}  // namespace lakeqa::server::testing
