// The tools that read the lake and its index: search, search_keyword, list_files, download, inspect_file.
#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/index/hit_view.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/ingest/convert.h"
#include "lakeqa/ingest/profile.h"

#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Bytes of a text file inspect_file shows: with the profile's fields it stays under the paper's
// 4,000-character cut.
constexpr size_t kTextPreviewBytes = 3000;

std::string GuessDelimiter(const std::string& line) {
  char best = 0;
  size_t best_count = 0;
  for (char c : {',', '\t', '|', ';'}) {
    size_t n = static_cast<size_t>(std::count(line.begin(), line.end(), c));
    if (n > best_count) best_count = n, best = c;
  }
  return best_count > 0 ? std::string(1, best) : "";
}

// Per sheet of a workbook: its name, its row count and its first rows (the header and two more), as CSV.
Json SheetSummaries(const std::string& zip) {
  auto converted = ingest::XlsxToCsv(zip, 256ull << 20);
  if (!converted.ok()) return Json{{"error", ErrorJson(converted.status())["error"]}};
  Json out = Json::array();
  for (const auto& sheet : *converted) {
    if (out.size() == 20) break;
    Json rows = Json::array();
    size_t lines = 0, start = 0;
    while (start < sheet.csv.size()) {
      size_t end = sheet.csv.find('\n', start);
      if (end == std::string::npos) end = sheet.csv.size();
      if (lines < 3) rows.push_back(sheet.csv.substr(start, std::min<size_t>(end - start, 300)));
      ++lines;
      start = end + 1;
    }
    out.push_back({{"name", sheet.name}, {"rows", lines}, {"first_rows", rows}});
  }
  return out;
}

}  // namespace

bool ToolSet::Impl::DatasetExists(ToolSet& t, const std::string& ns, const std::string& id) {
  {
    std::lock_guard<std::mutex> lock(t.catalog_mu_);
    if (t.catalog_->GetDataset(ns + "/" + id).ok()) return true;
  }
  // Not in the catalog (built before the dataset arrived): the lake itself decides.
  lake::ListOptions lo;
  lo.prefix = ns + "/" + id + "/";
  lo.max_keys = 1;
  auto page = t.store_->List(lo);
  return page.ok() && (!page->objects.empty() || !page->common_prefixes.empty());
}

std::string ToolSet::Impl::TitleOf(ToolSet& t, const std::string& ns, const std::string& id) {
  std::lock_guard<std::mutex> lock(t.catalog_mu_);
  auto d = t.catalog_->GetDataset(ns + "/" + id);
  return d.ok() ? d->metadata.title : "";
}

Result<DatasetRef> ToolSet::Impl::ResolveDataset(ToolSet& t, const std::string& dataset_id) {
  LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(dataset_id, "dataset_id"));
  size_t slash = dataset_id.find('/');
  if (slash != std::string::npos) {
    std::string ns = dataset_id.substr(0, slash);
    std::string id = dataset_id.substr(slash + 1);
    if (std::find(t.namespaces_.begin(), t.namespaces_.end(), ns) == t.namespaces_.end())
      return NotFound("dataset_id '" + dataset_id + "': no namespace '" + ns +
                      "' (namespaces: " + Joined(t.namespaces_) + ")");
    if (id.find('/') != std::string::npos)
      return InvalidArgument("dataset_id '" + dataset_id +
                             "' has more than one '/': pass <id> or <namespace>/<id>");
    if (!DatasetExists(t, ns, id)) return NotFound("no dataset '" + dataset_id + "' in the lake");
    return DatasetRef{ns, id, ""};
  }
  std::vector<DatasetRef> found;
  for (const auto& ns : t.namespaces_) {
    if (DatasetExists(t, ns, dataset_id)) found.push_back({ns, dataset_id, ""});
  }
  if (found.empty())
    return NotFound("no dataset '" + dataset_id + "' in namespaces " + Joined(t.namespaces_) +
                    " (ids come from search or search_keyword)");
  if (found.size() > 1) {
    std::vector<std::string> ids;
    for (const auto& f : found) ids.push_back(f.Full());
    return InvalidArgument("dataset_id '" + dataset_id + "' is ambiguous: pass one of " + Joined(ids));
  }
  return found[0];
}

bool ToolSet::Impl::HasObjectsUnder(ToolSet& t, const std::string& prefix) {
  lake::ListOptions lo;
  lo.prefix = prefix;
  lo.max_keys = 1;
  auto page = t.store_->List(lo);
  return page.ok() && (!page->objects.empty() || !page->common_prefixes.empty());
}

Result<DatasetRef> ToolSet::Impl::ResolveDatasetOrFolder(ToolSet& t, const std::string& dataset_id) {
  auto whole = ResolveDataset(t, dataset_id);
  if (whole.ok() || dataset_id.find('/') == std::string::npos) return whole;
  LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(dataset_id, "dataset_id"));
  std::vector<DatasetRef> found;
  auto consider = [&](const std::string& ns, const std::string& rest) {
    size_t slash = rest.find('/');
    if (slash == std::string::npos || slash + 1 >= rest.size()) return;
    DatasetRef ref{ns, rest.substr(0, slash), rest.substr(slash + 1)};
    if (DatasetExists(t, ns, ref.id) && HasObjectsUnder(t, ref.Root() + "/")) found.push_back(ref);
  };
  size_t slash = dataset_id.find('/');
  std::string first = dataset_id.substr(0, slash);
  if (std::find(t.namespaces_.begin(), t.namespaces_.end(), first) != t.namespaces_.end()) {
    consider(first, dataset_id.substr(slash + 1));
  } else {
    for (const auto& ns : t.namespaces_) consider(ns, dataset_id);
  }
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    std::vector<std::string> ids;
    for (const auto& f : found) ids.push_back(f.ns + "/" + dataset_id);
    return InvalidArgument("dataset_id '" + dataset_id + "' is ambiguous: pass one of " + Joined(ids));
  }
  return whole.status();
}

Result<ToolOutput> ToolSet::Impl::Search(ToolSet& t, Session& s, const Json& args) {
  // An empty list finds nothing (as the reference answers); a missing one is still an error.
  if (!args.contains("prefixes") && !args.contains("prefix"))
    return InvalidArgument("missing required argument 'prefixes' (a list of strings)");
  LAKEQA_ASSIGN_OR_RETURN(auto prefixes, ArgStringList(args, "prefixes", "prefix", false));
  LAKEQA_ASSIGN_OR_RETURN(
      int64_t limit, ArgIntAtMost(args, "limit", 50, 1, static_cast<int64_t>(s.limits().max_search_results)));
  for (const auto& p : prefixes) {
    if (p.size() < 2) return InvalidArgument("prefix '" + p + "' must be at least 2 characters");
    if (p.find('\0') != std::string::npos) return InvalidArgument("prefix contains a NUL byte");
  }
  ToolOutput out;
  Json results = Json::array(), by_prefix = Json::object();
  std::set<std::string> seen;
  // Prefixes whose listing the limit stopped in some namespace (more ids exist than were returned).
  std::vector<std::string> truncated_prefixes;
  for (const auto& p : prefixes) {
    Json mine = Json::array();
    // "datagov/abc" searches one namespace; "abc" every namespace.
    std::vector<std::pair<std::string, std::string>> scopes;
    size_t slash = p.find('/');
    if (slash != std::string::npos &&
        std::find(t.namespaces_.begin(), t.namespaces_.end(), p.substr(0, slash)) != t.namespaces_.end()) {
      scopes.emplace_back(p.substr(0, slash), p.substr(slash + 1));
    } else {
      for (const auto& ns : t.namespaces_) scopes.emplace_back(ns, p);
    }
    for (const auto& [ns, rest] : scopes) {
      std::vector<catalog::DatasetRecord> found;
      // "<id>/" or "<id>/<folder prefix>": the dataset when it holds keys under that prefix (the reference's
      // S3 listing matches through a dataset's subfolders).
      if (size_t inner = rest.find('/'); inner != std::string::npos) {
        std::string id = rest.substr(0, inner);
        if (!id.empty() && ValidateRelativePath(id, "prefix").ok() && DatasetExists(t, ns, id) &&
            HasObjectsUnder(t, ns + "/" + rest)) {
          Json e = {{"dataset_id", id},
                    {"namespace", ns},
                    {"id", ns + "/" + id},
                    {"title", TitleOf(t, ns, id)},
                    {"type", "dataset"}};
          mine.push_back(e);
          if (seen.insert(ns + "/" + id).second) {
            results.push_back(e);
            out.returned.push_back(ns + "/" + id);
          }
        }
        continue;
      }
      {
        std::lock_guard<std::mutex> lock(t.catalog_mu_);
        // One more than the limit: exactly `limit` matches is a complete answer, not a truncated one.
        LAKEQA_ASSIGN_OR_RETURN(found,
                                t.catalog_->ListDatasets(ns + "/" + rest, static_cast<uint64_t>(limit) + 1));
      }
      if (found.size() > static_cast<size_t>(limit)) {
        found.resize(static_cast<size_t>(limit));
        if (truncated_prefixes.empty() || truncated_prefixes.back() != p) truncated_prefixes.push_back(p);
      }
      for (const auto& d : found) {
        Json e = {{"dataset_id", d.dataset_id},
                  {"namespace", d.ns},
                  {"id", d.FullId()},
                  {"title", d.metadata.title},
                  {"type", "dataset"}};
        mine.push_back(e);
        if (seen.insert(d.FullId()).second) {
          results.push_back(e);
          out.returned.push_back(d.FullId());
        }
      }
    }
    by_prefix[p] = mine;
  }
  bool truncated = !truncated_prefixes.empty();
  out.summary = std::to_string(results.size()) + " datasets" + (truncated ? " (limit reached)" : "");
  out.result = {{"results", results},
                {"results_by_prefix", by_prefix},
                {"count", results.size()},
                {"prefixes", prefixes},
                {"truncated", truncated}};
  // How many exist is unknown once the limit stopped a listing.
  out.result["total"] = truncated ? Json(nullptr) : Json(results.size());
  if (truncated) out.result["truncated_prefixes"] = truncated_prefixes;
  return out;
}

Result<ToolOutput> ToolSet::Impl::SearchKeyword(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(auto keywords, ArgStringList(args, "keywords", "keyword", true));
  LAKEQA_ASSIGN_OR_RETURN(
      int64_t limit, ArgIntAtMost(args, "limit", 20, 1, static_cast<int64_t>(s.limits().max_search_results)));
  LAKEQA_ASSIGN_OR_RETURN(int64_t facet_limit, ArgInt(args, "facet_limit", 10, 1, 100));
  bool collapse = false;
  if (auto c = args.find("collapse"); c != args.end()) {
    if (!c->is_boolean()) return InvalidArgument("collapse must be true or false");
    collapse = c->get<bool>();
  }
  for (const auto& k : keywords) {
    if (k.find_first_not_of(" \t\r\n") == std::string::npos)
      return InvalidArgument("every keyword must be non-empty");
  }
  if (!t.text_index_)
    return Status(ErrorCode::kUnavailable, "search_keyword needs the text index at " + t.options_.index_dir +
                                               "/text, which is missing (run `lakeqa index build`)");
  index::Searcher searcher(t.text_index_);
  index::SearchOptions so;
  so.k = static_cast<size_t>(limit);
  so.facet_fields = {"namespace", "category"};
  so.facet_limit = static_cast<size_t>(facet_limit);
  // One query for every keyword, and one per keyword when there are several; collapsed or not.
  auto run = [&](const std::string& text, const index::SearchOptions& o) -> Result<index::SearchResult> {
    std::vector<index::Correction> corrections;
    LAKEQA_ASSIGN_OR_RETURN(index::Query q, searcher.Parse(text, &corrections, o.ranking));
    auto once = [&](const index::SearchOptions& x) { return searcher.Search(q, x); };
    Result<index::SearchResult> r = collapse ? index::SearchCollapsed(t.duplicates_, o, once) : once(o);
    if (r.ok()) r->corrections = std::move(corrections);
    return r;
  };
  std::string combined;
  for (const auto& k : keywords) combined += (combined.empty() ? "" : " ") + k;
  auto r = run(combined, so);
  if (!r.ok()) return r.status().WithContext("search_keyword");
  ToolOutput out;
  Json results = Json::array();
  for (const auto& h : r->hits) {
    results.push_back(index::HitJson(h, &t.duplicates_));
    out.returned.push_back(h.id);
  }
  Json by_keyword = Json::object();
  if (keywords.size() > 1) {
    index::SearchOptions one = so;
    one.facet_fields.clear();
    one.snippets = false;
    one.matches = false;
    for (const auto& k : keywords) {
      auto rk = run(k, one);
      if (!rk.ok()) return rk.status().WithContext("search_keyword '" + k + "'");
      Json ids = Json::array();
      for (const auto& h : rk->hits) {
        size_t slash = h.id.find('/');
        ids.push_back({{"dataset_id", slash == std::string::npos ? h.id : h.id.substr(slash + 1)},
                       {"namespace", slash == std::string::npos ? "" : h.id.substr(0, slash)},
                       {"title", index::StoredField(h, "title")}});
        if (std::find(out.returned.begin(), out.returned.end(), h.id) == out.returned.end())
          out.returned.push_back(h.id);
      }
      by_keyword[k] = ids;
    }
  }
  Json facets = Json::object();
  for (const auto& [field, values] : r->facets) {
    Json f = Json::array();
    for (const auto& v : values) f.push_back({{"value", v.value}, {"count", v.count}});
    facets[field] = f;
  }
  out.summary = std::to_string(results.size()) + " of " + std::to_string(r->total) + " matches";
  out.result = {{"results", results},   {"count", results.size()}, {"total_matches", r->total},
                {"keywords", keywords}, {"collapse", collapse},    {"facets", facets}};
  if (!r->note.empty()) out.result["note"] = r->note;
  if (!r->dropped.empty()) out.result["dropped_words"] = r->dropped;
  if (!r->corrections.empty()) {
    Json c = Json::array();
    for (const auto& x : r->corrections)
      c.push_back({{"word", x.word},
                   {"also_searched_for", x.term},
                   {"note", "no dataset holds '" + x.word + "'; it was kept and '" + x.term +
                                "' searched for beside it, at a discount"}});
    out.result["spelling"] = c;
  }
  if (keywords.size() > 1) out.result["results_by_keyword"] = by_keyword;
  // More matched than the limit let through (the total is counted because facets are asked for).
  out.result["truncated"] = r->total >= 0 && static_cast<uint64_t>(r->total) > results.size();
  return out;
}

Result<ToolOutput> ToolSet::Impl::ListFiles(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(auto ids, ArgStringList(args, "dataset_ids", "dataset_id", true));
  LAKEQA_ASSIGN_OR_RETURN(
      int64_t limit, ArgIntAtMost(args, "limit", 100, 1, static_cast<int64_t>(s.limits().max_list_files)));
  if (ids.size() > 50)
    return InvalidArgument("list_files takes at most 50 dataset_ids, got " + std::to_string(ids.size()));
  ToolOutput out;
  Json files = Json::array(), by_dataset = Json::object();
  bool any_truncated = false;
  size_t failed = 0;
  for (const auto& id : ids) {
    // Per dataset, as the harness answers: an unknown id is an entry of by_dataset, never the whole call.
    auto ref = ResolveDatasetOrFolder(t, id);
    if (!ref.ok()) {
      ++failed;
      by_dataset[id] = ErrorJson(ref.status());
      continue;
    }
    // A folder id lists the folder, paths relative to it (as the reference does).
    lake::ListOptions lo;
    lo.prefix = ref->Root() + "/";
    lo.max_keys = static_cast<uint32_t>(limit);
    auto page = t.store_->List(lo);
    if (!page.ok()) return page.status().WithContext("list_files " + id);
    if (page->objects.empty() && page->next_continuation_token.empty()) {
      // In the catalog but not in the store: the lake is not the one the index was built from (or the
      // dataset was removed since). An empty listing would read as "this dataset has no files".
      Status missing = NotFound("dataset " + ref->Full() + " has no files in the lake " + t.store_->Uri() +
                                " (the index lists it: was the lake changed since `lakeqa index build`?)");
      ++failed;
      by_dataset[id] = ErrorJson(missing);
      continue;
    }
    Json mine = Json::array();
    for (const auto& o : page->objects) {
      if (o.key.empty() || o.key.back() == '/') continue;
      Json e = {{"path", o.key.substr(lo.prefix.size())},
                {"size", o.size},
                {"dataset_id", ref->sub.empty() ? ref->id : ref->id + "/" + ref->sub},
                {"namespace", ref->ns}};
      mine.push_back(e);
      files.push_back(e);
    }
    // The store says whether keys remain after the page (S3 IsTruncated): a dataset with exactly
    // `limit` files is complete. How many remain is unknown without listing them all.
    bool truncated = !page->next_continuation_token.empty();
    any_truncated = any_truncated || truncated;
    by_dataset[id] = {{"files", mine},
                      {"count", mine.size()},
                      {"total", truncated ? Json(nullptr) : Json(mine.size())},
                      {"truncated", truncated}};
    out.accessed.push_back(ref->Full());
  }
  out.summary = std::to_string(files.size()) + " files in " + std::to_string(ids.size() - failed) +
                " datasets" + (failed > 0 ? "; " + std::to_string(failed) + " not listed" : "");
  out.result = {{"files", files},
                {"count", files.size()},
                {"total", any_truncated ? Json(nullptr) : Json(files.size())},
                {"dataset_ids", ids},
                {"by_dataset", by_dataset},
                {"truncated", any_truncated}};
  if (failed > 0) out.result["failed_count"] = failed;
  return out;
}

namespace {

// One file download asked for, as it goes from the arguments through the checks to the cache.
struct DownloadRequest {
  size_t index = 0;
  std::string dataset_id, file_path;
  DatasetRef ref;
  lake::ObjectInfo info;
};

// One bad file fails alone (as the harness answers): its error joins `list` and the others go on.
struct DownloadErrors {
  Json list = Json::array();
  Status first;
  void Add(size_t index, const std::string& dataset_id, const std::string& file_path, const Status& st) {
    if (first.ok()) first = st;
    list.push_back({{"index", index},
                    {"dataset_id", dataset_id},
                    {"file_path", file_path},
                    {"error", ErrorJson(st)["error"]}});
  }
};

// The files asked for: `files`, or the harness's one `dataset_id` + `file_path`. Only a call that is wrong
// as a whole (no list, an empty one, more than the per-call limit) fails whole; a bad entry joins `errors`.
Result<std::vector<DownloadRequest>> ParseDownloads(const Json& args, size_t max_files,
                                                    DownloadErrors& errors) {
  std::vector<DownloadRequest> requests;
  if (!args.contains("files")) {
    LAKEQA_ASSIGN_OR_RETURN(std::string d, ArgString(args, "dataset_id", true));
    LAKEQA_ASSIGN_OR_RETURN(std::string p, ArgString(args, "file_path", true));
    requests.push_back({0, d, p, {}, {}});
    return requests;
  }
  if (args.contains("dataset_id") || args.contains("file_path"))
    return InvalidArgument("download takes either 'files' or one 'dataset_id' + 'file_path', not both");
  const Json& files = args["files"];
  if (!files.is_array())
    return InvalidArgument("argument 'files' must be a list of {dataset_id, file_path} objects");
  if (files.empty()) return InvalidArgument("argument 'files' is an empty list");
  if (files.size() > max_files)
    return InvalidArgument("download takes at most " + std::to_string(max_files) + " files per call, got " +
                           std::to_string(files.size()) + "; split it into several calls");
  for (size_t i = 0; i < files.size(); ++i) {
    const Json& f = files[i];
    std::string where = "files[" + std::to_string(i) + "]";
    if (!f.is_object()) {
      errors.Add(i, "", "", InvalidArgument(where + " must be an object {dataset_id, file_path}"));
      continue;
    }
    auto shown = [&](const char* key) {
      return f.contains(key) && f[key].is_string() ? f[key].get<std::string>() : "";
    };
    std::string unknown;
    for (const auto& [k, v] : f.items()) {
      if (k != "dataset_id" && k != "file_path") unknown = k;
    }
    if (!unknown.empty()) {
      errors.Add(i, shown("dataset_id"), shown("file_path"),
                 InvalidArgument(where + " has an unknown key '" + unknown + "'"));
      continue;
    }
    auto d = ArgString(f, "dataset_id", true);
    auto p = d.ok() ? ArgString(f, "file_path", true) : Result<std::string>(d.status());
    if (!p.ok()) {
      errors.Add(i, shown("dataset_id"), shown("file_path"), p.status().WithContext(where));
      continue;
    }
    requests.push_back({i, *d, *p, {}, {}});
  }
  return requests;
}

// The call's result from what was downloaded and what failed, or the failure when nothing was.
Result<ToolOutput> DownloadResult(ToolOutput out, Json downloaded, DownloadErrors& errors,
                                  uint64_t session_bytes) {
  // In the order of `files`, whichever check refused each one.
  std::stable_sort(errors.list.begin(), errors.list.end(), [](const Json& a, const Json& b) {
    return a["index"].get<size_t>() < b["index"].get<size_t>();
  });
  if (downloaded.empty()) {
    if (errors.list.size() == 1) return errors.first;
    std::string msg = "no file was downloaded: ";
    for (size_t i = 0; i < errors.list.size(); ++i)
      msg += (i ? "; " : "") + errors.list[i]["error"]["message"].get<std::string>();
    return Status(errors.first.code(), msg);
  }
  out.summary = std::to_string(downloaded.size()) + " files downloaded" +
                (errors.list.empty() ? "" : ", " + std::to_string(errors.list.size()) + " failed");
  size_t count = downloaded.size();
  out.result = {{"downloaded", std::move(downloaded)},
                {"download_count", count},
                {"sandbox_dir", Session::VisibleDir()},
                {"session_downloaded_bytes", session_bytes}};
  if (!errors.list.empty()) out.result["errors"] = errors.list;
  return out;
}

// Hostile paths are refused before anything is read or written for them; a file that passes is resolved to
// its dataset and stat'ed.
std::vector<DownloadRequest*> CheckDownloads(ToolSet& t, std::vector<DownloadRequest>& requests,
                                             DownloadErrors& errors, uint64_t& total) {
  std::vector<DownloadRequest*> ready;
  for (auto& sp : requests) {
    Status valid = ValidateRelativePath(sp.dataset_id, "dataset_id");
    auto path = valid.ok() ? DatasetFilePath(sp.file_path) : Result<std::string>(valid);
    if (!path.ok()) {
      errors.Add(sp.index, sp.dataset_id, sp.file_path, path.status());
      continue;
    }
    sp.file_path = *path;
    auto ref = ToolSet::Impl::ResolveDatasetOrFolder(t, sp.dataset_id);
    if (!ref.ok()) {
      errors.Add(sp.index, sp.dataset_id, sp.file_path, ref.status());
      continue;
    }
    // A file of a folder id is the dataset's file <folder>/<file_path> from here on.
    if (!ref->sub.empty()) sp.file_path = ref->sub + "/" + sp.file_path;
    ref->sub.clear();
    sp.ref = *ref;
    std::string key = ref->Full() + "/" + sp.file_path;
    auto info = t.store().Stat(key);
    if (!info.ok()) {
      errors.Add(sp.index, sp.dataset_id, sp.file_path,
                 info.status().code() == ErrorCode::kNotFound
                     ? NotFound("no file '" + sp.file_path + "' in dataset " + ref->Full() +
                                " (list_files shows its files)")
                     : info.status());
      continue;
    }
    sp.info = *info;
    total += info->size;
    ready.push_back(&sp);
  }
  return ready;
}

// One checked file from the cache into the sandbox: its entry of `downloaded`.
Result<Json> DownloadOne(ToolSet& t, DownloadCache& cache, Session& s, const DownloadRequest& sp,
                         std::chrono::steady_clock::time_point deadline,
                         std::map<std::string, std::string>& alias_of) {
  std::string rel = sp.ref.Full() + "/" + sp.file_path;
  exec::CancelToken* cancel = s.cancel();
  auto entry = cache.Fetch(t.store(), sp.info, deadline,
                           [cancel] { return cancel != nullptr && cancel->cancelled(); });
  Status st = entry.ok() ? s.LinkFile(rel, entry->path) : entry.status();
  if (!st.ok()) return st;
  s.RecordDownload(entry->size);
  s.NoteDownload(rel, entry->sha256, entry->path);
  Json d = {{"local_path", Session::VisiblePath(rel)},
            {"relative_path", rel},
            {"file_path", sp.file_path},
            {"dataset_id", sp.ref.id},
            {"namespace", sp.ref.ns},
            {"size", entry->size},
            {"sha256", entry->sha256},
            {"cached", entry->hit},
            {"status", "downloaded"}};
  // The harness's spelling, <sandbox>/<dataset>/<file>, opens the same file when the bare id names one
  // dataset only (in two namespaces it would be a guess).
  auto alias = alias_of.find(sp.ref.Full());
  if (alias == alias_of.end()) {
    auto bare = ToolSet::Impl::ResolveDataset(t, sp.ref.id);
    std::string why = !bare.ok() ? "'" + sp.ref.id + "' is in more than one namespace"
                                 : LinkDatasetAlias(s.sandbox_dir(), sp.ref, t.namespaces());
    alias = alias_of.emplace(sp.ref.Full(), why).first;
  }
  if (alias->second.empty()) d["alias_path"] = Session::VisiblePath(sp.ref.id + "/" + sp.file_path);
  else d["alias_unavailable"] = alias->second;
  return d;
}

}  // namespace

Result<ToolOutput> ToolSet::Impl::Download(ToolSet& t, Session& s, const Json& args) {
  DownloadErrors errors;
  LAKEQA_ASSIGN_OR_RETURN(std::vector<DownloadRequest> requests,
                          ParseDownloads(args, s.limits().max_files_per_download, errors));
  uint64_t total = 0;
  std::vector<DownloadRequest*> ready = CheckDownloads(t, requests, errors, total);
  if (!ready.empty()) LAKEQA_RETURN_IF_ERROR(s.CheckDownload(total, ready.size()));
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(s.limits().call_timeout_ms);
  ToolOutput out;
  Json downloaded = Json::array();
  std::map<std::string, std::string> alias_of;  // full id → why there is no alias ("" = there is one)
  for (DownloadRequest* sp : ready) {
    auto d = DownloadOne(t, *t.cache_, s, *sp, deadline, alias_of);
    if (!d.ok()) {
      errors.Add(sp->index, sp->dataset_id, sp->file_path, d.status());
      continue;
    }
    downloaded.push_back(std::move(*d));
    if (std::find(out.accessed.begin(), out.accessed.end(), sp->ref.Full()) == out.accessed.end())
      out.accessed.push_back(sp->ref.Full());
  }
  return DownloadResult(std::move(out), std::move(downloaded), errors, s.downloaded_bytes());
}

namespace {

// What inspect_file read of one file.
struct Inspected {
  DatasetRef ref;
  std::string file_path;
  uint64_t size = 0;
  ingest::HeadRead read;  // the head and what reading it cost
  Json sheets;            // a workbook's sheets (SheetSummaries), else null
  Json preview;           // the first lines of the head
};

// The first `max_lines` lines of the head, each cut at 300 bytes.
Json LinePreview(const std::string& head, size_t max_lines) {
  Json preview = Json::array();
  size_t start = 0;
  while (start < head.size() && preview.size() < max_lines) {
    size_t end = head.find('\n', start);
    if (end == std::string::npos) end = head.size();
    std::string line = head.substr(start, std::min<size_t>(end - start, 300));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    preview.push_back(line);
    start = end + 1;
  }
  return preview;
}

// The profile's shape: header columns, geometry, rows, problems, JSON key paths, column types and samples.
void AddStructure(Json& r, const ingest::FileProfile& f, bool prose, uint64_t bytes_read) {
  std::set<std::string> names;
  if (!f.columns.empty() && !prose) {
    Json header = Json::array();
    for (const auto& c : f.columns) {
      header.push_back(c.name);
      names.insert(c.name);
    }
    r["header_columns"] = header;
  }
  if (!f.geometry_types.empty()) r["geometry_types"] = f.geometry_types;
  r["rows_sampled"] = f.rows;
  r["rows_exact"] = f.rows_exact;
  r["bytes_inspected"] = bytes_read;
  if (!f.warnings.empty()) r["warnings"] = f.warnings;
  if (!f.corrupt.empty()) r["corrupt"] = f.corrupt;
  if (!f.json_paths.empty()) {
    // A GeoJSON feature's properties are the header columns: not repeated as key paths.
    std::vector<std::string> keys;
    for (const auto& k : f.json_paths) {
      constexpr std::string_view kProps = "features[].properties.";
      if (f.format == ingest::Format::kGeoJson && k.rfind(kProps, 0) == 0 &&
          names.count(k.substr(kProps.size())) > 0)
        continue;
      if (keys.size() < 100) keys.push_back(k);
    }
    r["json_keys"] = keys;
  }
  if (!f.columns.empty() && !prose) {
    Json columns = Json::array();
    for (const auto& c : f.columns)
      columns.push_back({{"name", c.name}, {"type", c.type}, {"samples", c.samples}});
    r["columns"] = columns;
  }
}

// A profiled file's fields after the identity: what it is, its shape, then the raw preview.
void AddProfile(Json& r, const ingest::FileProfile& f, const Inspected& in) {
  const std::string& head = in.read.head;
  r["format"] = in.sheets.is_null() ? std::string(ingest::FormatName(f.format)) : std::string("xlsx");
  if (!in.sheets.is_null()) r["sheets"] = in.sheets;
  r["encoding"] = f.encoding;
  r["looks_like_json"] = f.format == ingest::Format::kJson || f.format == ingest::Format::kJsonLines ||
                         f.format == ingest::Format::kGeoJson;
  bool textual = f.format != ingest::Format::kPdf && f.format != ingest::Format::kXlsx &&
                 f.format != ingest::Format::kDocx && f.format != ingest::Format::kZip &&
                 f.format != ingest::Format::kBinary && in.sheets.is_null();
  // A Wikipedia page is prose by the lake's layout, even when its commas look like a CSV to the sniffer.
  bool page = in.ref.ns == "wikipedia" && in.file_path == "content.txt";
  bool prose = textual && (f.format == ingest::Format::kText || page);
  if (f.format == ingest::Format::kCsv && !page) {
    r["delimiter_guess"] = std::string(1, f.delimiter);
    r["has_header"] = f.has_header;
  } else if (textual && !in.preview.empty()) {
    // The reference's key on every text file: the most frequent of , tab | ; in the first line ("" none).
    r["delimiter_guess"] = GuessDelimiter(in.preview[0].get<std::string>());
  }
  AddStructure(r, f, prose, in.read.bytes_read);
  if (prose) {
    // Prose: its first few KB, so a page reads without a download (lines of 300 bytes showed ~300 chars).
    r["line_count_sampled"] = in.preview.size();
    size_t n = std::min(head.size(), kTextPreviewBytes);
    while (n > 0 && n < head.size() && (static_cast<unsigned char>(head[n]) & 0xC0) == 0x80) --n;
    r["text_preview"] = head.substr(0, n);
    r["text_preview_complete"] = n == in.size;
  } else if (textual) {
    r["line_count_sampled"] = in.preview.size();
    r["line_preview"] = in.preview;
  } else if (!f.text_sample.empty()) {
    r["text_preview"] = f.text_sample.substr(0, 1000);
  }
}

}  // namespace

Result<ToolOutput> ToolSet::Impl::InspectFile(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(std::string dataset_id, ArgString(args, "dataset_id", true));
  LAKEQA_ASSIGN_OR_RETURN(std::string file_path, ArgString(args, "file_path", true));
  // 0 falls back to 5 and a large value is taken as 50, as the reference's `max_lines or 5` accepts both.
  LAKEQA_ASSIGN_OR_RETURN(int64_t max_lines, ArgIntAtMost(args, "max_lines", 5, 0, 50));
  if (max_lines == 0) max_lines = 5;
  Inspected in;
  LAKEQA_ASSIGN_OR_RETURN(in.file_path, DatasetFilePath(file_path));
  LAKEQA_ASSIGN_OR_RETURN(in.ref, ResolveDatasetOrFolder(t, dataset_id));
  if (!in.ref.sub.empty()) in.file_path = in.ref.sub + "/" + in.file_path;
  in.ref.sub.clear();
  std::string key = in.ref.Full() + "/" + in.file_path;
  auto info = t.store_->Stat(key);
  if (!info.ok()) {
    if (info.status().code() == ErrorCode::kNotFound)
      return NotFound("no file '" + in.file_path + "' in dataset " + in.ref.Full() +
                      " (list_files shows its files)");
    return info.status();
  }
  in.size = info->size;
  constexpr uint64_t kHead = 64 * 1024;
  ingest::ProfileOptions po;
  po.max_bytes = kHead;
  po.max_samples_per_column = 3;
  po.max_sample_value_bytes = 48;  // a sample shows a value's shape; long URLs would crowd out columns
  // The head, and for an XLSX/DOCX/zip larger than it the sheets and header row read from the zip's end.
  auto p = ingest::ProfileHead(*t.store_, key, info->size, in.file_path, po, &in.read);
  if (!p.ok() && in.read.requests == 0) return p.status();  // the head itself could not be read
  const std::string& head = in.read.head;
  // A workbook's sheets live at the end of its zip: read whole (up to a bound) to name them.
  constexpr uint64_t kMaxWorkbookBytes = 32ull << 20;
  if (head.rfind("PK\x03\x04", 0) == 0 && info->size <= kMaxWorkbookBytes) {
    auto whole =
        info->size > head.size() ? t.store_->ReadRange(key, 0, info->size) : Result<std::string>(head);
    if (whole.ok() && ingest::OoxmlKind(*whole) == "xlsx") in.sheets = SheetSummaries(*whole);
  }
  in.preview = LinePreview(head, static_cast<size_t>(max_lines));
  ToolOutput out;
  out.accessed.push_back(in.ref.Full());
  // Fields in the order an agent needs them: what the file is and its column names first, the detail
  // (types and samples, key paths) next, the raw preview last. Under the LakeQA runner's protocol a result
  // over 4,000 characters keeps only its first 2,500 and last 1,000 (docs/tools.md), and the names and
  // shape of a wide file must survive that cut.
  Json r = {{"dataset_id", in.ref.id},
            {"namespace", in.ref.ns},
            {"file_path", in.file_path},
            {"size_bytes", info->size}};
  if (p.ok()) {
    AddProfile(r, *p, in);
    out.summary = std::string(ingest::FormatName(p->format)) + ", " + std::to_string(info->size) + " bytes";
  } else {
    r["bytes_inspected"] = head.size();
    r["profile_error"] = ErrorJson(p.status())["error"];
    r["line_preview"] = in.preview;
    out.summary = "unprofiled, " + std::to_string(info->size) + " bytes";
  }
  out.result = std::move(r);
  return out;
}

}  // namespace lakeqa::tools
