// ToolSet: opening what sessions share, the listed schemas, and Call (dispatch by tool spec, output cap,
// trace).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <limits>
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
#include "lakeqa/tools/tool_spec.h"

#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

size_t Utf8Cut(const std::string& s, size_t n) {
  if (n >= s.size()) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
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
    for (auto& e : j) FindLargest(e, best_str, best_len, best_arr, best_arr_size);
  } else if (j.is_object()) {
    for (auto& [k, v] : j.items()) FindLargest(v, best_str, best_len, best_arr, best_arr_size);
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
      while (tail_at < s.size() && (static_cast<unsigned char>(s[tail_at]) & 0xC0) == 0x80) ++tail_at;
      *str = s.substr(0, head) + " ...[truncated " + std::to_string(tail_at - head) + " chars]... " +
             s.substr(tail_at);
      cut = true;
    } else if (arr != nullptr) {
      size_t drop = std::max<size_t>(1, arr->size() / 2);
      for (size_t i = 0; i < drop && arr->size() > 1; ++i) arr->erase(arr->size() - 1);
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
    for (const auto& p : page->common_prefixes) t->namespaces_.push_back(p.substr(0, p.size() - 1));
  }
  std::string cache = options.cache_dir;
  if (cache.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    cache = std::string(tmp != nullptr && *tmp != 0 ? tmp : "/tmp") + "/lakeqa-download-cache";
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(cache));
  // Running as root, code runs as the sandbox user, who reads downloads through the cache files' group.
  t->cache_ =
      std::make_unique<DownloadCache>(cache, ::geteuid() == 0 ? exec::PythonOptions{}.sandbox_gid : -1);
  if (t->options_.python_lake_root.empty()) {
    if (auto* local = dynamic_cast<lake::LocalStore*>(store.get()))
      t->options_.python_lake_root = local->root();
  }
  t->store_ = std::move(store);
  return t;
}

ToolSet::~ToolSet() = default;

const Json& ToolSet::Schemas() {
  static const Json schemas = [] {
    Json out = Json::array();
    for (const ToolSpec& spec : ToolSpecs()) out.push_back(spec.Listed());
    return out;
  }();
  return schemas;
}

bool ToolSet::Known(std::string_view tool) { return FindToolSpec(tool) != nullptr; }

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
    if (v.ok()) view = *v;
    else view_error = v.status();
    args.erase("view");
  }

  Result<ToolOutput> out = Internal("unreachable");
  const ToolSpec* spec = FindToolSpec(tool);
  if (spec == nullptr) {
    std::set<std::string> sorted;
    for (const ToolSpec& t : ToolSpecs()) sorted.insert(t.name);
    std::string names;
    for (const auto& n : sorted) names += (names.empty() ? "" : ", ") + n;
    out = NotFound("unknown tool '" + std::string(tool) + "'; the tools are " + names);
  } else if (!args.is_object()) {
    out = InvalidArgument("tool arguments must be a JSON object, got " + std::string(args.type_name()));
  } else if (!view_error.ok()) {
    out = view_error;
  } else {
    const std::set<std::string> allowed = spec->AllowedArgs();
    std::string unknown;
    for (const auto& [k, v] : args.items()) {
      if (!allowed.count(k)) unknown += (unknown.empty() ? "'" : ", '") + k + "'";
    }
    if (!unknown.empty()) {
      std::string names;
      for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
      out = InvalidArgument(std::string(tool) + " has no argument " + unknown + "; it takes " +
                            (names.empty() ? "no arguments" : names));
    } else {
      try {
        out = spec->handler(*this, session, args);
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
