// Running real clients from the server tests: the curl binary for HTTP and node with the MCP SDK.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/server/server.h"

#include "support/cli_runner.h"
#include "tools/fixture.h"

extern char** environ;

namespace lakeqa::server::testing {

using ::lakeqa::testing::CmdResult;
using ::lakeqa::testing::LakeqaBin;
using ::lakeqa::testing::RunCommand;
using ::lakeqa::testing::Sh;

struct HttpReply {
  int status = 0;
  std::string body;
  std::string headers;
  Json json;
};

// One request with the curl binary (a real HTTP client, not our code).
inline HttpReply Curl(const std::string& method, const std::string& url, const std::string& body = "",
                      const std::vector<std::string>& headers = {}) {
  std::string dir = *MakeTempDir("lakeqa-curl-");
  std::string cmd =
      "curl -s -S -X " + method + " -D " + Sh(dir + "/h") + " -o " + Sh(dir + "/b") + " -w '%{http_code}'";
  for (const auto& h : headers) cmd += " -H " + Sh(h);
  if (!body.empty()) {
    (void)WriteFileAtomic(dir + "/req", body);
    cmd += " -H 'Content-Type: application/json' --data-binary @" + Sh(dir + "/req");
  } else if (method == "POST") {
    cmd += " -H 'Content-Length: 0'";  // as HTTP clients send for an empty POST
  }
  cmd += " " + Sh(url) + " 2>&1";
  CmdResult r = RunCommand(cmd);
  HttpReply reply;
  reply.status = std::atoi(r.out.c_str());
  reply.body = ReadFile(dir + "/b").value_or("");
  reply.headers = ReadFile(dir + "/h").value_or("");
  auto j = ParseJson(reply.body, url);
  if (j.ok()) reply.json = *j;
  (void)RemoveAll(dir);
  return reply;
}

// Header value (case-insensitive name) from curl's -D dump.
inline std::string Header(const std::string& headers, const std::string& name) {
  std::string lower_h, lower_n;
  for (char c : headers) lower_h += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char c : name) lower_n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t at = lower_h.find("\n" + lower_n + ":");
  if (at == std::string::npos) return "";
  size_t start = at + lower_n.size() + 2;
  size_t end = headers.find('\r', start);
  std::string v = headers.substr(start, end - start);
  while (!v.empty() && v.front() == ' ') v.erase(0, 1);
  return v;
}

// A TCP connection to 127.0.0.1:port for requests curl cannot make (a slow head, a huge declared body).
class RawConn {
 public:
  explicit RawConn(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RawConn() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  bool Send(const std::string& s) {
    return ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
  }
  // Reads until the peer closes or timeout_ms passes without data.
  std::string ReadAll(int timeout_ms) {
    std::string out;
    char buf[4096];
    while (true) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) break;
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }

 private:
  int fd_ = -1;
};

inline bool HaveCurl() { return std::system("command -v curl >/dev/null 2>&1") == 0; }

// The official MCP TypeScript SDK (npm @modelcontextprotocol/sdk), installed by scripts/setup into .deps.
inline std::string SdkDir() {
  if (const char* d = std::getenv("LAKEQA_DEPS_DIR")) return std::string(d) + "/mcp-sdk";
  return lakeqa::build_paths::SourceDir() + "/.deps/mcp-sdk";
}

inline Status SdkAvailable() {
  if (std::system("command -v node >/dev/null 2>&1") != 0) return NotFound("node is not on PATH");
  std::string pkg = SdkDir() + "/node_modules/@modelcontextprotocol/sdk/package.json";
  if (!PathExists(pkg))
    return NotFound("the MCP SDK is not installed at " + SdkDir() + " (run scripts/setup)");
  return Status::Ok();
}

// Runs tests/support/mcp_client.mjs with a plan (docs at the top of that file) and a transport ("stdio
// <command...>" or "http <url>", quoted for /bin/sh); its JSON report (the last line it prints), or an
// empty object with a test failure. `env` is prepended to the command (e.g. "TMPDIR=/x").
inline Json RunSdkClient(const Json& plan, const std::string& transport_args, const std::string& env = "") {
  std::string script = lakeqa::build_paths::SourceDir() + "/tests/support/mcp_client.mjs";
  CmdResult r = RunCommand(env + (env.empty() ? "" : " ") + "node " + Sh(script) + " " + Sh(SdkDir()) + " " +
                           Sh(plan.dump()) + " " + transport_args);
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  size_t nl = out.rfind('\n');
  std::string last = nl == std::string::npos ? out : out.substr(nl + 1);
  auto j = ParseJson(last, "mcp client output");
  EXPECT_TRUE(j.ok()) << r.out;
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return j.ok() ? *j : Json::object();
}

// A real `lakeqa` process with pipes on stdin and stdout (stderr is inherited).
class ServerProcess {
 public:
  // `env` entries ("NAME=value") replace or extend the test's environment.
  explicit ServerProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {}) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> vars;
    for (char** e = environ; *e != nullptr; ++e) {
      std::string v = *e;
      bool replaced = false;
      for (const auto& x : env)
        replaced = replaced || v.substr(0, v.find('=') + 1) == x.substr(0, x.find('=') + 1);
      if (!replaced) vars.push_back(v);
    }
    vars.insert(vars.end(), env.begin(), env.end());
    std::vector<char*> envp;
    for (auto& v : vars) envp.push_back(v.data());
    envp.push_back(nullptr);
    if (::posix_spawn(&pid_, args[0], &fa, nullptr, args.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]);
    ::close(out[1]);
    in_ = in[1];
    out_ = out[0];
  }
  ~ServerProcess() {
    if (in_ >= 0) ::close(in_);
    if (pid_ > 0 && !status_) {
      int st;
      if (::waitpid(pid_, &st, WNOHANG) == 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &st, 0);
      }
    }
    if (out_ >= 0) ::close(out_);
  }
  bool ok() const { return pid_ > 0; }
  void Signal(int sig) { ::kill(pid_, sig); }
  void Send(const Json& j) {
    std::string s = j.dump() + "\n";
    (void)!::write(in_, s.data(), s.size());
  }
  void CloseInput() {
    ::close(in_);
    in_ = -1;
  }
  // The next JSON line the process prints, or nullopt after timeout_ms.
  std::optional<Json> Next(int timeout_ms) {
    while (true) {
      size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        auto j = ParseJson(line, "server stdout");
        if (j.ok()) return *j;
        continue;
      }
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) return std::nullopt;
      char b[4096];
      ssize_t n = ::read(out_, b, sizeof b);
      if (n <= 0) return std::nullopt;
      buf_.append(b, static_cast<size_t>(n));
    }
  }
  // The wait status once the process ends (nullopt if it still runs after timeout_ms).
  std::optional<int> Wait(int timeout_ms) {
    for (int waited = 0; !status_; waited += 50) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        status_ = st;
        break;
      }
      if (waited >= timeout_ms) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return status_;
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buf_;
  std::optional<int> status_;
};

// The JSON messages of a stdio transcript, one per line (what RunMcpStdio wrote).
inline std::vector<Json> JsonLines(const std::string& text) {
  std::vector<Json> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    auto j = ParseJson(std::string_view(text).substr(at, nl - at), "stdio output");
    EXPECT_TRUE(j.ok()) << j.status().ToString();
    if (j.ok()) out.push_back(std::move(*j));
    at = nl + 1;
  }
  return out;
}

// The names in a folder (a TMPDIR given to a server process).
inline std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    names.push_back(e.path().filename().string());
  return names;
}

class ServerFixture : public tools::testing::ToolsFixture {
 protected:
  void SetUp() override {
    if (!HaveCurl()) GTEST_SKIP() << "curl is not installed";
    ToolsFixture::SetUp();
    sessions_ = std::make_unique<SessionManager>(*tools_, root_ + "/http-sessions", tools::SessionLimits{});
  }
  void TearDown() override {
    if (http_) http_->Stop();
    http_.reset();
    sessions_.reset();
    ToolsFixture::TearDown();
  }
  void StartHttp(const std::string& token = "") {
    ServerOptions o;
    o.token = token;
    o.http.workers = 16;
    StartHttpWith(o);
  }
  void StartHttpWith(ServerOptions o) {
    o.listen = "127.0.0.1:0";
    http_ = std::make_unique<HttpServer>(*sessions_, o);
    Status st = http_->Start();
    ASSERT_TRUE(st.ok()) << st.ToString();
    base_ = "http://127.0.0.1:" + std::to_string(http_->port());
  }
  std::unique_ptr<SessionManager> sessions_;
  std::unique_ptr<HttpServer> http_;
  std::string base_;
};

}  // namespace lakeqa::server::testing
