// Private to src/workbench: the state behind Workbench and the endpoint groups, one file each
// (explore.cc, tasks_api.cc, review_api.cc, runs_api.cc, draft.cc, assets.cc; router.cc dispatches).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/index/index.h"
#include "lakeqa/llm/chat.h"
#include "lakeqa/workbench/compose.h"
#include "lakeqa/workbench/leakage.h"
#include "lakeqa/workbench/project.h"
#include "lakeqa/workbench/runs.h"
#include "lakeqa/workbench/workbench.h"

namespace lakeqa::workbench {

// One API call as the handlers see it.
struct ApiRequest {
  const server::MountRequest& http;
  std::vector<std::string> args;  // the {…} segments of the route, in order
  Json body;                      // parsed JSON body (an empty object for GET)
  std::string who;                // the user's name (body "who" or header X-Lakeqa-User); "" when absent
  std::string Param(std::string_view name, std::string fallback = "") const {
    return http.Param(name, std::move(fallback));
  }
  // Every value of a repeated query parameter.
  std::vector<std::string> Params(std::string_view name) const;
};

struct ApiReply {
  int status = 200;
  Json body;
};

using ApiHandler = std::function<Result<ApiReply>(Workbench::Impl&, const ApiRequest&)>;

struct Route {
  std::string method;
  std::string pattern;  // "/api/tasks/{}/reviews": {} matches one path segment, a last {+} the rest
  ApiHandler handler;
  bool mutates = false;  // needs `who`
};

// The endpoint groups register their routes here.
void AddExploreRoutes(std::vector<Route>& routes);
void AddTaskRoutes(std::vector<Route>& routes);
void AddReviewRoutes(std::vector<Route>& routes);
void AddRunRoutes(std::vector<Route>& routes);
void AddDraftRoutes(std::vector<Route>& routes);

// The UI's static files (index.html, our scripts and styles, the vendored libraries), built into the
// binary by src/workbench/CMakeLists.txt.
struct Asset {
  std::string_view path;  // below /ui/, e.g. "index.html", "vendor/preact/preact.mjs"
  std::string_view content_type;
  std::string_view data;
};
const std::vector<Asset>& Assets();

struct Workbench::Impl {
  WorkbenchOptions options;
  std::unique_ptr<server::Env> env;
  std::unique_ptr<Project> project;
  std::unique_ptr<catalog::Catalog> catalog;
  std::mutex catalog_mu;
  std::shared_ptr<const index::IndexReader> text;  // null when the index has no text/
  std::unique_ptr<RunLibrary> runs;
  std::unique_ptr<llm::ChatClient> llm;
  std::string model_name;  // "provider:model", "" without drafting
  std::string model_id;
  std::string export_dir;
  std::string owned_dir;                    // a temporary work folder, removed on close
  std::shared_ptr<tools::Session> explore;  // search, previews and the SQL console
  std::string example_source;               // a data file of this lake, for the composer's source placeholder
  std::optional<graph::Schema> graph_schema;  // <index>/graph/schema.json: which node file holds a label
  std::vector<Route> routes;

  ~Impl();

  // A tool call in a session; a tool error becomes a Status with the tool's code and message.
  Result<Json> Tool(tools::Session& session, const std::string& tool, const Json& args);
  // How many datasets of the text index hold a word (nullopt without a text index).
  std::optional<uint64_t> DatasetsWith(const std::string& word);
  uint64_t TotalDatasets();
  std::string CategoryOf(const std::string& dataset);
  bool FileExists(const std::string& lake_path);
  Result<catalog::DatasetRecord> Dataset(const std::string& full_id);

  std::vector<LeakFlag> Leakage(const ProjectTask& task);
  std::vector<Finding> Findings(const ProjectTask& task);
  // The review state of a task: reviews of its current version, whether the policy is met, the verdict.
  // Reviews by the task's `authors` (Project::Authors) are listed but never count.
  Json ReviewState(const ProjectTask& task, const std::vector<Review>& reviews, const ReviewPolicy& policy,
                   const std::vector<std::string>& authors);
  // Everything the composer and the review page show for a task.
  Result<Json> TaskView(const ProjectTask& task);
  Result<ProjectTask> LoadTask(const std::string& id_text);

  ApiReply Dispatch(const server::MountRequest& http);
};

// Helpers for handlers.
Result<std::string> RequireString(const Json& body, const char* name);
Result<int64_t> RequireInt(const Json& body, const char* name);
// A Status as the API's error reply ({"error": {"code", "message"}} with its HTTP status).
ApiReply ErrorReply(const Status& status);

}  // namespace lakeqa::workbench
