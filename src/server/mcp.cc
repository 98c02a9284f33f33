// MCP (Model Context Protocol) as JSON-RPC 2.0; the transports (stdio here, streamable HTTP in
// http_server.cc) only move messages.
#include <iostream>

#include "lakeqa/server/server.h"

namespace lakeqa::server {
namespace {

Json RpcError(const Json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}
Json RpcResult(const Json& id, Json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

bool IsErrorResult(const Json& r) {
  if (!r.is_object()) return false;
  if (r.contains("error")) return true;
  auto it = r.find("success");
  return it != r.end() && it->is_boolean() && !it->get<bool>();
}

}  // namespace

void McpConnection::set_session(std::shared_ptr<tools::Session> s) {
  std::lock_guard<std::mutex> lock(mu_);
  session_ = std::move(s);
  session_id_ = session_ ? session_->id() : "";
}

std::optional<Json> McpConnection::HandleText(std::string_view text) {
  auto j = ParseJson(text, "JSON-RPC message");
  if (!j.ok()) return RpcError(nullptr, -32700, j.status().message());
  return Handle(*j);
}

std::optional<Json> McpConnection::Handle(const Json& m) {
  if (!m.is_object())
    return RpcError(nullptr, -32600, "a JSON-RPC message must be an object (batches are not supported)");
  Json id = m.contains("id") ? m["id"] : Json();
  bool is_request = m.contains("id");
  if (!m.contains("method")) return std::nullopt;  // a response from the client: nothing to answer
  if (!m["method"].is_string())
    return is_request ? std::optional<Json>(RpcError(id, -32600, "method must be a string")) : std::nullopt;
  std::string method = m["method"];
  Json params = m.contains("params") ? m["params"] : Json::object();
  if (!is_request) return std::nullopt;  // notifications/initialized, notifications/cancelled, ...
  if (!params.is_object()) return RpcError(id, -32602, "params must be an object");

  if (method == "initialize") {
    std::lock_guard<std::mutex> lock(mu_);
    if (!session_) {
      auto s = sessions_.Create();
      if (!s.ok()) return RpcError(id, -32603, s.status().ToString());
      session_ = *s;
      session_id_ = session_->id();
    }
    std::string version = kMcpProtocolVersion;
    if (params.contains("protocolVersion") && params["protocolVersion"].is_string()) {
      std::string asked = params["protocolVersion"];
      if (asked == "2025-06-18" || asked == "2025-03-26" || asked == "2024-11-05") version = asked;
    }
    return RpcResult(id, {{"protocolVersion", version},
                          {"capabilities", {{"tools", {{"listChanged", false}}}}},
                          {"serverInfo", {{"name", "lakeqa"}, {"version", "0.1.0"}}},
                          {"instructions",
                           "Tools over a data lake: search or search_keyword for datasets, list_files, "
                           "inspect_file, download into the sandbox, then query (SQL) or execute_code "
                           "(Python); submit_answer ends the task."}});
  }
  if (method == "ping") return RpcResult(id, Json::object());
  if (method == "tools/list") return RpcResult(id, {{"tools", tools::ToolSet::Schemas()}});
  if (method == "tools/call") {
    std::shared_ptr<tools::Session> s;
    {
      std::lock_guard<std::mutex> lock(mu_);
      s = session_;
    }
    if (!s) return RpcError(id, -32002, "call initialize first");
    if (!params.contains("name") || !params["name"].is_string())
      return RpcError(id, -32602, "tools/call needs a string 'name'");
    std::string name = params["name"];
    if (!tools::ToolSet::Known(name)) return RpcError(id, -32602, "unknown tool: " + name);
    Json args = params.contains("arguments") ? params["arguments"] : Json::object();
    Json r = sessions_.tools().Call(*s, name, args);
    Json result = {{"content", Json::array({{{"type", "text"}, {"text", DumpJson(r)}}})},
                   {"isError", IsErrorResult(r)}};
    if (r.is_object()) result["structuredContent"] = r;
    return RpcResult(id, result);
  }
  return RpcError(id, -32601, "method not found: " + method);
}

Status RunMcpStdio(SessionManager& sessions, std::istream& in, std::ostream& out) {
  McpConnection conn(sessions);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto r = conn.HandleText(line);
    if (r) {
      out << DumpJson(*r) << "\n";
      out.flush();
    }
  }
  // The session (its sandbox and trace) stays: the caller decides whether to keep the folder.
  return Status::Ok();
}

}  // namespace lakeqa::server
