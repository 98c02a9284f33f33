// The agent tools (docs/tools.md): search, search_keyword, list_files, download, inspect_file,
// query, execute_code, get_sandbox_info, submit_answer. Names, arguments and result shapes follow the
// LakeQA harness (evaluation/tools/agent_tools.py) so prompts carry over; where it is weak the results
// say more (ranked hits with snippets and matched columns, file profiles). docs/tools.md documents them.
//
// A ToolSet serves any number of sessions at once: it holds what they share (the lake store, the
// catalog, the text index, the download cache); a Session holds one episode's sandbox, limits and trace.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/near_duplicates.h"
#include "lakeqa/lake/store.h"
#include "lakeqa/tools/cache.h"
#include "lakeqa/tools/session.h"

namespace lakeqa::catalog {
class Catalog;
}
namespace lakeqa::index {
class IndexReader;
}
namespace lakeqa::graph {
class Graph;
}

namespace lakeqa::tools {

struct ToolSetOptions {
  std::string index_dir;  // holds catalog.sqlite and the text index in text/
  std::string cache_dir;  // the shared download cache (created if missing)
  // Python's boto3 stand-in reads the lake from this local folder; empty = the store's root when the
  // lake is a local folder (a remote lake is not mounted: downloads are the way in).
  std::string python_lake_root;
  std::vector<std::string> python_buckets = {"lakeqa-yc4103-datalake"};
};

class ToolSet {
 public:
  // The text index is optional (search_keyword then answers unavailable); the catalog is required.
  static Result<std::unique_ptr<ToolSet>> Open(std::unique_ptr<lake::Store> store,
                                               const ToolSetOptions& options);
  ~ToolSet();

  // Every tool as {name, description, inputSchema} (JSON Schema, usable as an OpenAI function's
  // `parameters` and as an MCP tool's `inputSchema`).
  static const Json& Schemas();
  static bool Known(std::string_view tool);

  // Runs one tool for `session` and records it in the session's trace. Returns the tool's JSON result,
  // or {"error": {"code": ..., "message": ...}}. Never throws; calls of one session are serialised.
  // `cancel` (optional, one per call): Cancel() from any thread stops the call's work — kills its
  // execute_code processes, interrupts its DuckDB statement, abandons its download — and the call
  // returns the error code "cancelled" (the server then sends nothing, as MCP asks).
  Json Call(Session& session, std::string_view tool, const Json& args,
            std::shared_ptr<exec::CancelToken> cancel = nullptr);

  lake::Store& store() { return *store_; }
  const std::vector<std::string>& namespaces() const { return namespaces_; }

  struct Impl;  // per-tool code lives in src/tools/*.cc

 private:
  ToolSet() = default;
  std::unique_ptr<lake::Store> store_;
  std::unique_ptr<catalog::Catalog> catalog_;
  std::mutex catalog_mu_;  // one SQLite connection, shared by every session
  std::shared_ptr<const index::IndexReader> text_index_;
  index::NearDuplicates duplicates_;  // <index>/near_duplicates.json; empty when absent
  std::unique_ptr<DownloadCache> cache_;
  std::unique_ptr<graph::Graph> graph_;  // <index>/graph when the lake has one (graph_* tools)
  std::vector<std::string> namespaces_;
  ToolSetOptions options_;
  friend struct Impl;
};

}  // namespace lakeqa::tools
