// One spec per tool: everything lakeqa says about a tool in one place. The HTTP API and MCP list the specs
// (MCP adds their annotations and output schemas), ToolSet::Call checks arguments against them and runs
// their handlers, and the agents read the paper's schema and the prompt line from them. A new tool is one
// spec in src/tools/spec_*.cc and its handler.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::tools {

class ToolSet;
class Session;
struct ToolOutput;  // src/tools/internal.h

using ToolHandler = Result<ToolOutput> (*)(ToolSet&, Session&, const Json&);

// MCP tool annotations. openWorldHint is false for every tool: they reach only the configured lake and the
// sandbox (no network).
struct McpAnnotations {
  std::string title;
  bool read_only = true;
  bool destructive = false;
  bool idempotent = true;
};

// The tool as the LakeQA paper's harness offers it (evaluation/agent_runner.py), where that differs from
// lakeqa's own description and schema; agents running the paper's protocol show models this one.
struct PaperSchema {
  std::string description;
  Json parameters;
};

struct ToolSpec {
  std::string name;
  std::string description;
  // JSON Schema of the tool's own arguments ({"type": "object", "properties", "required"}). The listing adds
  // the caller's `view` when compact_view (ToolSet::Call takes it out before the handler runs).
  Json input_schema;
  // Arguments accepted beside the schema's properties, not advertised: the LakeQA harness's singular forms,
  // each mapped to the property it stands for ("prefix" → "prefixes").
  std::map<std::string, std::string> aliases;
  bool compact_view = true;       // answers in tools::ResultView::kCompact on request
  bool needs_sandbox = false;     // works in its session's sandbox (MCP's stateless revision needs a handle)
  ToolHandler handler = nullptr;  // null only for the MCP server's own session tools
  McpAnnotations mcp;
  // The fields every result has (docs/api.md), without `required` or additionalProperties:false: a result
  // over the output cap is shrunk and may lose fields.
  Json output_schema;
  std::optional<PaperSchema> paper;  // the 7 tools of the paper
  std::string prompt_line;           // the tool in the "lake" prompt profile (agent/prompts.h)

  // Every argument Call accepts: the schema's properties and the aliases (derived, never listed twice).
  std::set<std::string> AllowedArgs() const;
  // {"name", "description", "inputSchema"}: the tool as the HTTP API, MCP and the agents list it.
  Json Listed() const;
};

// Every tool of ToolSet, in listing order.
const std::vector<ToolSpec>& ToolSpecs();
// The spec named `name`; nullptr when there is no such tool.
const ToolSpec* FindToolSpec(std::string_view name);

}  // namespace lakeqa::tools
