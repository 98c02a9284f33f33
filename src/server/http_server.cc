// The HTTP server (cpp-httplib): the JSON API under /v1 (docs/api.md) and MCP streamable HTTP at /mcp.
#include <atomic>
#include <map>
#include <thread>

#include <arpa/inet.h>
#include <httplib.h>

#include "lakeqa/server/server.h"
#include "server/mounts.h"

namespace lakeqa::server {
namespace {

void SendJson(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(DumpJson(body), "application/json");
}

void SendError(httplib::Response& res, const Status& st) {
  SendJson(res, HttpStatusFor(st.code()), ErrorJson(st));
}

bool IsLoopback(const std::string& host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  in_addr a{};
  if (::inet_pton(AF_INET, host.c_str(), &a) == 1) return (ntohl(a.s_addr) >> 24) == 127;
  return false;
}

}  // namespace

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
  if (!IsLoopback(h) && token.empty())
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
  httplib::Server server;
  std::thread thread;
  // MCP connections by Mcp-Session-Id (the tools session id).
  std::mutex mcp_mu;
  std::map<std::string, std::shared_ptr<McpConnection>> mcp;

  Impl(SessionManager& s, ServerOptions o) : sessions(s), options(std::move(o)) {}

  Result<Json> Body(const httplib::Request& req, bool allow_empty) {
    if (req.body.find_first_not_of(" \t\r\n") == std::string::npos) {
      if (allow_empty) return Json::object();
      return InvalidArgument("the request body must be a JSON object");
    }
    return ParseJson(req.body, "request body");
  }

  void Routes() {
    // Headers and body go out as two writes; without TCP_NODELAY the body waits for the client's
    // delayed ACK (~40 ms on Linux), which dominated every tool call's latency in bench/tools_latency.sh.
    server.set_tcp_nodelay(true);
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (!options.token.empty() && !IsPublicMountPath(options.mounts, req.path)) {
        std::string want = "Bearer " + options.token;
        if (req.get_header_value("Authorization") != want) {
          SendError(res, Status(ErrorCode::kUnauthenticated,
                                "missing or wrong bearer token (Authorization: Bearer <token>)"));
          return httplib::Server::HandlerResponse::Handled;
        }
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server.Get("/v1/tools", [](const httplib::Request&, httplib::Response& res) {
      SendJson(res, 200, {{"tools", tools::ToolSet::Schemas()}});
    });
    server.Post("/v1/sessions", [this](const httplib::Request&, httplib::Response& res) {
      auto s = sessions.Create();
      if (!s.ok()) return SendError(res, s.status());
      SendJson(res, 201, {{"session_id", (*s)->id()}, {"sandbox_dir", (*s)->sandbox_dir()}});
    });
    server.Post(
        R"(/v1/sessions/([^/]+)/tools/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
          auto s = sessions.Get(req.matches[1]);
          if (!s.ok()) return SendError(res, s.status());
          std::string tool = req.matches[2];
          if (!tools::ToolSet::Known(tool))
            return SendError(res, NotFound("unknown tool '" + tool + "' (GET /v1/tools lists them)"));
          auto args = Body(req, true);
          if (!args.ok()) return SendError(res, args.status());
          Json r = sessions.tools().Call(**s, tool, *args);
          int status = 200;
          if (r.is_object() && r.contains("error") && r["error"].is_object() && r["error"].contains("code")) {
            // The error's code name back to an HTTP status, through the one table.
            static const std::map<std::string, ErrorCode> kCodes = [] {
              std::map<std::string, ErrorCode> m;
              for (int c = 1; c <= static_cast<int>(ErrorCode::kInternal); ++c)
                m[std::string(CodeName(static_cast<ErrorCode>(c)))] = static_cast<ErrorCode>(c);
              return m;
            }();
            auto it = kCodes.find(r["error"]["code"].get<std::string>());
            status = HttpStatusFor(it == kCodes.end() ? ErrorCode::kInternal : it->second);
          }
          SendJson(res, status, r);
        });
    server.Get(R"(/v1/sessions/([^/]+)/trace)", [this](const httplib::Request& req, httplib::Response& res) {
      auto s = sessions.Get(req.matches[1]);
      if (!s.ok()) return SendError(res, s.status());
      auto t = (*s)->ReadTrace();
      if (!t.ok()) return SendError(res, t.status());
      SendJson(res, 200, {{"session_id", (*s)->id()}, {"events", *t}});
    });
    server.Delete(R"(/v1/sessions/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      Status st = sessions.Close(req.matches[1]);
      if (!st.ok()) return SendError(res, st);
      SendJson(res, 200, {{"session_id", std::string(req.matches[1])}, {"closed", true}});
    });

    server.Post("/mcp", [this](const httplib::Request& req, httplib::Response& res) { McpPost(req, res); });
    server.Get("/mcp", [](const httplib::Request&, httplib::Response& res) {
      // No server-initiated stream: this server only answers requests.
      res.set_header("Allow", "POST, DELETE");
      SendJson(res, 405, ErrorJson(Unsupported("GET /mcp (an SSE stream) is not offered; POST requests")));
    });
    server.Delete("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
      std::string id = req.get_header_value("Mcp-Session-Id");
      {
        std::lock_guard<std::mutex> lock(mcp_mu);
        if (mcp.erase(id) == 0) return SendError(res, NotFound("no MCP session '" + id + "'"));
      }
      (void)sessions.Close(id);
      res.status = 204;
    });
    RegisterMounts(server, options.mounts);
    server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (res.body.empty()) {
        if (res.status == 404)
          SendJson(res, 404,
                   ErrorJson(NotFound("no route " + req.method + " " + req.path + " (docs/api.md)")));
        else
          SendJson(res, res.status,
                   ErrorJson(Status(ErrorCode::kInvalidArgument, "HTTP " + std::to_string(res.status))));
      }
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "unknown";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      SendJson(res, 500, ErrorJson(Internal("unhandled exception: " + what)));
    });
  }

  void McpPost(const httplib::Request& req, httplib::Response& res) {
    // DNS rebinding: a browser page must not drive a local server without the token.
    std::string origin = req.get_header_value("Origin");
    if (!origin.empty() && options.token.empty() && origin.find("://localhost") == std::string::npos &&
        origin.find("://127.0.0.1") == std::string::npos && origin.find("://[::1]") == std::string::npos) {
      return SendError(res, Status(ErrorCode::kPermissionDenied, "Origin " + origin + " is not allowed"));
    }
    auto body = ParseJson(req.body, "MCP message");
    if (!body.ok()) {
      SendJson(res, 400,
               {{"jsonrpc", "2.0"},
                {"id", nullptr},
                {"error", {{"code", -32700}, {"message", body.status().message()}}}});
      return;
    }
    std::string sid = req.get_header_value("Mcp-Session-Id");
    bool initialize = body->is_object() && body->value("method", "") == "initialize";
    std::shared_ptr<McpConnection> conn;
    if (initialize && sid.empty()) {
      conn = std::make_shared<McpConnection>(sessions);
    } else {
      std::lock_guard<std::mutex> lock(mcp_mu);
      auto it = mcp.find(sid);
      if (it == mcp.end()) {
        int status = sid.empty() ? 400 : 404;
        SendJson(res, status,
                 {{"jsonrpc", "2.0"},
                  {"id", body->is_object() && body->contains("id") ? (*body)["id"] : Json()},
                  {"error",
                   {{"code", -32000},
                    {"message", sid.empty() ? "missing Mcp-Session-Id header (initialize first)"
                                            : "unknown or closed MCP session " + sid}}}});
        return;
      }
      conn = it->second;
    }
    auto reply = conn->Handle(*body);
    if (initialize && !conn->session_id().empty()) {
      std::lock_guard<std::mutex> lock(mcp_mu);
      mcp[conn->session_id()] = conn;
    }
    if (!conn->session_id().empty()) res.set_header("Mcp-Session-Id", conn->session_id());
    if (!reply) {
      res.status = 202;
      return;
    }
    SendJson(res, 200, *reply);
  }
};

HttpServer::HttpServer(SessionManager& sessions, ServerOptions options)
    : impl_(std::make_unique<Impl>(sessions, std::move(options))) {}

HttpServer::~HttpServer() {
  Stop();
}

Status HttpServer::Start() {
  std::string host;
  int port = 0;
  LAKEQA_RETURN_IF_ERROR(CheckListen(impl_->options.listen, impl_->options.token, &host, &port));
  int threads = std::max(1, impl_->options.threads);
  impl_->server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  impl_->Routes();
  if (port == 0) {
    port_ = impl_->server.bind_to_any_port(host);
    if (port_ <= 0) return Status(ErrorCode::kIoError, "cannot bind " + host + " on any port");
  } else {
    if (!impl_->server.bind_to_port(host, port))
      return Status(ErrorCode::kIoError,
                    "cannot bind " + impl_->options.listen + " (in use, or not an address here)");
    port_ = port;
  }
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  return Status::Ok();
}

void HttpServer::Wait() {
  if (impl_->thread.joinable()) impl_->thread.join();
}

void HttpServer::Stop() {
  if (!impl_) return;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace lakeqa::server
