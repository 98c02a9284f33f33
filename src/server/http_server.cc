// The HTTP server: the JSON API under /v1 (docs/api.md) and MCP streamable HTTP at /mcp, over HttpCore.
// Every request passes the same gate first: Host and Origin (DNS rebinding), then the bearer token.
#include <condition_variable>
#include <thread>

#include <arpa/inet.h>

#include "lakeqa/common/strings.h"

#include "server/http_core.h"
#include "server/mcp_internal.h"
#include "server/mounts.h"

namespace lakeqa::server {
namespace {

void SendJson(HttpResponse& res, int status, const Json& body) {
  res.status = status;
  res.body = DumpJson(body);
  res.SetHeader("Content-Type", "application/json");
}

void SendError(HttpResponse& res, const Status& st) {
  SendJson(res, HttpStatusFor(st.code()), ErrorJson(st));
}

// "host", "host:port", "[v6]" or "[v6]:port" → the host without brackets and port.
std::string HostOnly(const std::string& authority) {
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    return close == std::string::npos ? authority : authority.substr(1, close - 1);
  }
  size_t colon = authority.find(':');
  if (colon != std::string::npos && authority.find(':', colon + 1) != std::string::npos)
    return authority;  // bare v6
  return authority.substr(0, colon);
}

ErrorCode CodeFromName(const std::string& name) {
  static const std::map<std::string, ErrorCode> kCodes = [] {
    std::map<std::string, ErrorCode> m;
    for (int c = 1; c <= static_cast<int>(ErrorCode::kInternal); ++c)
      m[std::string(CodeName(static_cast<ErrorCode>(c)))] = static_cast<ErrorCode>(c);
    return m;
  }();
  auto it = kCodes.find(name);
  return it == kCodes.end() ? ErrorCode::kInternal : it->second;
}

// The HTTP status of a stateless-revision reply (streamable-http: errors are 4xx there).
int ModernStatus(const Json& reply) {
  if (!reply.is_object() || !reply.contains("error")) return 200;
  int code = reply["error"].value("code", 0);
  if (code == mcp::kMethodNotFound) return 404;
  if (code == mcp::kInvalidParams || code == mcp::kInvalidRequest || code == mcp::kParseError ||
      code == mcp::kHeaderMismatch || code == mcp::kUnsupportedProtocolVersion || code == -32021)
    return 400;
  return 200;
}

// Whether an initialize reply is the refusal of a session cap (mcp.cc puts the error code in data.code).
bool RefusedByCap(const std::optional<Json>& reply) {
  if (!reply || !reply->is_object()) return false;
  auto e = reply->find("error");
  if (e == reply->end() || !e->is_object()) return false;
  auto d = e->find("data");
  return d != e->end() && d->is_object() && d->value("code", "") == CodeName(ErrorCode::kResourceExhausted);
}

}  // namespace

bool IsLoopbackHost(const std::string& host_in) {
  std::string host = ToLowerAscii(host_in);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost" || host == "::1") return true;
  in_addr a{};
  if (::inet_pton(AF_INET, host.c_str(), &a) == 1) return (ntohl(a.s_addr) >> 24) == 127;
  return false;
}

bool IsLoopbackOrigin(const std::string& origin) {
  // scheme://host[:port] exactly; a path, user info or any other host is not loopback.
  std::string o = ToLowerAscii(origin);
  std::string rest;
  if (StartsWith(o, "http://")) rest = o.substr(7);
  else if (StartsWith(o, "https://")) rest = o.substr(8);
  else return false;
  if (rest.empty() || rest.find_first_of("/@?#") != std::string::npos) return false;
  std::string host = HostOnly(rest);
  size_t port_at = rest[0] == '[' ? rest.find("]:") : rest.find(':');
  if (port_at != std::string::npos) {
    std::string port = rest.substr(port_at + (rest[0] == '[' ? 2 : 1));
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
      return false;
  }
  return IsLoopbackHost(host);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // The length is not secret (tokens are generated); the contents are compared without early exit.
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

Status CheckListen(const std::string& listen, const std::string& token, std::string* host, int* port) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return InvalidArgument("--listen must be host:port, e.g. 127.0.0.1:8080; got '" + listen + "'");
  std::string h = listen.substr(0, colon);
  std::string p = listen.substr(colon + 1);
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  char* end = nullptr;
  long n = std::strtol(p.c_str(), &end, 10);
  if (p.empty() || *end != '\0' || n < 0 || n > 65535)
    return InvalidArgument("--listen port must be 0 to 65535; got '" + p + "' in '" + listen + "'");
  if (!IsLoopbackHost(h) && token.empty())
    return Status(ErrorCode::kPermissionDenied,
                  "refusing to listen on " + listen +
                      " (not loopback) without --token: anyone who can reach it "
                      "could run code in the sandboxes");
  if (host != nullptr) *host = h;
  if (port != nullptr) *port = static_cast<int>(n);
  return Status::Ok();
}

struct HttpServer::Impl {
  SessionManager& sessions;
  ServerOptions options;
  std::string listen_host;
  std::unique_ptr<HttpCore> core;
  // MCP sessions of the session-based revisions, by Mcp-Session-Id (the tools session id).
  std::mutex mcp_mu;
  std::map<std::string, std::shared_ptr<McpConnection>> mcp;
  // Closes idle sessions (and their MCP connections) between requests.
  std::thread sweeper;
  std::mutex sweep_mu;
  std::condition_variable sweep_cv;
  bool stopping = false;

  Impl(SessionManager& s, ServerOptions o) : sessions(s), options(std::move(o)) {}

  void Sweep() {
    int ttl = sessions.policy().idle_ttl_s;
    auto every = std::chrono::milliseconds(std::clamp(ttl * 250, 200, 5000));
    std::unique_lock<std::mutex> lock(sweep_mu);
    while (!stopping) {
      sweep_cv.wait_for(lock, every);
      if (stopping) break;
      lock.unlock();
      for (const auto& id : sessions.SweepExpired()) {
        std::lock_guard<std::mutex> g(mcp_mu);
        mcp.erase(id);
      }
      lock.lock();
    }
  }

  bool HostAllowed(const std::string& host) const {
    if (IsLoopbackHost(host)) return true;
    for (const auto& h : options.allowed_hosts)
      if (ToLowerAscii(h) == ToLowerAscii(host)) return true;
    if (ToLowerAscii(host) == ToLowerAscii(listen_host)) return true;
    // Bound to every interface with a token and no list: any name reaches it, the token guards it.
    bool wildcard = listen_host == "0.0.0.0" || listen_host == "::";
    return wildcard && !options.token.empty() && options.allowed_hosts.empty();
  }

  bool OriginConfigured(const std::string& origin) const {
    for (const auto& o : options.allowed_origins)
      if (ToLowerAscii(o) == ToLowerAscii(origin)) return true;
    return false;
  }

  // Host, Origin and token; false when `res` holds the refusal.
  bool Gate(const HttpRequest& req, HttpResponse& res) {
    std::string host_hdr = req.Header("host");
    if (host_hdr.empty()) {
      SendError(res, InvalidArgument("missing Host header"));
      return false;
    }
    std::string host = HostOnly(host_hdr);
    if (!HostAllowed(host)) {
      SendError(res, Status(ErrorCode::kPermissionDenied,
                            "Host '" + host_hdr +
                                "' is not allowed: only loopback names, the listen address and "
                                "--allowed-host entries are served (DNS rebinding protection)"));
      return false;
    }
    std::string origin = req.Header("origin");
    if (req.HasHeader("origin") && !IsLoopbackOrigin(origin) && !OriginConfigured(origin)) {
      SendError(res, Status(ErrorCode::kPermissionDenied,
                            "Origin '" + origin +
                                "' is not allowed: only loopback origins and --allowed-origin "
                                "entries are served (cross-site requests are refused)"));
      return false;
    }
    if (OriginConfigured(origin)) {
      res.SetHeader("Access-Control-Allow-Origin", origin);
      res.SetHeader("Vary", "Origin");
      res.SetHeader("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate");
    }
    if (req.method == "OPTIONS") {
      // A CORS preflight: answered only for configured origins (no CORS otherwise).
      if (!OriginConfigured(origin)) {
        SendError(res, Status(ErrorCode::kPermissionDenied,
                              "CORS is not enabled for this origin (--allowed-origin)"));
        return false;
      }
      res.status = 204;
      res.SetHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
      res.SetHeader("Access-Control-Allow-Headers",
                    "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, "
                    "Mcp-Name, Last-Event-ID");
      res.SetHeader("Access-Control-Max-Age", "600");
      return false;
    }
    if (!options.token.empty() && !IsPublicMountPath(options.mounts, req.path)) {
      std::string auth = req.Header("authorization");
      bool bearer = auth.size() > 7 && ToLowerAscii(auth.substr(0, 7)) == "bearer ";
      if (!bearer || !ConstantTimeEquals(auth.substr(7), options.token)) {
        res.SetHeader("WWW-Authenticate", bearer ? R"(Bearer realm="lakeqa", error="invalid_token")"
                                                 : R"(Bearer realm="lakeqa")");
        SendError(res, Status(ErrorCode::kUnauthenticated,
                              "missing or wrong bearer token (Authorization: Bearer <token>)"));
        return false;
      }
    }
    return true;
  }

  void Handle(const HttpRequest& req, HttpResponse& res) {
    if (!Gate(req, res)) return;
    // /v1/sessions/{id}[/trace | /tools/{tool}]
    std::vector<std::string_view> seg;
    for (auto part : Split(std::string_view(req.path).substr(1), '/')) seg.push_back(part);
    const std::string& path = req.path;
    auto only = [&](const char* method) {
      if (req.method == method) return true;
      res.SetHeader("Allow", method);
      SendError(res, Status(ErrorCode::kInvalidArgument,
                            req.method + " " + path + " is not served; use " + method));
      res.status = 405;
      return false;
    };
    bool in_session = seg.size() >= 3 && seg[0] == "v1" && seg[1] == "sessions" && !seg[2].empty();
    if (path == "/v1/tools") {
      if (only("GET")) SendJson(res, 200, {{"tools", tools::ToolSet::Schemas()}});
    } else if (path == "/v1/sessions") {
      if (!only("POST")) return;
      auto s = sessions.Create(req.peer);
      if (!s.ok()) return SendError(res, s.status());
      SendJson(res, 201, {{"session_id", (*s)->id()}, {"sandbox_dir", (*s)->sandbox_dir()}});
    } else if (in_session && seg.size() == 5 && seg[3] == "tools" && !seg[4].empty()) {
      if (only("POST")) CallTool(req, res, std::string(seg[2]), std::string(seg[4]));
    } else if (in_session && seg.size() == 4 && seg[3] == "trace") {
      if (!only("GET")) return;
      auto s = sessions.Get(std::string(seg[2]));
      if (!s.ok()) return SendError(res, s.status());
      auto t = (*s)->ReadTrace();
      if (!t.ok()) return SendError(res, t.status());
      SendJson(res, 200, {{"session_id", (*s)->id()}, {"events", *t}});
    } else if (in_session && seg.size() == 3) {
      if (!only("DELETE")) return;
      std::string id(seg[2]);
      Status st = sessions.Close(id);
      if (!st.ok()) return SendError(res, st);
      SendJson(res, 200, {{"session_id", id}, {"closed", true}});
    } else if (path == "/mcp") {
      if (req.method == "POST") return McpPost(req, res);
      if (req.method == "DELETE") return McpDelete(req, res);
      // No server-initiated stream: this server only answers requests.
      res.SetHeader("Allow", "POST, DELETE");
      SendJson(res, 405,
               ErrorJson(Unsupported(req.method + " /mcp is not offered (no SSE stream); POST requests")));
    } else if (!ServeMount(options.mounts, req, res)) {
      SendJson(res, 404, ErrorJson(NotFound("no route " + req.method + " " + path + " (docs/api.md)")));
    }
  }

  void CallTool(const HttpRequest& req, HttpResponse& res, const std::string& id, const std::string& tool) {
    auto s = sessions.Get(id);
    if (!s.ok()) return SendError(res, s.status());
    if (!tools::ToolSet::Known(tool))
      return SendError(res, NotFound("unknown tool '" + tool + "' (GET /v1/tools lists them)"));
    Json args = Json::object();
    if (req.body.find_first_not_of(" \t\r\n") != std::string::npos) {
      auto parsed = ParseJsonBounded(req.body, "request body", options.input.json);
      if (!parsed.ok()) return SendError(res, parsed.status());
      args = std::move(*parsed);
    }
    // A client that hangs up cancels its call (the sandbox process is killed, DuckDB interrupted).
    Json r = sessions.tools().Call(**s, tool, args, req.closed);
    int status = 200;
    if (r.is_object() && r.contains("error") && r["error"].is_object() && r["error"].contains("code") &&
        r["error"]["code"].is_string())
      status = HttpStatusFor(CodeFromName(r["error"]["code"]));
    SendJson(res, status, r);
  }

  void McpDelete(const HttpRequest& req, HttpResponse& res) {
    std::string id = req.Header("mcp-session-id");
    if (id.empty())
      return SendJson(
          res, 400,
          mcp::RpcError(nullptr, mcp::kInvalidRequest, "DELETE /mcp needs the Mcp-Session-Id header"));
    {
      std::lock_guard<std::mutex> lock(mcp_mu);
      if (mcp.erase(id) == 0)
        return SendJson(res, 404,
                        mcp::RpcError(nullptr, -32001, "no MCP session " + id + " (closed or expired)"));
    }
    (void)sessions.Close(id);
    res.status = 204;
  }

  // Writes replies and the notifications sent while handling, as one JSON object or, when the client
  // accepts it and there are notifications, as an SSE stream that ends with the reply.
  void Reply(const HttpRequest& req, HttpResponse& res, int status, const std::optional<Json>& reply,
             const std::vector<Json>& notes) {
    if (!reply) {
      res.status = 202;
      return;
    }
    if (!notes.empty() && req.Header("accept").find("text/event-stream") != std::string::npos) {
      res.status = status;
      res.SetHeader("Content-Type", "text/event-stream");
      res.SetHeader("Cache-Control", "no-cache");
      for (const auto& n : notes) res.body += "event: message\ndata: " + DumpJson(n) + "\n\n";
      res.body += "event: message\ndata: " + DumpJson(*reply) + "\n\n";
      return;
    }
    SendJson(res, status, *reply);
  }

  // The stateless revision's header rules (streamable-http "Server Validation"); "" when they hold.
  std::string HeaderMismatch(const HttpRequest& req, const Json& body) {
    const Json& params = body["params"];
    std::string body_version = params["_meta"][mcp::kMetaVersion].is_string()
                                   ? params["_meta"][mcp::kMetaVersion].get<std::string>()
                                   : "";
    std::string hv = req.Header("mcp-protocol-version");
    if (hv.empty()) return "missing MCP-Protocol-Version header";
    if (hv != body_version)
      return "MCP-Protocol-Version header '" + hv + "' does not match _meta protocol version '" +
             body_version + "'";
    std::string method = body["method"].get<std::string>();
    if (!req.HasHeader("mcp-method")) return "missing Mcp-Method header";
    if (req.Header("mcp-method") != method)
      return "Mcp-Method header '" + req.Header("mcp-method") + "' does not match body method '" + method +
             "'";
    const char* field = method == "tools/call" || method == "prompts/get" ? "name"
                        : method == "resources/read"                      ? "uri"
                                                                          : nullptr;
    if (field != nullptr) {
      if (!req.HasHeader("mcp-name")) return "missing Mcp-Name header";
      std::string name = req.Header("mcp-name");
      if (StartsWith(name, "=?base64?") && EndsWith(name, "?=")) {
        std::string decoded;
        if (!mcp::Base64Decode(name.substr(9, name.size() - 11), &decoded))
          return "malformed base64 Mcp-Name header";
        name = decoded;
      }
      std::string want =
          params.contains(field) && params[field].is_string() ? params[field].get<std::string>() : "";
      if (name != want)
        return "Mcp-Name header value '" + name + "' does not match body value '" + want + "'";
    }
    return "";
  }

  void McpPost(const HttpRequest& req, HttpResponse& res) {
    auto body = ParseJsonBounded(req.body, "MCP message", options.input.json);
    if (!body.ok()) {
      int code = body.status().code() == ErrorCode::kParseError ? mcp::kParseError : mcp::kInvalidRequest;
      return SendJson(res, body.status().code() == ErrorCode::kResourceExhausted ? 413 : 400,
                      mcp::RpcError(nullptr, code, body.status().message()));
    }
    std::vector<Json> notes;
    std::mutex notes_mu;
    McpCallContext ctx;
    ctx.notify = [&](const Json& n) {
      std::lock_guard<std::mutex> lock(notes_mu);
      notes.push_back(n);
    };
    ctx.cancelled = req.closed;
    std::string header_version = req.Header("mcp-protocol-version");
    Json id = body->is_object() && body->contains("id") ? (*body)["id"] : Json();
    bool modern_body = IsModernRequest(*body);
    if (modern_body || header_version == kMcpModernVersion) {
      // The stateless revision: no session header, every request on its own.
      if (!modern_body)
        return SendJson(
            res, 400,
            mcp::RpcError(id, mcp::kInvalidParams,
                          std::string("protocol ") + kMcpModernVersion + " requests carry _meta[\"" +
                              mcp::kMetaVersion + "\"] and _meta[\"" + mcp::kMetaCapabilities + "\"]"));
      if (body->contains("method") && (*body)["method"].is_string()) {
        std::string why = HeaderMismatch(req, *body);
        if (!why.empty())
          return SendJson(res, 400, mcp::RpcError(id, mcp::kHeaderMismatch, "Header mismatch: " + why));
      }
      McpConnection stateless(sessions, options.input, req.peer);
      auto reply = stateless.Handle(*body, ctx);
      return Reply(req, res, reply ? ModernStatus(*reply) : 202, reply, notes);
    }
    if (!header_version.empty()) {
      const auto& known = LegacyMcpVersions();
      if (std::find(known.begin(), known.end(), header_version) == known.end())
        return SendJson(
            res, 400,
            mcp::RpcError(id, mcp::kUnsupportedProtocolVersion, "Unsupported protocol version",
                          {{"supported", mcp::SupportedVersions()}, {"requested", header_version}}));
    }
    std::string sid = req.Header("mcp-session-id");
    bool initialize = body->is_object() && body->value("method", "") == "initialize";
    std::shared_ptr<McpConnection> conn;
    if (initialize && sid.empty()) {
      conn = std::make_shared<McpConnection>(sessions, options.input, req.peer);
    } else {
      {
        std::lock_guard<std::mutex> lock(mcp_mu);
        auto it = mcp.find(sid);
        if (it != mcp.end()) conn = it->second;
      }
      if (conn && !sessions.Get(sid).ok()) {  // expired meanwhile
        std::lock_guard<std::mutex> lock(mcp_mu);
        mcp.erase(sid);
        conn.reset();
      }
      if (!conn) {
        return SendJson(res, sid.empty() ? 400 : 404,
                        mcp::RpcError(id, -32001,
                                      sid.empty() ? "missing Mcp-Session-Id header (initialize first)"
                                                  : "unknown, closed or expired MCP session " + sid));
      }
    }
    auto reply = conn->Handle(*body, ctx);
    if (initialize && !conn->session_id().empty()) {
      std::lock_guard<std::mutex> lock(mcp_mu);
      mcp[conn->session_id()] = conn;
    }
    if (!conn->session_id().empty()) res.SetHeader("Mcp-Session-Id", conn->session_id());
    // A session cap refuses initialize with 503 and the JSON-RPC error (-32603 naming the cap), as the
    // reference Python SDK's session manager answers a full server: an HTTP failure that gateways, retry
    // logic and logs see, with the reason in the body. (413, the /v1 status of resource_exhausted, would
    // tell an MCP client that its message was too large.)
    Reply(req, res, initialize && conn->session_id().empty() && RefusedByCap(reply) ? 503 : 200, reply,
          notes);
  }
};

HttpServer::HttpServer(SessionManager& sessions, ServerOptions options)
    : impl_(std::make_unique<Impl>(sessions, std::move(options))) {}

HttpServer::~HttpServer() { Stop(); }

Status HttpServer::Start() {
  std::string host;
  int port = 0;
  LAKEQA_RETURN_IF_ERROR(CheckListen(impl_->options.listen, impl_->options.token, &host, &port));
  impl_->listen_host = host;
  Impl* impl = impl_.get();
  impl_->core = std::make_unique<HttpCore>(
      impl_->options.http, [impl](const HttpRequest& req, HttpResponse& res) { impl->Handle(req, res); });
  LAKEQA_RETURN_IF_ERROR(impl_->core->Bind(host, port));
  port_ = impl_->core->port();
  impl_->core->Start();
  impl_->sweeper = std::thread([impl] { impl->Sweep(); });
  return Status::Ok();
}

void HttpServer::Wait() {
  std::unique_lock<std::mutex> lock(impl_->sweep_mu);
  impl_->sweep_cv.wait(lock, [this] { return impl_->stopping; });
}

void HttpServer::Stop() {
  if (!impl_) return;
  {
    std::lock_guard<std::mutex> lock(impl_->sweep_mu);
    impl_->stopping = true;
  }
  impl_->sweep_cv.notify_all();
  if (impl_->sweeper.joinable()) impl_->sweeper.join();
  if (impl_->core) impl_->core->Stop();
}

}  // namespace lakeqa::server
