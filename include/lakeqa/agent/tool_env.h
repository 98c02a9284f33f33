// What an agent sees of the tools: their JSON schemas and a Call that dispatches by name with JSON
// arguments and returns JSON ({"error": {"code", "message"}} on failure, never a throw). One ToolEnv is
// one task's episode (its sandbox). Agent loops call tools only through this interface, so an episode
// runs the same over the real tools, a replay or a test's environment. The agent module does depend on the
// tools module, which sits above it in src/README.md's order: src/agent/tool_env_factory.cc adapts
// tools::ToolSet + Session to this interface, and the loops show models the tools' compact view
// (tools/model_view.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::tools {
class ToolSet;
class Session;
}  // namespace lakeqa::tools

namespace lakeqa::agent {

class ToolEnv {
 public:
  virtual ~ToolEnv() = default;
  // Each {"name", "description", "parameters" (or "inputSchema")}.
  virtual std::vector<Json> Schemas() = 0;
  virtual Json Call(const std::string& tool, const Json& args) = 0;
  // The same call, its result in the compact view a model is shown (tools::CompactView). An environment
  // that caps result sizes overrides it to cap the compact result, not the full one: a full result over the
  // cap loses list items the compact one has room for.
  virtual Json CallCompact(const std::string& tool, const Json& args);
  // {"returned": [...], "accessed": [...]}: the dataset ids the last Call returned and touched, when the
  // environment records them itself (tools::Session knows which datasets SQL and code read); null when it
  // does not, and agents then derive them from the call's arguments and result.
  virtual Json LastCallDatasets() { return Json(); }
};

// Opens one episode's ToolEnv for a task.
using ToolEnvFactory = std::function<Result<std::unique_ptr<ToolEnv>>(const eval::Task& task)>;

// Everything the run command knows about the tool environment it wants.
struct ToolEnvOptions {
  std::string index_dir;
  std::string lake;      // lake root URI
  std::string work_dir;  // run-local scratch (sandboxes, download cache)
  Json store_options;    // S3 endpoint/region/anonymous as the lake flags gave them
  // Use a lake other than the one the index was built from (--force); a warning says so.
  bool force_lake = false;
};

// What opening the tool environment found, for run.json.
struct ToolEnvInfo {
  Json lake;                          // {"uri", "forced"}
  Json index;                         // {"dir", "lake", "manifest"}
  std::vector<std::string> warnings;  // a different lake used with force_lake
  std::vector<std::string>
      namespaces;  // the lake's namespaces, as the tools see them (the "lake" prompt names them)
};

// The one place where the run command binds to the real tools (tools::ToolSet); see the .cc. Opens the lake
// first: a missing or empty lake is not_found, a lake other than the index's is invalid_argument unless
// options.force_lake.
Result<ToolEnvFactory> MakeToolEnvFactory(const ToolEnvOptions& options, ToolEnvInfo* info = nullptr);

// One episode over a ToolSet the caller keeps open (the workbench's): `session` is the episode's sandbox.
std::unique_ptr<ToolEnv> MakeToolSetEnv(tools::ToolSet& tools, std::shared_ptr<tools::Session> session);

}  // namespace lakeqa::agent
