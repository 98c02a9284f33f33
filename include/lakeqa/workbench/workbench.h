// The workbench (`lakeqa ui`): a web UI to explore a lake, compose and review LakeQA tasks, and read agent
// runs. This is its server side: the JSON API under /api/ and the UI's assets under /ui/, mounted on
// lakeqa's own HTTP server (server/mount.h) next to the tool API. Every lake operation goes through the
// agent tools (tools::ToolSet) in the workbench's own sessions — search_keyword for hits, inspect_file,
// download and query for previews and the SQL console, download and execute_code for fact code — so
// what the UI shows is what an agent would see. docs/ui.md describes every page and endpoint.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"
#include "lakeqa/server/mount.h"
#include "lakeqa/server/server.h"
#include "lakeqa/tools/session.h"

namespace lakeqa::workbench {

struct WorkbenchOptions {
  std::string index_dir;
  std::string lake_uri;           // shown in the UI; the store itself is passed to Open
  std::string project_path;       // the project file (created when missing)
  std::string export_dir;         // where exports go; default "<project file>.export/"
  std::vector<std::string> runs;  // run directories or folders of them
  std::string work_dir;           // sessions and download cache; default a temporary folder, removed
  tools::SessionLimits limits;    // the workbench's sessions (fact runs use call_timeout_ms)
  std::string model;              // "provider:model" for drafting; "" = no drafting
  std::string base_url;           // OpenAI-compatible server for the model, "" = the provider's
};

class Workbench {
 public:
  static Result<std::unique_ptr<Workbench>> Open(std::unique_ptr<lake::Store> store,
                                                 const WorkbenchOptions& options);
  ~Workbench();

  // /api/ (the JSON API), /ui/ (assets) and / (a redirect to /ui/), for ServerOptions::mounts.
  std::vector<server::Mount> Mounts();
  // The tool sessions the HTTP server also serves under /v1 and /mcp.
  server::SessionManager& sessions();
  // One request, as the mounted handler serves it (tests call it directly).
  server::MountResponse Handle(const server::MountRequest& request);

  struct Impl;

 private:
  Workbench() = default;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lakeqa::workbench
