// Private to src/server: what MCP offers besides the JSON-RPC plumbing (tool listings with annotations and
// output schemas, resources over the lake, the agent prompt, completion), shared by mcp.cc and the HTTP
// transport.
#pragma once

#include <string>
#include <string_view>

#include "lakeqa/server/server.h"

namespace lakeqa::server::mcp {

// JSON-RPC and MCP error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kResourceNotFoundLegacy = -32002;
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kUnsupportedProtocolVersion = -32022;

inline constexpr const char* kMetaVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kMetaCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* kMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr const char* kMetaServerInfo = "io.modelcontextprotocol/serverInfo";

Json RpcError(const Json& id, int code, const std::string& message, Json data = nullptr);
// The id of a JSON-RPC message too large to parse (json_bounds.cc), from its first bytes (`head`) and its
// last (`tail`): the top-level members are scanned from the start of the head and from the end of the tail,
// skipping nested values, so an id is found whether a client writes it first (the Python SDK) or last (the
// TypeScript SDK), with no parse of the body. Null when neither window reaches it, or it is not a string or
// an integer.
Json FindJsonRpcId(std::string_view head, std::string_view tail);
Json RpcResult(const Json& id, Json result);
Json ServerInfo();
std::string Instructions();
// Every supported version, the stateless one first (the `supported` list of -32022).
Json SupportedVersions();

// tools/list: the tool schemas with titles, annotations and output schemas. `modern` adds the `session`
// handle argument and the open_session / close_session tools of the stateless revision.
Json ToolList(bool modern);
bool IsSessionTool(std::string_view name);  // open_session, close_session
// Whether a tool needs the caller's sandbox (a handle in the stateless revision).
bool NeedsSandbox(std::string_view name);

// Resources: datasets (lakeqa://<namespace>/<dataset>) and their files
// (lakeqa://<namespace>/<dataset>/<path>).
Result<Json> ListResources(tools::ToolSet& tools, const std::string& cursor);
Json ResourceTemplates();
// Reads a resource with inspect_file's cap (the first 64 KiB of a file; a dataset lists its files).
// not_found for an unknown dataset or file, invalid_argument / permission_denied for a bad URI.
Result<Json> ReadResource(tools::ToolSet& tools, const std::string& uri);

Json PromptList();
Result<Json> GetPrompt(const Json& params);
Result<Json> Complete(tools::ToolSet& tools, const Json& params);

// The numeric severity of an MCP log level (debug 0 ... emergency 7), or -1 for an unknown name.
int LogLevelRank(std::string_view level);

std::string Base64Encode(std::string_view in);
bool Base64Decode(std::string_view in, std::string* out);

}  // namespace lakeqa::server::mcp
