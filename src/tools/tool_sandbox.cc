// The tools that work on the session's sandbox: query, execute_code, get_sandbox_info, submit_answer.
#include <algorithm>
#include <cctype>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/exec/python.h"
#include "lakeqa/exec/sql.h"
#include "lakeqa/text/answer_clean.h"

#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

// Whether `name` occurs in `text` as a whole SQL identifier (not inside a longer word or path).
bool HasIdentifier(const std::string& text, const std::string& name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    bool left = at == 0 || (!ident(text[at - 1]) && text[at - 1] != '/' && text[at - 1] != '.');
    size_t end = at + name.size();
    bool right = end >= text.size() || (!ident(text[end]) && text[end] != '/' && text[end] != '.');
    if (left && right) return true;
  }
  return false;
}

// Whether `path` occurs in `text` as the start of a path (not as the tail of a longer one: "x/a.csv" is
// not in "datagov/ax/a.csv").
bool HasPathStart(const std::string& text, const std::string& path) {
  for (size_t at = text.find(path); at != std::string::npos; at = text.find(path, at + 1)) {
    char before = at == 0 ? ' ' : text[at - 1];
    if (!std::isalnum(static_cast<unsigned char>(before)) && before != '_' && before != '-' &&
        before != '/' && before != '.')
      return true;
  }
  return false;
}

void AddUnique(std::vector<std::string>& v, const std::string& x) {
  if (!x.empty() && std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

Result<ToolOutput> ToolSet::Impl::Query(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(std::string sql, ArgString(args, "sql", true));
  LAKEQA_ASSIGN_OR_RETURN(exec::SqlSandbox * db, s.Sql(t.cache_->dir()));
  LAKEQA_RETURN_IF_ERROR(db->RegisterFileViews());
  auto r = db->Query(sql, s.cancel());
  if (!r.ok()) {
    // The agent acts on the error: list what it can query.
    std::string names;
    for (const auto& v : db->views()) {
      if (names.size() > 600) break;
      names += (names.empty() ? "" : ", ") + v.name + " (" + v.path + ")";
    }
    return Status(r.status().code(),
                  r.status().message() + (names.empty() ? " [no files downloaded yet: use download first]"
                                                        : " [views: " + names + "]"));
  }
  ToolOutput out;
  // D_acc: the datasets whose files the statement read (what DuckDB opened: views, paths and globs),
  // and those whose files it names by view name or path (a statement stopped at its row cap may not
  // have opened every file it names).
  for (const auto& f : r->read_files) AddUnique(out.accessed, DatasetOfSandboxPath(f, t.namespaces_));
  std::string lower = ToLowerAscii(sql);
  for (const auto& v : db->views()) {
    std::string dataset = DatasetOfSandboxPath(v.path, t.namespaces_);
    // The harness's spelling <dataset>/<file> reads the same file through the dataset's alias.
    std::string alias = dataset.empty() ? "" : v.path.substr(v.path.find('/') + 1);
    bool by_alias = !alias.empty() && HasPathStart(lower, ToLowerAscii(alias)) &&
                    IsDatasetAlias(s.sandbox_dir(), alias.substr(0, alias.find('/')), t.namespaces_);
    if (HasIdentifier(lower, ToLowerAscii(v.name)) || lower.find(ToLowerAscii(v.path)) != std::string::npos ||
        by_alias)
      AddUnique(out.accessed, dataset);
  }
  out.result = r->ToJson();
  Json views = Json::array();
  for (const auto& v : db->views()) {
    if (views.size() >= 100) break;
    views.push_back({{"name", v.name}, {"path", v.path}, {"format", v.format}});
  }
  out.result["views"] = views;
  out.summary = std::to_string(r->rows.size()) + " rows" + (r->truncated ? " (truncated)" : "");
  // The trace shows what the columnar cache did ("cached", "imported", "direct") per file named.
  for (const auto& u : r->cache) out.summary += "; " + u.path + ": " + u.state;
  return out;
}

Result<ToolOutput> ToolSet::Impl::ExecuteCode(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(std::string code, ArgString(args, "code", true));
  exec::PythonOptions po;
  po.limits.wall_ms = s.limits().call_timeout_ms;
  po.limits.cpu_s = std::max(1, s.limits().call_timeout_ms / 1000);
  po.limits.max_disk_bytes = s.limits().sandbox_disk_bytes;
  po.limits.max_files = s.limits().sandbox_max_files;
  po.quota_exempt = s.DownloadInodes();
  po.cancel = s.cancel();
  if (!t.options_.python_lake_root.empty())
    po.lake = exec::LakeMount{t.options_.python_lake_root, t.options_.python_buckets};
  LAKEQA_ASSIGN_OR_RETURN(exec::PythonResult r, exec::RunPython(s.sandbox_dir(), code, po));
  ToolOutput out;
  // D_acc: lake objects the run read, and downloaded files it opened (by inode: a copy, a hard link or a
  // glob reach the same download; a file the code wrote into a dataset-shaped folder does not count).
  for (const auto& key : r.accessed_keys) {
    std::string ns, id, path;
    catalog::SplitKey(key, ns, id, path);
    if (!id.empty()) AddUnique(out.accessed, ns + "/" + id);
  }
  for (const auto& o : r.opened) {
    if (o.where != "sandbox") continue;
    std::string rel = s.DownloadAt(o.dev, o.ino);
    if (!rel.empty()) AddUnique(out.accessed, DatasetOfSandboxPath(rel, t.namespaces_));
  }
  out.accessed_unverified = !r.access_observed;
  bool success = r.exit_code == 0 && !r.timed_out && !r.disk_exceeded && !r.memory_exceeded;
  Json j = {{"output", r.stdout_text}, {"success", success}};
  if (!r.stderr_text.empty()) j["stderr"] = r.stderr_text;
  if (!success) {
    std::string err;
    if (r.timed_out) {
      err = "TimeoutError: the code ran past the " + std::to_string(s.limits().call_timeout_ms) +
            " ms limit and was stopped";
    } else if (r.disk_exceeded) {
      err = "DiskLimitError: the code wrote more than the sandbox's disk limit and was stopped";
    } else if (r.memory_exceeded) {
      err =
          "MemoryLimitError: the code's processes together used more than the sandbox's memory limit and "
          "were stopped";
    } else {
      // The last line of a traceback names the exception.
      std::string e = r.stderr_text;
      while (!e.empty() && (e.back() == '\n' || e.back() == ' ')) e.pop_back();
      size_t nl = e.rfind('\n');
      err = nl == std::string::npos ? e : e.substr(nl + 1);
      if (err.empty()) err = "the code exited with status " + std::to_string(r.exit_code);
    }
    j["error"] = err;
    // The reference's key: the Python traceback (the last one stderr holds; "" when the run failed
    // otherwise).
    size_t tb = r.stderr_text.rfind("Traceback (most recent call last):");
    j["traceback"] = tb == std::string::npos ? std::string() : r.stderr_text.substr(tb);
    j["exit_code"] = r.exit_code;
  }
  if (r.truncated) {
    j["output_truncated"] = true;
    // Where the code sees the saved streams: lakeqa's files are mounted at /lakeqa, not under the sandbox.
    auto visible = [](const std::string& rel) { return "/lakeqa" + rel.substr(rel.find('/')); };
    if (!r.stdout_file.empty()) j["stdout_file"] = visible(r.stdout_file);
    if (!r.stderr_file.empty()) j["stderr_file"] = visible(r.stderr_file);
  }
  std::vector<std::string> files;
  std::set<std::string> datasets;
  for (const auto& f : ListSandbox(s.sandbox_dir(), t.namespaces_, 1000)) {
    files.push_back(f.rel);
    std::string d = DatasetOfSandboxPath(f.rel, t.namespaces_);
    if (!d.empty()) datasets.insert(d);
  }
  j["sandbox_dir"] = Session::VisibleDir();
  j["sandbox_files"] = files;
  j["datasets_in_sandbox"] = std::vector<std::string>(datasets.begin(), datasets.end());
  j["elapsed_ms"] = r.elapsed_ms;
  out.result = std::move(j);
  out.summary = success ? std::to_string(r.stdout_text.size()) + " bytes of output"
                        : "failed: " + out.result["error"].get<std::string>().substr(0, 120);
  return out;
}

Result<ToolOutput> ToolSet::Impl::GetSandboxInfo(ToolSet& t, Session& s, const Json& args) {
  ToolOutput out;
  Json files = Json::array();
  uint64_t total = 0;
  for (const auto& f : ListSandbox(s.sandbox_dir(), t.namespaces_)) {
    Json e = {{"path", Session::VisiblePath(f.rel)}, {"relative_path", f.rel}, {"size", f.size}};
    std::string d = DatasetOfSandboxPath(f.rel, t.namespaces_);
    if (!d.empty()) e["dataset"] = d;
    if (f.symlink) e["symlink"] = true;
    files.push_back(e);
    total += f.size;
  }
  out.summary = std::to_string(files.size()) + " files";
  out.result = {{"sandbox_dir", Session::VisibleDir()},
                {"files", files},
                {"file_count", files.size()},
                {"total_size", total},
                {"downloaded_bytes", s.downloaded_bytes()},
                {"download_budget_bytes", s.limits().max_download_bytes}};
  return out;
}

Result<ToolOutput> ToolSet::Impl::SubmitAnswer(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(std::string answer, ArgString(args, "answer", true));
  LAKEQA_ASSIGN_OR_RETURN(std::string reasoning, ArgString(args, "reasoning", false));
  LAKEQA_ASSIGN_OR_RETURN(auto sources, ArgStringList(args, "sources", nullptr, false));
  if (s.answer) return Status(ErrorCode::kAlreadyExists, "an answer was already submitted in this session");
  ToolOutput out;
  // As the harness's submit_answer: `answer` is what exact match scores, cleaned by the scorer's own
  // _clean_answer port ("[42 airports]" → "42"), so the model sees it; `raw_answer` is what was sent.
  std::string cleaned = text::CleanAnswer(Json(answer));
  out.result = {{"status", "answer_submitted"},
                {"answer", cleaned},
                {"raw_answer", answer},
                {"reasoning", reasoning},
                {"sources", sources}};
  s.answer = out.result;
  out.summary = "answer: " + cleaned.substr(0, 200);
  return out;
}

}  // namespace lakeqa::tools
