// Running real clients from the server tests: the curl binary for HTTP and node with the MCP SDK.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/server/server.h"

#include "support/cli_runner.h"
#include "tools/fixture.h"

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
  for (const auto& h : headers)
    cmd += " -H " + Sh(h);
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
  for (char c : headers)
    lower_h += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char c : name)
    lower_n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t at = lower_h.find("\n" + lower_n + ":");
  if (at == std::string::npos) return "";
  size_t start = at + lower_n.size() + 2;
  size_t end = headers.find('\r', start);
  std::string v = headers.substr(start, end - start);
  while (!v.empty() && v.front() == ' ')
    v.erase(0, 1);
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
  bool Send(const std::string& s) { return ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size()); }
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

inline bool HaveCurl() {
  return std::system("command -v curl >/dev/null 2>&1") == 0;
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
