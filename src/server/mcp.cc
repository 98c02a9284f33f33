// MCP (Model Context Protocol) as JSON-RPC 2.0: the session-based revisions (initialize, then requests in
// that session) and the stateless revision 2026-07-28 (every request carries its version and capabilities
// in _meta; sandboxes are handles). The transports (stdio in mcp_stdio.cc, streamable HTTP in
// http_server.cc) only move messages.
#include <chrono>

#include "lakeqa/exec/sandbox.h"

#include "server/mcp_internal.h"

namespace lakeqa::server {

using namespace mcp;

const std::vector<std::string>& LegacyMcpVersions() {
  static const std::vector<std::string> v = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return v;
}

bool IsModernRequest(const Json& m) {
  if (!m.is_object()) return false;
  auto p = m.find("params");
  if (p == m.end() || !p->is_object()) return false;
  auto meta = p->find("_meta");
  return meta != p->end() && meta->is_object() && meta->contains(kMetaVersion);
}

namespace {

bool IsErrorResult(const Json& r) {
  if (!r.is_object()) return false;
  if (r.contains("error")) return true;
  auto it = r.find("success");
  return it != r.end() && it->is_boolean() && !it->get<bool>();
}

Json ToolResult(const Json& r) {
  Json result = {{"content", Json::array({{{"type", "text"}, {"text", DumpJson(r)}}})},
                 {"isError", IsErrorResult(r)}};
  if (r.is_object()) result["structuredContent"] = r;
  return result;
}

bool ValidId(const Json& id) { return id.is_string() || id.is_number_integer() || id.is_number_unsigned(); }

// Status of a resource/prompt/completion failure as a JSON-RPC error (modern revisions use -32602 for a
// missing resource, earlier ones -32002).
Json StatusError(const Json& id, const Status& st, bool modern) {
  int code = kInternalError;
  if (st.code() == ErrorCode::kNotFound) code = modern ? kInvalidParams : kResourceNotFoundLegacy;
  if (st.code() == ErrorCode::kInvalidArgument || st.code() == ErrorCode::kPermissionDenied)
    code = kInvalidParams;
  return RpcError(id, code, st.message());
}

}  // namespace

struct McpConnection::Impl {
  SessionManager& sessions;
  InputLimits limits;
  std::string client;
  std::mutex mu;
  std::shared_ptr<tools::Session> session;  // the session-based revisions' session (from initialize)
  std::string version;                      // negotiated at initialize; "" before
  int log_rank = -1;                        // logging/setLevel; -1 = no log notifications
  std::map<std::string, std::shared_ptr<exec::CancelToken>> inflight;

  Impl(SessionManager& s, InputLimits l, std::string c) : sessions(s), limits(l), client(std::move(c)) {}

  std::optional<Json> HandleOne(McpConnection& self, const Json& m, const McpCallContext& ctx) {
    if (!m.is_object()) return RpcError(nullptr, kInvalidRequest, "a JSON-RPC message must be an object");
    bool is_request = m.contains("id");
    if (!m.contains("method")) {
      if (m.contains("result") || m.contains("error")) return std::nullopt;  // a response sent to us
      return RpcError(is_request && ValidId(m["id"]) ? m["id"] : Json(), kInvalidRequest,
                      "a JSON-RPC request needs a 'method'");
    }
    if (!m.contains("jsonrpc") || m["jsonrpc"] != "2.0")
      return is_request ? std::optional<Json>(RpcError(ValidId(m["id"]) ? m["id"] : Json(), kInvalidRequest,
                                                       "'jsonrpc' must be \"2.0\""))
                        : std::nullopt;
    if (is_request && !ValidId(m["id"]))
      return RpcError(nullptr, kInvalidRequest,
                      "a request id must be a string or an integer, got " + std::string(m["id"].type_name()));
    Json id = is_request ? m["id"] : Json();
    if (!m["method"].is_string())
      return is_request ? std::optional<Json>(RpcError(id, kInvalidRequest, "method must be a string"))
                        : std::nullopt;
    std::string method = m["method"];
    Json params = m.contains("params") ? m["params"] : Json::object();
    if (!params.is_object())
      return is_request ? std::optional<Json>(RpcError(id, kInvalidParams, "params must be an object"))
                        : std::nullopt;
    if (!is_request) {
      if (method == "notifications/cancelled" && params.contains("requestId"))
        self.Cancel(params["requestId"]);
      return std::nullopt;  // notifications/initialized and the rest need no answer
    }
    if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains(kMetaVersion))
      return Modern(id, method, params, ctx);
    return Legacy(self, id, method, params, ctx);
  }

  std::optional<Json> Modern(const Json& id, const std::string& method, const Json& params,
                             const McpCallContext& ctx) {
    const Json& meta = params["_meta"];
    if (!meta[kMetaVersion].is_string())
      return RpcError(id, kInvalidParams, std::string("_meta[\"") + kMetaVersion + "\"] must be a string");
    if (!meta.contains(kMetaCapabilities) || !meta[kMetaCapabilities].is_object())
      return RpcError(
          id, kInvalidParams,
          std::string("_meta[\"") + kMetaCapabilities + "\"] (an object) is required on every request");
    std::string version = meta[kMetaVersion];
    if (version != kMcpModernVersion)
      return RpcError(id, kUnsupportedProtocolVersion, "Unsupported protocol version",
                      {{"supported", SupportedVersions()}, {"requested", version}});
    int log_rank = -1;
    if (meta.contains(kMetaLogLevel)) {
      log_rank = meta[kMetaLogLevel].is_string() ? LogLevelRank(meta[kMetaLogLevel].get<std::string>()) : -1;
      if (log_rank < 0) return RpcError(id, kInvalidParams, std::string("unknown ") + kMetaLogLevel);
    }
    std::optional<Json> r;
    if (method == "server/discover") {
      r = RpcResult(id, {{"supportedVersions", SupportedVersions()},
                         {"capabilities", Capabilities(true)},
                         {"instructions", Instructions()},
                         {"ttlMs", 3600000},
                         {"cacheScope", "public"}});
    } else {
      r = Common(id, method, params, ctx, true, log_rank, nullptr);
    }
    if (r && r->contains("result")) {
      Json& res = (*r)["result"];
      res["resultType"] = "complete";
      res["_meta"][kMetaServerInfo] = ServerInfo();
      if (method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
          method == "resources/templates/list" || method == "resources/read") {
        res["ttlMs"] = method == "resources/list" || method == "resources/read" ? 60000 : 3600000;
        res["cacheScope"] = "public";
      }
    }
    return r;
  }

  Json Capabilities(bool modern) {
    Json c = {{"tools", {{"listChanged", false}}},
              {"resources", {{"subscribe", false}, {"listChanged", false}}},
              {"prompts", {{"listChanged", false}}},
              {"completions", Json::object()}};
    if (!modern) c["logging"] = Json::object();
    return c;
  }

  std::optional<Json> Legacy(McpConnection& self, const Json& id, const std::string& method,
                             const Json& params, const McpCallContext& ctx) {
    if (method == "initialize") {
      std::string version = kMcpProtocolVersion;
      if (params.contains("protocolVersion") && params["protocolVersion"].is_string()) {
        std::string asked = params["protocolVersion"];
        for (const auto& v : LegacyMcpVersions())
          if (asked == v) version = asked;
      }
      std::lock_guard<std::mutex> lock(mu);
      if (!session) {
        auto s = sessions.Create(client);
        // data.code says why (resource_exhausted: a session cap), so HTTP can answer 503 for a full server.
        if (!s.ok())
          return RpcError(id, kInternalError, s.status().ToString(),
                          {{"code", std::string(CodeName(s.status().code()))}});
        session = *s;
        self.session_id_ = session->id();
      }
      version_ = version;
      self.version_ = version;
      return RpcResult(id, {{"protocolVersion", version},
                            {"capabilities", Capabilities(false)},
                            {"serverInfo", ServerInfo()},
                            {"instructions", Instructions()}});
    }
    if (method == "ping") return RpcResult(id, Json::object());
    if (method == "server/discover")
      return RpcError(id, kInvalidParams,
                      std::string("server/discover needs _meta[\"") + kMetaVersion + "\"] and _meta[\"" +
                          kMetaCapabilities + "\"] (protocol " + kMcpModernVersion + ")");
    if (method == "logging/setLevel") {
      int rank = params.contains("level") && params["level"].is_string()
                     ? LogLevelRank(params["level"].get<std::string>())
                     : -1;
      if (rank < 0)
        return RpcError(
            id, kInvalidParams,
            "logging/setLevel needs 'level': debug, info, notice, warning, error, critical, alert or "
            "emergency");
      std::lock_guard<std::mutex> lock(mu);
      log_rank = rank;
      return RpcResult(id, Json::object());
    }
    std::shared_ptr<tools::Session> s;
    int rank;
    {
      std::lock_guard<std::mutex> lock(mu);
      s = session;
      rank = log_rank;
    }
    return Common(id, method, params, ctx, false, rank, s);
  }

  std::optional<Json> Common(const Json& id, const std::string& method, const Json& params,
                             const McpCallContext& ctx, bool modern, int log_rank,
                             std::shared_ptr<tools::Session> legacy_session) {
    tools::ToolSet& tools = sessions.tools();
    if (method == "tools/list") return RpcResult(id, {{"tools", ToolList(modern)}});
    if (method == "tools/call") return CallTool(id, params, ctx, modern, log_rank, std::move(legacy_session));
    if (method == "resources/list") {
      std::string cursor = params.contains("cursor") && params["cursor"].is_string()
                               ? params["cursor"].get<std::string>()
                               : "";
      auto r = ListResources(tools, cursor);
      return r.ok() ? RpcResult(id, *r) : StatusError(id, r.status(), modern);
    }
    if (method == "resources/templates/list")
      return RpcResult(id, {{"resourceTemplates", ResourceTemplates()}});
    if (method == "resources/read") {
      if (!params.contains("uri") || !params["uri"].is_string())
        return RpcError(id, kInvalidParams, "resources/read needs a string 'uri'");
      auto r = ReadResource(tools, params["uri"]);
      if (r.ok()) return RpcResult(id, *r);
      Json e = StatusError(id, r.status(), modern);
      e["error"]["data"] = {{"uri", params["uri"]}};
      return e;
    }
    if (method == "prompts/list") return RpcResult(id, {{"prompts", PromptList()}});
    if (method == "prompts/get") {
      auto r = GetPrompt(params);
      if (!r.ok()) return RpcError(id, kInvalidParams, r.status().message());
      return RpcResult(id, *r);
    }
    if (method == "completion/complete") {
      auto r = Complete(tools, params);
      if (!r.ok()) return RpcError(id, kInvalidParams, r.status().message());
      return RpcResult(id, *r);
    }
    return RpcError(id, kMethodNotFound, "method not found: " + method);
  }

  std::optional<Json> CallTool(const Json& id, const Json& params, const McpCallContext& ctx, bool modern,
                               int log_rank, std::shared_ptr<tools::Session> s) {
    if (!params.contains("name") || !params["name"].is_string())
      return RpcError(id, kInvalidParams, "tools/call needs a string 'name'");
    std::string name = params["name"];
    if (!tools::ToolSet::Known(name) && !(modern && IsSessionTool(name)))
      return RpcError(id, kInvalidParams, "unknown tool: " + name);
    Json args =
        params.contains("arguments") && !params["arguments"].is_null() ? params["arguments"] : Json::object();
    if (!args.is_object()) return RpcError(id, kInvalidParams, "tools/call 'arguments' must be an object");
    bool one_off = false;
    if (modern) {
      std::string handle;
      if (args.contains("session")) {
        if (!args["session"].is_string())
          return RpcResult(
              id, ToolResult(ErrorJson(InvalidArgument("argument 'session' must be a string handle"))));
        handle = args["session"];
        args.erase("session");
      }
      if (name == "open_session") {
        auto created = sessions.Create(client);
        if (!created.ok()) return RpcResult(id, ToolResult(ErrorJson(created.status())));
        return RpcResult(
            id, ToolResult({{"session", (*created)->id()}, {"idle_ttl_s", sessions.policy().idle_ttl_s}}));
      }
      if (name == "close_session") {
        if (handle.empty())
          return RpcResult(
              id, ToolResult(ErrorJson(InvalidArgument("close_session needs the argument 'session'"))));
        Status st = sessions.Close(handle);
        if (!st.ok()) return RpcResult(id, ToolResult(ErrorJson(st)));
        return RpcResult(id, ToolResult({{"session", handle}, {"closed", true}}));
      }
      if (handle.empty()) {
        if (NeedsSandbox(name))
          return RpcResult(id, ToolResult(ErrorJson(InvalidArgument(
                                   name + " works in a sandbox: pass the argument 'session' (a handle from "
                                          "open_session)"))));
        auto created = sessions.CreateForCall();
        if (!created.ok()) return RpcResult(id, ToolResult(ErrorJson(created.status())));
        s = *created;
        one_off = true;
      } else {
        auto found = sessions.Get(handle);
        if (!found.ok()) return RpcResult(id, ToolResult(ErrorJson(found.status())));
        s = *found;
      }
    } else if (!s) {
      return RpcError(id, kInvalidRequest, "call initialize first");
    }

    auto flag = ctx.cancelled ? ctx.cancelled : std::make_shared<exec::CancelToken>();
    std::string key = id.dump();
    {
      std::lock_guard<std::mutex> lock(mu);
      inflight[key] = flag;
    }
    auto t0 = std::chrono::steady_clock::now();
    Json r = sessions.tools().Call(*s, name, args, flag);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    {
      std::lock_guard<std::mutex> lock(mu);
      inflight.erase(key);
    }
    if (one_off) (void)sessions.Close(s->id());
    if (flag->cancelled())
      return std::nullopt;  // cancelled: the client expects nothing more for this request
    Json result = ToolResult(r);
    if (log_rank >= 0 && ctx.notify) {
      bool failed = result["isError"].get<bool>();
      const char* level = failed ? "error" : "info";
      if (LogLevelRank(level) >= log_rank) {
        Json data = {
            {"tool", name}, {"elapsed_ms", static_cast<int64_t>(ms)}, {"status", failed ? "error" : "ok"}};
        if (failed && r.is_object() && r.contains("error")) data["error"] = r["error"];
        ctx.notify({{"jsonrpc", "2.0"},
                    {"method", "notifications/message"},
                    {"params", {{"level", level}, {"logger", "lakeqa"}, {"data", data}}}});
      }
    }
    return RpcResult(id, result);
  }

  std::string version_;
};

McpConnection::McpConnection(SessionManager& sessions, InputLimits limits, std::string client)
    : impl_(std::make_unique<Impl>(sessions, limits, std::move(client))) {}

McpConnection::~McpConnection() = default;

void McpConnection::set_session(std::shared_ptr<tools::Session> s) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->session = std::move(s);
  session_id_ = impl_->session ? impl_->session->id() : "";
}

bool McpConnection::Cancel(const Json& request_id) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->inflight.find(request_id.dump());
  if (it == impl_->inflight.end()) return false;
  it->second->Cancel();
  return true;
}

std::optional<Json> McpConnection::HandleText(std::string_view text, const McpCallContext& ctx) {
  auto j = ParseJsonBounded(text, "JSON-RPC message", impl_->limits.json);
  if (!j.ok()) {
    int code = j.status().code() == ErrorCode::kParseError ? kParseError : kInvalidRequest;
    return RpcError(nullptr, code, j.status().message());
  }
  return Handle(*j, ctx);
}

std::optional<Json> McpConnection::Handle(const Json& message, const McpCallContext& ctx) {
  if (!message.is_array()) return impl_->HandleOne(*this, message, ctx);
  // JSON-RPC batches exist in revision 2025-03-26 only (added there, removed in 2025-06-18).
  std::string version;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    version = impl_->version_;
  }
  if (version != "2025-03-26")
    return RpcError(
        nullptr, kInvalidRequest,
        "JSON-RPC batches are accepted only in protocol version 2025-03-26" +
            (version.empty() ? std::string(" (initialize first)") : "; this session speaks " + version));
  if (message.empty()) return RpcError(nullptr, kInvalidRequest, "an empty batch");
  Json replies = Json::array();
  for (const auto& m : message) {
    if (m.is_object() && m.value("method", "") == "initialize") {
      replies.push_back(RpcError(m.contains("id") ? m["id"] : Json(), kInvalidRequest,
                                 "initialize must not be part of a batch"));
      continue;
    }
    auto r = impl_->HandleOne(*this, m, ctx);
    if (r) replies.push_back(std::move(*r));
  }
  if (replies.empty()) return std::nullopt;
  return replies;
}

}  // namespace lakeqa::server
