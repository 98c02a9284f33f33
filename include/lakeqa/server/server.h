// The servers that give agents the tools: an HTTP JSON API (docs/api.md) and MCP (JSON-RPC 2.0,
// protocol 2025-06-18) over stdio and over streamable HTTP at /mcp. They hold no tool logic: every call
// goes to tools::ToolSet with a tools::Session, so all transports behave the same.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/server/mount.h"
#include "lakeqa/tools/session.h"
#include "lakeqa/tools/tools.h"

namespace lakeqa::server {

inline constexpr const char* kMcpProtocolVersion = "2025-06-18";

// Creates, finds and closes sessions (each a folder under sessions_dir). Thread-safe.
class SessionManager {
 public:
  SessionManager(tools::ToolSet& tools, std::string sessions_dir, tools::SessionLimits limits,
                 size_t max_sessions = 1024);
  ~SessionManager();

  // A new session with a random id.
  Result<std::shared_ptr<tools::Session>> Create();
  Result<std::shared_ptr<tools::Session>> Get(const std::string& id);
  // Removes the session and its folder (sandbox and trace).
  Status Close(const std::string& id);
  size_t size();

  tools::ToolSet& tools() { return tools_; }
  const std::string& sessions_dir() const { return dir_; }

 private:
  tools::ToolSet& tools_;
  std::string dir_;
  tools::SessionLimits limits_;
  size_t max_sessions_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<tools::Session>> sessions_;
};

// One MCP connection's JSON-RPC 2.0 dispatcher: initialize, notifications/initialized, ping,
// tools/list, tools/call. The session is created at initialize.
class McpConnection {
 public:
  explicit McpConnection(SessionManager& sessions) : sessions_(sessions) {}
  // The response to one message, or nullopt for a notification (or a response sent to us).
  std::optional<Json> Handle(const Json& message);
  // Parses a line/body and handles it; malformed JSON gets a JSON-RPC parse error.
  std::optional<Json> HandleText(std::string_view text);
  const std::string& session_id() const { return session_id_; }
  void set_session(std::shared_ptr<tools::Session> s);

 private:
  SessionManager& sessions_;
  std::shared_ptr<tools::Session> session_;
  std::string session_id_;
  std::mutex mu_;
};

// MCP over stdio: one JSON-RPC message per line in, one per line out, until end of input.
Status RunMcpStdio(SessionManager& sessions, std::istream& in, std::ostream& out);

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // host:port; port 0 picks a free one
  std::string token;                      // bearer token; required for a non-loopback host
  int threads = 32;                       // concurrent requests
  std::vector<Mount> mounts;              // routes besides /v1 and /mcp (lakeqa ui), tried in order
};

// Parses host:port; refuses a non-loopback host without a token (permission_denied).
Status CheckListen(const std::string& listen, const std::string& token, std::string* host, int* port);

class HttpServer {
 public:
  HttpServer(SessionManager& sessions, ServerOptions options);
  ~HttpServer();
  // Binds (after CheckListen) and serves on a background thread; returns once listening.
  Status Start();
  int port() const { return port_; }
  // Blocks until Stop() (from another thread or a signal handler's thread).
  void Wait();
  void Stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

// What `lakeqa serve` and `lakeqa mcp` open: the ToolSet over a lake and an index, and the sessions
// under sessions_dir (a temporary folder, removed on destruction, when none is given).
struct EnvOptions {
  std::string index_dir;
  std::string sessions_dir;
  std::string
      cache_dir;  // default: <sessions_dir>/../lakeqa-download-cache (same filesystem, for hard links)
  tools::SessionLimits limits;
  size_t max_sessions = 1024;
};

struct Env {
  std::unique_ptr<tools::ToolSet> tools;
  std::unique_ptr<SessionManager> sessions;
  std::string owned_dir;  // removed by the destructor
  ~Env();
};

Result<std::unique_ptr<Env>> OpenEnv(std::unique_ptr<lake::Store> store, const EnvOptions& options);

}  // namespace lakeqa::server
