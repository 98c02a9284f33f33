// Private to src/tools: the per-tool functions behind ToolSet::Call and their argument helpers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/tools/tools.h"

namespace lakeqa::tools {

struct ToolOutput {
  Json result;
  std::string summary;
  std::vector<std::string> returned;  // D_ret ids ("<namespace>/<dataset>")
  std::vector<std::string> accessed;  // D_acc ids
  bool accessed_unverified = false;   // `accessed` came from a log the agent's code could write
};

struct DatasetRef {
  std::string ns, id;
  std::string sub;  // a folder inside the dataset ("" = the dataset itself), when an id named one
  std::string Full() const { return ns + "/" + id; }
  // The lake prefix the id names: the dataset, or the folder inside it.
  std::string Root() const { return sub.empty() ? Full() : Full() + "/" + sub; }
};

struct ToolSet::Impl {
  static Result<ToolOutput> Search(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> SearchKeyword(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> ListFiles(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> Download(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> InspectFile(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> Query(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> ExecuteCode(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> GetSandboxInfo(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> SubmitAnswer(ToolSet& t, Session& s, const Json& args);
  // The graph tools (tool_graph.cc); unavailable when the index has no graph.
  static Result<ToolOutput> GraphFindNodes(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> GraphNeighbors(ToolSet& t, Session& s, const Json& args);
  static Result<ToolOutput> GraphQuery(ToolSet& t, Session& s, const Json& args);
  static Status OpenGraph(ToolSet& t, const std::string& index_dir);

  // "<id>" (looked up in every namespace; ambiguous is an error) or "<namespace>/<id>".
  static Result<DatasetRef> ResolveDataset(ToolSet& t, const std::string& dataset_id);
  // As ResolveDataset, and also "<id>/<folder>" or "<namespace>/<id>/<folder>": a folder inside a dataset
  // (the reference harness resolves such ids through S3 prefixes, so code written for it passes them).
  static Result<DatasetRef> ResolveDatasetOrFolder(ToolSet& t, const std::string& dataset_id);
  // Whether the lake has any object under `prefix` (a key prefix ending in '/').
  static bool HasObjectsUnder(ToolSet& t, const std::string& prefix);
  static bool DatasetExists(ToolSet& t, const std::string& ns, const std::string& id);
  static std::string TitleOf(ToolSet& t, const std::string& ns, const std::string& id);
};

// Argument helpers: errors name the argument and say what was expected.
Result<std::string> ArgString(const Json& args, const char* name, bool required);
// An array of strings, or one string (the LakeQA schema's singular form) under `alias`.
Result<std::vector<std::string>> ArgStringList(const Json& args, const char* name, const char* alias,
                                               bool required);
Result<int64_t> ArgInt(const Json& args, const char* name, int64_t fallback, int64_t min, int64_t max);
// As ArgInt, but a value above `max` is taken as `max` (the reference harness accepts any limit).
Result<int64_t> ArgIntAtMost(const Json& args, const char* name, int64_t fallback, int64_t min, int64_t max);

// "<namespace>/<dataset>" of a sandbox-relative path, or "" when it is not inside a dataset folder.
std::string DatasetOfSandboxPath(const std::string& rel, const std::vector<std::string>& namespaces);
// Files of the sandbox (regular files and symlinks, not following them; hidden entries and the dataset
// aliases of LinkDatasetAlias skipped).
struct SandboxFile {
  std::string rel;
  uint64_t size = 0;
  bool symlink = false;
};
std::vector<SandboxFile> ListSandbox(const std::string& sandbox, const std::vector<std::string>& namespaces,
                                     size_t max_entries = 10000);

// Shrinks a JSON value until its dump is at most max_chars: the longest strings are cut and the longest
// arrays lose their tail, each marked. Returns whether anything was cut.
bool ShrinkJson(Json& j, size_t max_chars);

// harness_compat.cc: what code written for the LakeQA harness relies on.
// A dataset file path as an agent passed it: leading slashes dropped (the harness's lstrip('/')), the rest
// validated like any relative path (so nothing outside the dataset can be named).
Result<std::string> DatasetFilePath(std::string_view file_path);
// Makes <sandbox>/<id> a symbolic link to <namespace>/<id>, so the harness's <sandbox>/<dataset>/<file>
// opens the file downloaded to <sandbox>/<namespace>/<dataset>/<file>. Returns "" when the alias exists,
// else why it was not made (the name is a namespace, or already taken by something else).
std::string LinkDatasetAlias(const std::string& sandbox, const DatasetRef& ref,
                             const std::vector<std::string>& namespaces);
// Whether top-level sandbox entry `rel` is such an alias (listings skip it: its files are listed once,
// under their namespace folder).
bool IsDatasetAlias(const std::string& sandbox, const std::string& rel,
                    const std::vector<std::string>& namespaces);
// After the output cap shortened lists: every count beside a shortened list (count, file_count,
// download_count, row_count) is set to what is shown, and `total`, unless the tool set it, to what was.
void RecountAfterCap(Json& j);

}  // namespace lakeqa::tools
