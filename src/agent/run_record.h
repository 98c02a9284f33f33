// run.json, format "lakeqa-run/1" (eval::kRunFormat; every field in docs/formats-run.md): what a run folder
// holds across invocations. The top level describes the folder as a whole (the union of task paths and ids
// ever given, the lake and index, warnings that stay for good, the latest status); `invocations` is the
// history, one entry per `lakeqa run` with its own tasks, flags, preflight and summary.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/agent/run.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::agent::internal {

class RunRecord {
 public:
  // Reads <out_dir>/run.json when there is one. Refuses a folder holding a run of another agent, model or
  // prompt, or on another lake (unless options.force_lake), and a format this lakeqa does not know; a
  // run.json written before the format was versioned is carried over.
  static Result<RunRecord> Open(const RunOptions& options);

  // Starts an invocation: merges its task paths and ids into the union, records its flags, the lake, the
  // index and the warnings, and sets the status to "running".
  void Begin(const RunOptions& options, const std::vector<eval::Task>& tasks);
  void SetPreflight(const Json& preflight);
  // Ends the invocation: status (complete | interrupted | stopped | failed) and its summary.
  void Finish(const std::string& status, const Json& summary);
  Status Save() const;

 private:
  std::string path_;
  Json j_;
};

// The task paths as run.json keeps them: absolute and normalised, so `lakeqa eval --run` finds them from any
// working directory.
std::string AbsolutePath(const std::string& path);
// Adds `paths` to the union `into`: a path already covered by one in the union (the same, or a file or
// folder inside it) is skipped; paths the new one covers are replaced by it.
void MergePaths(Json& into, const std::vector<std::string>& paths);

}  // namespace lakeqa::agent::internal
