// ToolSet: opening what sessions share, the tool schemas, and Call (dispatch, output cap, trace).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/exec/python.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/index/index.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/tools/model_view.h"

#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

Json Prop(const char* type, const char* description) {
  return {{"type", type}, {"description", description}};
}
Json StringArray(const char* description) {
  return {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", description}};
}
Json Tool(const char* name, const char* description, Json properties, std::vector<std::string> required) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}};
  schema["required"] = required;
  return {{"name", name}, {"description", description}, {"inputSchema", std::move(schema)}};
}

Json BuildSchemas() {
  Json tools = Json::array();
  tools.push_back(Tool(
      "search",
      "Find datasets whose id starts with a prefix, in every namespace in alphabetical order (datagov "
      "before wikipedia). Returns dataset ids (without the namespace folder), their namespace and title; "
      "truncated: true when the limit left out more. An id found in two namespaces must be passed to the "
      "other tools as <namespace>/<id>.",
      {{"prefixes",
        StringArray("Id prefixes, each at least 2 characters. Example: [\"Barack\", \"census\"]")},
       {"limit",
        {{"type", "integer"},
         {"description", "Maximum results per namespace per prefix (default 50)"},
         {"default", 50},
         {"minimum", 1}}}},
      {"prefixes"}));
  tools.push_back(
      Tool("search_keyword",
           "Ranked keyword search over dataset titles, descriptions, tags, columns and content. Use short "
           "tag-style keywords. Returns dataset ids with what tells them apart: full title, description, "
           "first columns, row count, years and months covered, which keywords matched in which field, "
           "near-duplicate copies and how they differ. A small limit may miss relevant datasets.",
           {{"keywords", StringArray("Short keywords. Example: [\"police\", \"traffic stops\"]")},
            {"limit",
             {{"type", "integer"},
              {"description", "Maximum results (default 20)"},
              {"default", 20},
              {"minimum", 1}}},
            {"facet_limit",
             {{"type", "integer"},
              {"description", "Values listed per facet (default 10)"},
              {"default", 10},
              {"minimum", 1}}},
            {"collapse",
             {{"type", "boolean"},
              {"description", "One result per group of near-duplicate datasets (default false)"},
              {"default", false}}}},
           {"keywords"}));
  tools.push_back(
      Tool("list_files",
           "List the files of one or more datasets: relative paths and sizes, per dataset in by_dataset (an "
           "unknown id is an error entry there, the others are still listed); truncated: true when the "
           "limit left out more files.",
           {{"dataset_ids", StringArray("Dataset ids from search (\"<id>\" or \"<namespace>/<id>\")")},
            {"limit",
             {{"type", "integer"},
              {"description", "Maximum files per dataset (default 100)"},
              {"default", 100},
              {"minimum", 1}}}},
           {"dataset_ids"}));
  tools.push_back(Tool(
      "download",
      "Download up to 5 files into the sandbox, at <namespace>/<dataset_id>/<file_path> relative to the "
      "sandbox directory, for query and execute_code. When the id is in one namespace only, "
      "<dataset_id>/<file_path> opens the same file too (a read-only alias, alias_path; the LakeQA "
      "harness's layout). A file that fails is listed in errors; the others are downloaded.",
      {{"files",
        {{"type", "array"},
         {"maxItems", 5},
         {"minItems", 1},
         {"description", "Files to download (at most 5)"},
         {"items",
          {{"type", "object"},
           {"properties",
            {{"dataset_id", Prop("string", "Dataset id")},
             {"file_path", Prop("string", "Path in the dataset (from list_files); leading '/' ignored")}}},
           {"required", {"dataset_id", "file_path"}}}}}}},
      {"files"}));
  tools.push_back(Tool(
      "inspect_file",
      "Profile the first 64 KB of a lake file without downloading it: size, detected format, delimiter, "
      "header columns, geometry types, row count, column types with samples, JSON keys, and a short line "
      "preview (in that order); a plain-text file's first 3,000 bytes (text_preview); a workbook's sheets "
      "with their row counts and first rows.",
      {{"dataset_id", Prop("string", "Dataset id")},
       {"file_path", Prop("string", "Path relative to the dataset; a leading '/' is ignored")},
       {"max_lines",
        {{"type", "integer"},
         {"description", "Preview lines (default 5; 0 means 5, more than 50 means 50)"},
         {"default", 5},
         {"minimum", 0}}}},
      {"dataset_id", "file_path"}));
  tools.push_back(Tool(
      "query",
      "Run one read-only SQL statement (DuckDB) over the downloaded files. Every downloaded CSV/TSV/JSON/"
      "GeoJSON/Parquet file is a view (listed in the view sandbox_files); files are also readable by "
      "relative path: SELECT * FROM 'datagov/x/files/rows.txt'. Time and row limits apply.",
      {{"sql", Prop("string", "One SQL statement")}}, {"sql"}));
  tools.push_back(Tool(
      "execute_code",
      "Execute Python code in the sandbox to analyse or preview downloaded files. Working directory: the "
      "sandbox. Pre-imported: pandas as pd, json, csv, os, glob, re, Path. Also installed: numpy, openpyxl "
      "(pd.read_excel), bs4, scipy, matplotlib (Agg backend: save figures to files) and geopandas with shapely. "
      "SANDBOX_DIR is the sandbox path "
      "and FILES the list of downloaded files (absolute paths, sorted; hidden files such as .outputs/ are "
      "not in it). Downloads are at <namespace>/<dataset_id>/<file_path> and, for an id in one namespace, "
      "also at <dataset_id>/<file_path>. print() what you need; no network; time and memory limits.",
      {{"code", Prop("string", "Python code to execute. Use print() for output.")}}, {"code"}));
  tools.push_back(
      Tool("get_sandbox_info", "List the files in the sandbox with their sizes.", Json::object(), {}));
  tools.push_back(Tool(
      "submit_answer",
      "Submit the final answer; this ends the episode. Wrap the answer in square brackets like [Answer]. "
      "The result's answer is what exact match scores (cleaned: \"[42 airports]\" gives \"42\"); "
      "raw_answer is what was sent.",
      {{"answer", Prop("string", "The final answer")},
       {"reasoning", Prop("string", "Brief explanation of how the answer was found")},
       {"sources", StringArray("Dataset ids or file paths used")}},
      {"answer"}));
  AddGraphSchemas(tools);
  // Every tool but submit_answer can answer in the compact view (tools/model_view.h).
  for (Json& t : tools) {
    if (t["name"] == "submit_answer") continue;
    t["inputSchema"]["properties"]["view"] = {
        {"type", "string"},
        {"enum", {"full", "compact"}},
        {"default", "full"},
        {"description",
         "full (default): every field. compact: what a model needs inside a 2,500-character window (one "
         "line per search hit, each id once; no lists that bury the end of an output)"}};
  }
  return tools;
}

// Argument names each tool accepts (the LakeQA schema's singular forms included).
const std::map<std::string, std::set<std::string>, std::less<>>& AllowedArgs() {
  static const std::map<std::string, std::set<std::string>, std::less<>> m = {
      {"search", {"prefixes", "prefix", "limit"}},
      {"search_keyword", {"keywords", "keyword", "limit", "facet_limit", "collapse"}},
      {"list_files", {"dataset_ids", "dataset_id", "limit"}},
      {"download", {"files", "dataset_id", "file_path"}},
      {"inspect_file", {"dataset_id", "file_path", "max_lines"}},
      {"query", {"sql"}},
      {"execute_code", {"code"}},
      {"get_sandbox_info", {}},
      {"submit_answer", {"answer", "reasoning", "sources"}},
      {"graph_find_nodes", {"name", "label", "property", "limit"}},
      {"graph_neighbors", {"node", "type", "direction", "limit"}},
      {"graph_query", {"cypher", "show_sql"}},
  };
  return m;
}

size_t Utf8Cut(const std::string& s, size_t n) {
  if (n >= s.size()) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
    --n;
  return n;
}

void FindLargest(Json& j, Json*& best_str, size_t& best_len, Json*& best_arr, size_t& best_arr_size) {
  if (j.is_string()) {
    size_t n = j.get_ref<const std::string&>().size();
    if (n > best_len) {
      best_len = n;
      best_str = &j;
    }
  } else if (j.is_array()) {
    if (j.size() > 1) {
      size_t n = DumpJson(j).size();
      if (n > best_arr_size) {
        best_arr_size = n;
        best_arr = &j;
      }
    }
    for (auto& e : j)
      FindLargest(e, best_str, best_len, best_arr, best_arr_size);
  } else if (j.is_object()) {
    for (auto& [k, v] : j.items())
      FindLargest(v, best_str, best_len, best_arr, best_arr_size);
  }
}

}  // namespace

bool ShrinkJson(Json& j, size_t max_chars) {
  bool cut = false;
  for (int iter = 0; iter < 200; ++iter) {
    size_t size = DumpJson(j).size();
    if (size <= max_chars) return cut;
    size_t excess = size - max_chars;
    Json* str = nullptr;
    Json* arr = nullptr;
    size_t str_len = 0, arr_size = 0;
    FindLargest(j, str, str_len, arr, arr_size);
    if (str != nullptr && str_len > 64 && str_len * 2 >= arr_size) {
      std::string s = str->get<std::string>();
      size_t keep = str_len > excess + 64 ? str_len - excess - 64 : std::min<size_t>(str_len / 2, 32);
      // The head and the tail: a printed answer is usually at the end of an output.
      size_t head = Utf8Cut(s, keep - keep / 4);
      size_t tail_at = s.size() - keep / 4;
      while (tail_at < s.size() && (static_cast<unsigned char>(s[tail_at]) & 0xC0) == 0x80)
        ++tail_at;
      *str = s.substr(0, head) + " ...[truncated " + std::to_string(tail_at - head) + " chars]... " +
             s.substr(tail_at);
      cut = true;
    } else if (arr != nullptr) {
      size_t drop = std::max<size_t>(1, arr->size() / 2);
      for (size_t i = 0; i < drop && arr->size() > 1; ++i)
        arr->erase(arr->size() - 1);
      cut = true;
    } else {
      break;
    }
  }
  if (DumpJson(j).size() > max_chars) {
    std::string d = DumpJson(j);
    j = Json{{"preview", d.substr(0, Utf8Cut(d, max_chars / 2))}};
    cut = true;
  }
  return cut;
}

Result<std::string> ArgString(const Json& args, const char* name, bool required) {
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) {
    if (required) return InvalidArgument(std::string("missing required argument '") + name + "'");
    return std::string();
  }
  if (!it->is_string())
    return InvalidArgument(std::string("argument '") + name + "' must be a string, got " + it->type_name());
  std::string v = it->get<std::string>();
  if (required && v.find_first_not_of(" \t\r\n") == std::string::npos)
    return InvalidArgument(std::string("argument '") + name + "' is empty");
  return v;
}

Result<std::vector<std::string>> ArgStringList(const Json& args, const char* name, const char* alias,
                                               bool required) {
  const Json* v = nullptr;
  if (auto it = args.find(name); it != args.end() && !it->is_null()) v = &*it;
  if (v == nullptr && alias != nullptr) {
    if (auto it = args.find(alias); it != args.end() && !it->is_null()) v = &*it;
  }
  std::vector<std::string> out;
  if (v == nullptr) {
    if (required)
      return InvalidArgument(std::string("missing required argument '") + name + "' (a list of strings)");
    return out;
  }
  if (v->is_string()) {
    out.push_back(v->get<std::string>());
  } else if (v->is_array()) {
    for (size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string())
        return InvalidArgument(std::string("argument '") + name + "[" + std::to_string(i) +
                               "]' must be a string, got " + (*v)[i].type_name());
      out.push_back((*v)[i].get<std::string>());
    }
  } else {
    return InvalidArgument(std::string("argument '") + name + "' must be a list of strings, got " +
                           v->type_name());
  }
  if (required && out.empty())
    return InvalidArgument(std::string("argument '") + name + "' is an empty list");
  return out;
}

Result<int64_t> ArgInt(const Json& args, const char* name, int64_t fallback, int64_t min, int64_t max) {
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) return fallback;
  int64_t v = 0;
  if (it->is_number_integer()) {
    v = it->get<int64_t>();
  } else if (it->is_number_float() &&
             it->get<double>() == static_cast<double>(static_cast<int64_t>(it->get<double>()))) {
    v = static_cast<int64_t>(it->get<double>());
  } else if (it->is_string()) {
    // Some models send numbers as strings.
    char* end = nullptr;
    const std::string& s = it->get_ref<const std::string&>();
    v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0')
      return InvalidArgument(std::string("argument '") + name + "' must be an integer: '" + s + "'");
  } else {
    return InvalidArgument(std::string("argument '") + name + "' must be an integer, got " + it->type_name());
  }
  if (v < min || v > max)
    return InvalidArgument(std::string("argument '") + name + "' must be between " + std::to_string(min) +
                           " and " + std::to_string(max) + ", got " + std::to_string(v));
  return v;
}

Result<int64_t> ArgIntAtMost(const Json& args, const char* name, int64_t fallback, int64_t min, int64_t max) {
  LAKEQA_ASSIGN_OR_RETURN(int64_t v, ArgInt(args, name, fallback, min, std::numeric_limits<int64_t>::max()));
  return std::min(v, max);
}

std::string DatasetOfSandboxPath(const std::string& rel, const std::vector<std::string>& namespaces) {
  size_t a = rel.find('/');
  if (a == std::string::npos) return "";
  size_t b = rel.find('/', a + 1);
  if (b == std::string::npos) return "";
  std::string ns = rel.substr(0, a);
  for (const auto& n : namespaces) {
    if (n == ns) return rel.substr(0, b);
  }
  return "";
}

std::vector<SandboxFile> ListSandbox(const std::string& sandbox, const std::vector<std::string>& namespaces,
                                     size_t max_entries) {
  namespace fs = std::filesystem;
  std::vector<SandboxFile> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(sandbox, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const auto& p = it->path();
    std::string name = p.filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory(ec) && !it->is_symlink(ec)) it.disable_recursion_pending();
      continue;
    }
    std::error_code e2;
    bool link = it->is_symlink(e2);
    if (!link && !it->is_regular_file(e2)) continue;
    SandboxFile f;
    f.rel = p.lexically_relative(sandbox).generic_string();  // fs::relative would resolve a symlink
    if (link && it.depth() == 0 && IsDatasetAlias(sandbox, f.rel, namespaces)) continue;
    f.symlink = link;
    struct stat st {};
    if (::lstat(p.c_str(), &st) == 0) f.size = static_cast<uint64_t>(st.st_size);
    out.push_back(std::move(f));
    if (out.size() >= max_entries) break;
  }
  std::sort(out.begin(), out.end(), [](const SandboxFile& a, const SandboxFile& b) { return a.rel < b.rel; });
  return out;
}

Result<std::unique_ptr<ToolSet>> ToolSet::Open(std::unique_ptr<lake::Store> store,
                                               const ToolSetOptions& options) {
  if (!store) return InvalidArgument("ToolSet needs a lake store");
  auto t = std::unique_ptr<ToolSet>(new ToolSet());
  t->options_ = options;
  const catalog::IndexDir dir(options.index_dir);
  std::string cat_path = dir.Catalog();
  if (!PathExists(cat_path))
    return NotFound("no catalog at " + cat_path + " (build the index with `lakeqa index build`)");
  LAKEQA_ASSIGN_OR_RETURN(t->catalog_, catalog::Catalog::Open(cat_path, /*read_only=*/true));
  std::string text_dir = dir.Text();
  if (PathExists(text_dir + "/" + std::string(index::kManifestName))) {
    auto r = index::IndexReader::Open(text_dir);
    if (!r.ok()) return r.status().WithContext("opening the text index " + text_dir);
    t->text_index_ = *r;
    auto d = index::NearDuplicates::Load(options.index_dir);
    if (!d.ok()) return d.status().WithContext("opening the near-duplicate groups of " + options.index_dir);
    t->duplicates_ = std::move(*d);
  }
  LAKEQA_RETURN_IF_ERROR(Impl::OpenGraph(*t, options.index_dir));
  // Namespaces: those the catalog knows, else the lake's top-level folders.
  {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(t->catalog_->db(), "SELECT DISTINCT namespace FROM datasets ORDER BY 1", -1, &st,
                           nullptr) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char* v = sqlite3_column_text(st, 0);
        if (v != nullptr && *v != 0) t->namespaces_.emplace_back(reinterpret_cast<const char*>(v));
      }
    }
    sqlite3_finalize(st);
  }
  if (t->namespaces_.empty()) {
    lake::ListOptions lo;
    lo.delimiter = '/';
    auto page = store->List(lo);
    if (!page.ok()) return page.status().WithContext("listing the lake's namespaces");
    for (const auto& p : page->common_prefixes)
      t->namespaces_.push_back(p.substr(0, p.size() - 1));
  }
  std::string cache = options.cache_dir;
  if (cache.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    cache = std::string(tmp != nullptr && *tmp != 0 ? tmp : "/tmp") + "/lakeqa-download-cache";
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(cache));
  // Running as root, code runs as the sandbox user, who reads downloads through the cache files' group.
  t->cache_ = std::make_unique<DownloadCache>(cache, ::geteuid() == 0 ? exec::PythonOptions{}.sandbox_gid : -1);
  if (t->options_.python_lake_root.empty()) {
    if (auto* local = dynamic_cast<lake::LocalStore*>(store.get()))
      t->options_.python_lake_root = local->root();
  }
  t->store_ = std::move(store);
  return t;
}

ToolSet::~ToolSet() = default;

const Json& ToolSet::Schemas() {
  static const Json schemas = BuildSchemas();
  return schemas;
}

bool ToolSet::Known(std::string_view tool) {
  return AllowedArgs().count(tool) > 0;
}

Json ToolSet::Call(Session& session, std::string_view tool, const Json& args_in,
                   std::shared_ptr<exec::CancelToken> cancel) {
  std::lock_guard<std::mutex> lock(session.mutex());
  session.set_cancel(cancel.get());
  struct ClearCancel {
    Session& s;
    ~ClearCancel() { s.set_cancel(nullptr); }
  } clear_cancel{session};
  auto t0 = std::chrono::steady_clock::now();
  TraceEvent ev;
  ev.turn = session.NextTurn();
  ev.tool = std::string(tool);
  ev.arguments = args_in;
  Json args = args_in.is_null() ? Json::object() : args_in;
  // `view` is the caller's, not the tool's: taken out before the tool sees its arguments.
  ResultView view = ResultView::kFull;
  Status view_error;
  if (args.is_object() && args.contains("view") && tool != "submit_answer") {
    auto v = ParseResultView(args["view"]);
    if (v.ok())
      view = *v;
    else
      view_error = v.status();
    args.erase("view");
  }

  using Fn = Result<ToolOutput> (*)(ToolSet&, Session&, const Json&);
  static const std::map<std::string, Fn, std::less<>> kTools = {
      {"search", &Impl::Search},
      {"search_keyword", &Impl::SearchKeyword},
      {"list_files", &Impl::ListFiles},
      {"download", &Impl::Download},
      {"inspect_file", &Impl::InspectFile},
      {"query", &Impl::Query},
      {"execute_code", &Impl::ExecuteCode},
      {"get_sandbox_info", &Impl::GetSandboxInfo},
      {"submit_answer", &Impl::SubmitAnswer},
      {"graph_find_nodes", &Impl::GraphFindNodes},
      {"graph_neighbors", &Impl::GraphNeighbors},
      {"graph_query", &Impl::GraphQuery},
  };
  Result<ToolOutput> out = Internal("unreachable");
  auto fn = kTools.find(tool);
  if (fn == kTools.end()) {
    std::string names;
    for (const auto& [n, f] : kTools)
      names += (names.empty() ? "" : ", ") + n;
    out = NotFound("unknown tool '" + std::string(tool) + "'; the tools are " + names);
  } else if (!args.is_object()) {
    out = InvalidArgument("tool arguments must be a JSON object, got " + std::string(args.type_name()));
  } else if (!view_error.ok()) {
    out = view_error;
  } else {
    const auto& allowed = AllowedArgs().at(fn->first);
    std::string unknown;
    for (const auto& [k, v] : args.items()) {
      if (!allowed.count(k)) unknown += (unknown.empty() ? "'" : ", '") + k + "'";
    }
    if (!unknown.empty()) {
      std::string names;
      for (const auto& a : allowed)
        names += (names.empty() ? "" : ", ") + a;
      out = InvalidArgument(std::string(tool) + " has no argument " + unknown + "; it takes " +
                            (names.empty() ? "no arguments" : names));
    } else {
      try {
        out = fn->second(*this, session, args);
      } catch (const std::exception& e) {
        out = Internal(std::string(tool) + " failed: " + e.what());
      }
    }
  }

  Json result;
  if (out.ok()) {
    result = std::move(out->result);
    if (view == ResultView::kCompact) result = CompactView(tool, result);
    ev.status = "ok";
    ev.summary = out->summary;
    ev.returned = out->returned;
    ev.accessed = out->accessed;
    ev.accessed_unverified = out->accessed_unverified;
    size_t cap = session.limits().max_output_chars;
    std::string full = DumpJson(result);
    if (cap > 0 && full.size() > cap) {
      std::string rel = ".outputs/call-" + std::to_string(ev.turn) + "-" + ev.tool + ".json";
      Status saved = session.WriteFile(rel, full);
      ShrinkJson(result, cap > 1000 ? cap - 600 : cap / 2);
      if (!result.is_object()) result = Json{{"result", result}};
      // Its own flag: `truncated` stays the tool's "the limit stopped the listing, more exist".
      RecountAfterCap(result);
      result["output_capped"] = true;
      result["truncation_notice"] =
          "This result was " + std::to_string(full.size()) + " characters, over the " + std::to_string(cap) +
          "-character cap, so long values were cut and long lists shortened (counts say what is shown, "
          "total what the full result holds). " +
          (saved.ok() ? "The full result is in the sandbox at " + rel +
                            "; page through it with execute_code, e.g. print(open('" + rel + "').read()[" +
                            std::to_string(cap) + ":" + std::to_string(2 * cap) + "])."
                      : "The full result could not be saved: " + saved.message());
      if (saved.ok()) result["full_output_path"] = rel;
      ev.truncated = true;
    }
  } else {
    const Status& st = out.status();
    result = ErrorJson(st);
    ev.status = std::string(CodeName(st.code()));
    ev.error = st.message();
    ev.summary = "error: " + std::string(CodeName(st.code()));
  }
  ev.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  (void)session.AppendTrace(ev);  // a full disk must not turn a good result into a failure
  return result;
}

}  // namespace lakeqa::tools
