// The servers that give agents the tools: an HTTP JSON API (docs/api.md) and MCP (JSON-RPC 2.0) over stdio
// and over streamable HTTP at /mcp, speaking the session-based revisions 2024-11-05 to 2025-11-25 and the
// stateless revision 2026-07-28 side by side. They hold no tool logic: every call goes to tools::ToolSet
// with a tools::Session, so all transports behave the same. docs/api.md lists every limit and protection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/exec/sandbox.h"
#include "lakeqa/server/mount.h"
#include "lakeqa/tools/session.h"
#include "lakeqa/tools/tools.h"

namespace lakeqa::server {

// The stateless revision and the session-based ones answered in kind (newest first).
inline constexpr const char* kMcpModernVersion = "2026-07-28";
inline constexpr const char* kMcpProtocolVersion = "2025-11-25";  // what initialize answers by default
const std::vector<std::string>& LegacyMcpVersions();

// How many sessions may exist and for how long an unused one is kept.
struct SessionPolicy {
  size_t max_sessions = 1024;  // in all
  size_t max_per_client = 64;  // per client address (HTTP); stdio's own session is not counted
  // A session unused this long is closed and its folder removed; 0 = never. Sessions created without a
  // client (stdio's) are never expired: they live as long as the process.
  int idle_ttl_s = 1800;
};

// Creates, finds, expires and closes sessions (each a folder under sessions_dir). Thread-safe.
class SessionManager {
 public:
  SessionManager(tools::ToolSet& tools, std::string sessions_dir, tools::SessionLimits limits,
                 SessionPolicy policy = {});
  ~SessionManager();

  // A new session with a random id, counted against `client` (an address; "" = not counted per client).
  // Expired sessions are closed first; resource_exhausted names the cap that is full.
  Result<std::shared_ptr<tools::Session>> Create(const std::string& client = "");
  // A session for one call (a stateless-revision tools/call without a handle), outside both caps: nobody
  // holds it once its call returns, and calls running at once (the HTTP workers, stdio's 16) bound how many
  // exist. A client holding its 64 sessions can still make such calls. Close it after the call.
  Result<std::shared_ptr<tools::Session>> CreateForCall();
  // Finds a session and marks it used now.
  Result<std::shared_ptr<tools::Session>> Get(const std::string& id);
  // Removes the session and its folder (sandbox and trace), after a call in flight ends.
  Status Close(const std::string& id);
  // Closes every session idle past the TTL (not one in a call); returns their ids.
  std::vector<std::string> SweepExpired();
  size_t size();

  tools::ToolSet& tools() { return tools_; }
  const std::string& sessions_dir() const { return dir_; }
  const SessionPolicy& policy() const { return policy_; }

 private:
  struct Entry {
    std::shared_ptr<tools::Session> session;
    std::string client;
    std::chrono::steady_clock::time_point last_used;
    bool counted = true;  // false for CreateForCall's
  };
  Result<std::shared_ptr<tools::Session>> Add(const std::string& client, bool counted);
  tools::ToolSet& tools_;
  std::string dir_;
  tools::SessionLimits limits_;
  SessionPolicy policy_;
  std::mutex mu_;
  std::map<std::string, Entry> sessions_;
};

// Bounds for JSON that arrives from outside (HTTP bodies, MCP messages, tool arguments). Parsed values are
// copied, compared and dumped recursively, so a deep document must be refused before it is parsed.
struct JsonLimits {
  size_t max_depth = 64;            // nesting of arrays and objects
  uint64_t max_bytes = 4ULL << 20;  // size of the text
};
// Checks text against limits with one non-recursive scan (resource_exhausted naming `where`, the limit
// and the line and column where it was passed), then parses it like ParseJson.
Result<Json> ParseJsonBounded(std::string_view text, std::string_view where, const JsonLimits& limits);

// Limits every MCP message and HTTP body is held to before it is parsed (docs/api.md).
struct InputLimits {
  JsonLimits json;  // nesting depth and bytes of a JSON body, MCP message or tool arguments
};

// What a request runs with: where notifications for it go and whether it was cancelled.
struct McpCallContext {
  std::function<void(const Json&)> notify;       // null = notifications are dropped
  std::shared_ptr<exec::CancelToken> cancelled;  // set by notifications/cancelled or a closed connection
};

// One MCP connection's JSON-RPC 2.0 dispatcher. The session-based revisions keep their state here (the
// negotiated version, the log level, the tools session created at initialize); a request of the stateless
// revision carries everything in its _meta and names its sandbox by a handle (an `open_session` result).
class McpConnection {
 public:
  McpConnection(SessionManager& sessions, InputLimits limits = {}, std::string client = "");
  ~McpConnection();
  // The response to one message (an object or a batch array), or nullopt when nothing is to be sent
  // (a notification, a response sent to us, a cancelled request).
  std::optional<Json> Handle(const Json& message, const McpCallContext& ctx = {});
  // Checks bounds, parses a line/body and handles it; malformed JSON gets a JSON-RPC parse error.
  std::optional<Json> HandleText(std::string_view text, const McpCallContext& ctx = {});
  // Handles notifications/cancelled for a request in flight: sets its flag. Returns whether one matched.
  bool Cancel(const Json& request_id);
  const std::string& session_id() const { return session_id_; }
  const std::string& protocol_version() const { return version_; }
  void set_session(std::shared_ptr<tools::Session> s);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::string session_id_;
  std::string version_;
};

// Whether a parsed message is a request of the stateless revision (its params._meta names a version).
bool IsModernRequest(const Json& message);

// MCP over stdio: one JSON-RPC message per line in, one per line out, until end of input. Requests run
// concurrently (a ping is answered while a tool runs); notifications/cancelled stops a running call.
Status RunMcpStdio(SessionManager& sessions, std::istream& in, std::ostream& out, InputLimits limits = {});

// The HTTP core's limits (docs/api.md, "Limits").
struct HttpLimits {
  size_t max_header_bytes = 16 << 10;    // request line and headers
  uint64_t max_body_bytes = 4ULL << 20;  // refused with 413 before it is read
  int header_timeout_ms = 10000;         // from a request's first byte to the end of its head
  int body_timeout_ms = 30000;           // from the end of the head to the end of the body
  int idle_timeout_ms = 30000;           // a keep-alive connection with no request
  int write_timeout_ms = 30000;          // writing one response
  // After a refusal sent before the request was read whole (413, 431, ...): the server stops sending (FIN)
  // and reads and drops what the client still sends, up to these bounds, before it closes, so the client
  // reads the refusal instead of a reset (lingering close, as nginx does).
  int linger_ms = 2000;                     // the longest wait for more bytes
  uint64_t max_linger_bytes = 64ULL << 20;  // the most bytes read and dropped
  size_t max_requests_per_connection = 1000;
  int backlog = 1024;
  size_t max_connections = 1024;  // open at once, in all
  size_t max_connections_per_client = 256;
  size_t workers = 32;       // requests handled at once; slow clients never hold one
  size_t max_queued = 1024;  // complete requests waiting for a worker (503 past it)
};

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // host:port; port 0 picks a free one
  std::string token;                      // bearer token; required for a non-loopback host
  HttpLimits http;
  InputLimits input;
  // Hosts (Host header, without port) accepted besides loopback names and the listen host.
  std::vector<std::string> allowed_hosts;
  // Origins (scheme://host[:port]) accepted besides loopback ones; these also get CORS headers.
  std::vector<std::string> allowed_origins;
  std::vector<Mount> mounts;  // routes besides /v1 and /mcp (lakeqa ui), tried in order
};

// Parses host:port; refuses a non-loopback host without a token (permission_denied).
Status CheckListen(const std::string& listen, const std::string& token, std::string* host, int* port);
// Whether a host name or address is loopback: localhost, 127.0.0.0/8, ::1 (brackets allowed).
bool IsLoopbackHost(const std::string& host);
// Whether an Origin header value names a loopback host exactly (http://localhost.evil.example does not).
bool IsLoopbackOrigin(const std::string& origin);
// Compares secrets in time independent of where they differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);
// The token from --token-file (first line, trimmed) or the LAKEQA_TOKEN environment variable, in that
// order; "" when neither is set. A token file readable by others is refused.
Result<std::string> LoadToken(const std::string& token_file);

class HttpServer {
 public:
  HttpServer(SessionManager& sessions, ServerOptions options);
  ~HttpServer();
  // Binds (after CheckListen) and serves on background threads; returns once listening. A port another
  // process listens on is refused with already_exists ("address in use").
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
  SessionPolicy policy;
};

struct Env {
  std::unique_ptr<tools::ToolSet> tools;
  std::unique_ptr<SessionManager> sessions;
  std::string owned_dir;  // removed by the destructor
  ~Env();
};

Result<std::unique_ptr<Env>> OpenEnv(std::unique_ptr<lake::Store> store, const EnvOptions& options);

}  // namespace lakeqa::server
