// MCP's tool listing (the tool specs with their annotations and output schemas, the stateless revision's
// session handles), resources over the lake, the LakeQA agent prompt and completion of dataset ids.

#include "lakeqa/common/strings.h"
#include "lakeqa/lake/store.h"
#include "lakeqa/tools/paper_prompt.h"
#include "lakeqa/tools/tool_spec.h"

#include "server/mcp_internal.h"

namespace lakeqa::server::mcp {
namespace {

// inspect_file's cap: a resource read returns at most this much of a file.
constexpr uint64_t kResourceReadBytes = 64 << 10;
constexpr uint32_t kResourcePage = 100;
constexpr size_t kMaxCompletions = 100;

// The stateless revision's own tools: a session handle instead of a connection's session. Specs without a
// handler (ToolSet never runs them; mcp.cc does).
const std::vector<tools::ToolSpec>& SessionSpecs() {
  static const std::vector<tools::ToolSpec> specs = [] {
    tools::ToolSpec open;
    open.name = "open_session";
    open.description =
        "Open a sandbox session and return its handle. Pass the handle as `session` to every later "
        "call of the same task (downloads, query, execute_code and the trace live in it). Sessions "
        "unused for idle_ttl_s seconds are closed.";
    open.input_schema = {{"type", "object"}, {"properties", Json::object()}};
    open.compact_view = false;
    open.mcp = {"Open a sandbox session (a handle)", false, false, false};
    open.output_schema = {
        {"type", "object"},
        {"properties", {{"session", {{"type", "string"}}}, {"idle_ttl_s", {{"type", "integer"}}}}}};
    tools::ToolSpec close;
    close.name = "close_session";
    close.description = "Close a sandbox session and delete its files.";
    close.input_schema = {
        {"type", "object"},
        {"properties", {{"session", {{"type", "string"}, {"description", "Handle from open_session"}}}}},
        {"required", {"session"}}};
    close.compact_view = false;
    close.mcp = {"Close a sandbox session", false, true, true};
    close.output_schema = {
        {"type", "object"},
        {"properties", {{"session", {{"type", "string"}}}, {"closed", {{"type", "boolean"}}}}}};
    return std::vector<tools::ToolSpec>{open, close};
  }();
  return specs;
}

// A tool as tools/list shows it: the spec's listing with its title, annotations and output schema.
Json Decorate(const tools::ToolSpec& spec, bool modern) {
  Json tool = spec.Listed();
  const tools::McpAnnotations& m = spec.mcp;
  tool["title"] = m.title;
  tool["annotations"] = {{"title", m.title},
                         {"readOnlyHint", m.read_only},
                         {"destructiveHint", m.destructive},
                         {"idempotentHint", m.idempotent},
                         {"openWorldHint", false}};
  tool["outputSchema"] = spec.output_schema;
  if (modern && !IsSessionTool(spec.name)) {
    Json& props = tool["inputSchema"]["properties"];
    if (props.is_null()) props = Json::object();
    props["session"] = {
        {"type", "string"},
        {"description", spec.needs_sandbox
                            ? "Session handle from open_session (the sandbox this call works in)"
                            : "Session handle from open_session (optional: without one the call "
                              "runs in a fresh session closed after it)"}};
    if (spec.needs_sandbox) tool["inputSchema"]["required"].push_back("session");
  }
  return tool;
}

std::string MimeOf(std::string_view path) {
  std::string p = ToLowerAscii(path);
  if (EndsWith(p, ".csv")) return "text/csv";
  if (EndsWith(p, ".tsv")) return "text/tab-separated-values";
  if (EndsWith(p, ".geojson")) return "application/geo+json";
  if (EndsWith(p, ".json")) return "application/json";
  if (EndsWith(p, ".txt") || EndsWith(p, ".md")) return "text/plain";
  if (EndsWith(p, ".html") || EndsWith(p, ".htm")) return "text/html";
  if (EndsWith(p, ".xml")) return "application/xml";
  if (EndsWith(p, ".parquet")) return "application/vnd.apache.parquet";
  if (EndsWith(p, ".pdf")) return "application/pdf";
  return "application/octet-stream";
}

struct ResourceRef {
  std::string ns, dataset, path;  // path empty for a dataset
};

Result<ResourceRef> ParseUri(tools::ToolSet& tools, const std::string& uri) {
  constexpr std::string_view kScheme = "lakeqa://";
  if (!StartsWith(uri, kScheme))
    return InvalidArgument("resource URI '" + uri + "' is not lakeqa://<namespace>/<dataset>[/<path>]");
  std::string rest = uri.substr(kScheme.size());
  ResourceRef r;
  size_t a = rest.find('/');
  if (a == std::string::npos) return InvalidArgument("resource URI '" + uri + "' names no dataset");
  r.ns = rest.substr(0, a);
  size_t b = rest.find('/', a + 1);
  r.dataset = rest.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  if (b != std::string::npos) r.path = rest.substr(b + 1);
  bool known = false;
  for (const auto& n : tools.namespaces()) known = known || n == r.ns;
  if (!known) return NotFound("no namespace '" + r.ns + "' in the lake (resource " + uri + ")");
  LAKEQA_RETURN_IF_ERROR(tools::ValidateRelativePath(r.dataset, "dataset in the resource URI"));
  if (r.dataset.find('/') != std::string::npos) return InvalidArgument("bad dataset in resource URI " + uri);
  if (b != std::string::npos)
    LAKEQA_RETURN_IF_ERROR(tools::ValidateRelativePath(r.path, "path in the resource URI"));
  return r;
}

}  // namespace

Json RpcError(const Json& id, int code, const std::string& message, Json data) {
  Json e = {{"code", code}, {"message", message}};
  if (!data.is_null()) e["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(e)}};
}

Json RpcResult(const Json& id, Json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json ServerInfo() { return {{"name", "lakeqa"}, {"title", "LakeQA data lake tools"}, {"version", "0.1.0"}}; }

std::string Instructions() {
  return "Tools over a data lake: search or search_keyword for datasets, list_files, inspect_file, download "
         "into the sandbox, then query (SQL) or execute_code (Python); submit_answer ends the task. Datasets "
         "and their files are also resources (lakeqa://<namespace>/<dataset>[/<path>]).";
}

Json SupportedVersions() {
  Json v = Json::array({kMcpModernVersion});
  for (const auto& s : LegacyMcpVersions()) v.push_back(s);
  return v;
}

bool IsSessionTool(std::string_view name) { return name == "open_session" || name == "close_session"; }

bool NeedsSandbox(std::string_view name) {
  const tools::ToolSpec* spec = tools::FindToolSpec(name);
  return spec != nullptr && spec->needs_sandbox;
}

Json ToolList(bool modern) {
  Json out = Json::array();
  for (const auto& spec : tools::ToolSpecs()) out.push_back(Decorate(spec, modern));
  if (modern) {
    for (const auto& spec : SessionSpecs()) out.push_back(Decorate(spec, true));
  }
  return out;
}

Result<Json> ListResources(tools::ToolSet& tools, const std::string& cursor) {
  // The cursor is "<namespace index>:<the store's continuation token>".
  size_t ns_index = 0;
  std::string token;
  if (!cursor.empty()) {
    size_t colon = cursor.find(':');
    char* end = nullptr;
    ns_index = std::strtoul(cursor.c_str(), &end, 10);
    if (colon == std::string::npos || end != cursor.c_str() + colon)
      return InvalidArgument("malformed resources/list cursor '" + cursor + "'");
    token = cursor.substr(colon + 1);
  }
  const auto& nss = tools.namespaces();
  Json resources = Json::array();
  std::string next;
  while (ns_index < nss.size() && resources.size() < kResourcePage) {
    lake::ListOptions lo;
    lo.prefix = nss[ns_index] + "/";
    lo.delimiter = '/';
    lo.max_keys = kResourcePage - static_cast<uint32_t>(resources.size());
    lo.continuation_token = token;
    LAKEQA_ASSIGN_OR_RETURN(lake::ListPage page, tools.store().List(lo));
    for (const auto& p : page.common_prefixes) {
      std::string id = p.substr(0, p.size() - 1);  // "<namespace>/<dataset>"
      resources.push_back({{"uri", "lakeqa://" + id},
                           {"name", id},
                           {"title", id},
                           {"mimeType", "application/json"},
                           {"description", "The files of dataset " + id + " (paths and sizes)"}});
    }
    if (!page.next_continuation_token.empty()) {
      token = page.next_continuation_token;
      next = std::to_string(ns_index) + ":" + token;
      break;
    }
    ++ns_index;
    token.clear();
    next = ns_index < nss.size() ? std::to_string(ns_index) + ":" : "";
  }
  Json r = {{"resources", resources}};
  if (!next.empty()) r["nextCursor"] = next;
  return r;
}

Json ResourceTemplates() {
  return Json::array(
      {{{"uriTemplate", "lakeqa://{namespace}/{dataset}"},
        {"name", "dataset"},
        {"title", "A dataset's file list"},
        {"mimeType", "application/json"},
        {"description", "The files of one dataset: paths relative to the dataset, and sizes"}},
       {{"uriTemplate", "lakeqa://{namespace}/{dataset}/{+path}"},
        {"name", "dataset-file"},
        {"title", "The start of a dataset file"},
        {"description", "The first 64 KiB of one file of a dataset (inspect_file's cap); text or base64"}}});
}

Result<Json> ReadResource(tools::ToolSet& tools, const std::string& uri) {
  LAKEQA_ASSIGN_OR_RETURN(ResourceRef ref, ParseUri(tools, uri));
  std::string prefix = ref.ns + "/" + ref.dataset + "/";
  if (ref.path.empty()) {
    lake::ListOptions lo;
    lo.prefix = prefix;
    lo.max_keys = 1000;
    LAKEQA_ASSIGN_OR_RETURN(lake::ListPage page, tools.store().List(lo));
    if (page.objects.empty()) return NotFound("no dataset " + ref.ns + "/" + ref.dataset + " in the lake");
    Json files = Json::array();
    for (const auto& o : page.objects)
      files.push_back(
          {{"path", o.key.substr(prefix.size())}, {"size", o.size}, {"uri", "lakeqa://" + o.key}});
    Json listing = {{"dataset_id", ref.ns + "/" + ref.dataset},
                    {"files", files},
                    {"truncated", !page.next_continuation_token.empty()}};
    return Json{
        {"contents",
         Json::array({{{"uri", uri}, {"mimeType", "application/json"}, {"text", DumpJson(listing)}}})}};
  }
  std::string key = prefix + ref.path;
  auto st = tools.store().Stat(key);
  if (!st.ok()) {
    if (st.status().code() == ErrorCode::kNotFound)
      return NotFound("no file " + ref.path + " in dataset " + ref.ns + "/" + ref.dataset);
    return st.status();
  }
  uint64_t n = std::min<uint64_t>(st->size, kResourceReadBytes);
  LAKEQA_ASSIGN_OR_RETURN(std::string bytes, tools.store().ReadRange(key, 0, n));
  bool truncated = st->size > n;
  Json c = {{"uri", uri}, {"mimeType", MimeOf(ref.path)}};
  // A cut in the middle of a UTF-8 sequence is still text: drop the partial character.
  std::string_view text = truncated ? TruncateUtf8(bytes, bytes.size()) : std::string_view(bytes);
  if (IsValidUtf8(text) && text.find('\0') == std::string_view::npos) c["text"] = std::string(text);
  else c["blob"] = Base64Encode(bytes);
  c["_meta"] = {
      {"lakeqa/size_bytes", st->size}, {"lakeqa/bytes_returned", n}, {"lakeqa/truncated", truncated}};
  return Json{{"contents", Json::array({c})}};
}

Json PromptList() {
  return Json::array(
      {{{"name", "lakeqa_agent"},
        {"title", "LakeQA agent"},
        {"description",
         "The LakeQA agent's instructions and first message for a question: find the datasets, "
         "download, compute and submit_answer with the tools of this server."},
        {"arguments", Json::array({{{"name", "question"},
                                    {"description", "The question to answer from the lake"},
                                    {"required", true}}})}}});
}

Result<Json> GetPrompt(const Json& params) {
  std::string name = params.value("name", "");
  if (name != "lakeqa_agent") return NotFound("no prompt '" + name + "' (prompts/list names lakeqa_agent)");
  const Json* args = params.contains("arguments") ? &params["arguments"] : nullptr;
  if (args == nullptr || !args->is_object() || !args->contains("question") ||
      !(*args)["question"].is_string() || (*args)["question"].get<std::string>().empty())
    return InvalidArgument("prompt lakeqa_agent needs the argument 'question' (a non-empty string)");
  std::string question = (*args)["question"];
  return Json{
      {"description", "LakeQA agent for: " + question.substr(0, 200)},
      {"messages",
       Json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", tools::PaperSystemPrompt()}}}},
                    {{"role", "user"},
                     {"content", {{"type", "text"}, {"text", tools::PaperFirstUserMessage(question)}}}}})}};
}

Result<Json> Complete(tools::ToolSet& tools, const Json& params) {
  if (!params.contains("ref") || !params["ref"].is_object() || !params.contains("argument") ||
      !params["argument"].is_object())
    return InvalidArgument("completion/complete needs 'ref' and 'argument' objects");
  std::string arg = params["argument"].value("name", "");
  std::string value = params["argument"].value("value", "");
  std::string ns_hint;
  if (params.contains("context") && params["context"].is_object() &&
      params["context"].contains("arguments") && params["context"]["arguments"].is_object())
    ns_hint = params["context"]["arguments"].value("namespace", "");
  std::vector<std::string> values;
  bool more = false;
  if (params["ref"].value("type", "") == "ref/resource" && arg == "namespace") {
    for (const auto& n : tools.namespaces())
      if (StartsWith(n, value)) values.push_back(n);
  } else if (params["ref"].value("type", "") == "ref/resource" && arg == "dataset") {
    for (const auto& n : tools.namespaces()) {
      if (!ns_hint.empty() && n != ns_hint) continue;
      lake::ListOptions lo;
      lo.prefix = n + "/" + value;
      lo.delimiter = '/';
      lo.max_keys = kMaxCompletions;
      LAKEQA_ASSIGN_OR_RETURN(lake::ListPage page, tools.store().List(lo));
      for (const auto& p : page.common_prefixes) {
        if (values.size() >= kMaxCompletions) {
          more = true;
          break;
        }
        values.push_back(p.substr(n.size() + 1, p.size() - n.size() - 2));
      }
      more = more || !page.next_continuation_token.empty();
    }
  }
  Json c = {{"values", values}, {"hasMore", more}};
  if (!more) c["total"] = values.size();
  return Json{{"completion", c}};
}

int LogLevelRank(std::string_view level) {
  static const char* kLevels[] = {"debug", "info",     "notice", "warning",
                                  "error", "critical", "alert",  "emergency"};
  for (int i = 0; i < 8; ++i)
    if (level == kLevels[i]) return i;
  return -1;
}

std::string Base64Encode(std::string_view in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
  }
  if (i < in.size()) {
    uint32_t v = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) v |= uint32_t(uint8_t(in[i + 1])) << 8;
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += i + 1 < in.size() ? k[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool Base64Decode(std::string_view in, std::string* out) {
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+') v = 62;
    else if (c == '/') v = 63;
    else if (c == '=') break;
    else return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace lakeqa::server::mcp
