// The tools that read the lake and its index: search, search_keyword, list_files, download, inspect_file.
#include <algorithm>
#include <chrono>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/index/hit_view.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/ingest/profile.h"

#include "tools/internal.h"

namespace lakeqa::tools {
namespace {

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
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
    return DatasetRef{ns, id};
  }
  std::vector<DatasetRef> found;
  for (const auto& ns : t.namespaces_) {
    if (DatasetExists(t, ns, dataset_id)) found.push_back({ns, dataset_id});
  }
  if (found.empty())
    return NotFound("no dataset '" + dataset_id + "' in namespaces " + Joined(t.namespaces_) +
                    " (ids come from search or search_keyword)");
  if (found.size() > 1) {
    std::vector<std::string> ids;
    for (const auto& f : found)
      ids.push_back(f.Full());
    return InvalidArgument("dataset_id '" + dataset_id + "' is ambiguous: pass one of " + Joined(ids));
  }
  return found[0];
}

Result<ToolOutput> ToolSet::Impl::Search(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(auto prefixes, ArgStringList(args, "prefixes", "prefix", true));
  LAKEQA_ASSIGN_OR_RETURN(int64_t limit,
                          ArgInt(args, "limit", 50, 1, static_cast<int64_t>(s.limits().max_search_results)));
  for (const auto& p : prefixes) {
    if (p.size() < 2) return InvalidArgument("prefix '" + p + "' must be at least 2 characters");
    if (p.find('\0') != std::string::npos) return InvalidArgument("prefix contains a NUL byte");
  }
  ToolOutput out;
  Json results = Json::array(), by_prefix = Json::object();
  std::set<std::string> seen;
  bool truncated = false;
  for (const auto& p : prefixes) {
    Json mine = Json::array();
    // "datagov/abc" searches one namespace; "abc" every namespace.
    std::vector<std::pair<std::string, std::string>> scopes;
    size_t slash = p.find('/');
    if (slash != std::string::npos &&
        std::find(t.namespaces_.begin(), t.namespaces_.end(), p.substr(0, slash)) != t.namespaces_.end()) {
      scopes.emplace_back(p.substr(0, slash), p.substr(slash + 1));
    } else {
      for (const auto& ns : t.namespaces_)
        scopes.emplace_back(ns, p);
    }
    for (const auto& [ns, rest] : scopes) {
      std::vector<catalog::DatasetRecord> found;
      {
        std::lock_guard<std::mutex> lock(t.catalog_mu_);
        LAKEQA_ASSIGN_OR_RETURN(found,
                                t.catalog_->ListDatasets(ns + "/" + rest, static_cast<uint64_t>(limit)));
      }
      if (found.size() >= static_cast<size_t>(limit)) truncated = true;
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
  out.summary = std::to_string(results.size()) + " datasets";
  out.result = {{"results", results},
                {"results_by_prefix", by_prefix},
                {"count", results.size()},
                {"prefixes", prefixes},
                {"truncated", truncated}};
  return out;
}

Result<ToolOutput> ToolSet::Impl::SearchKeyword(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(auto keywords, ArgStringList(args, "keywords", "keyword", true));
  LAKEQA_ASSIGN_OR_RETURN(int64_t limit,
                          ArgInt(args, "limit", 20, 1, static_cast<int64_t>(s.limits().max_search_results)));
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
    LAKEQA_ASSIGN_OR_RETURN(index::Query q, searcher.Parse(text, &corrections));
    auto once = [&](const index::SearchOptions& x) { return searcher.Search(q, x); };
    Result<index::SearchResult> r = collapse ? index::SearchCollapsed(t.duplicates_, o, once) : once(o);
    if (r.ok()) r->corrections = std::move(corrections);
    return r;
  };
  std::string combined;
  for (const auto& k : keywords)
    combined += (combined.empty() ? "" : " ") + k;
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
    for (const auto& v : values)
      f.push_back({{"value", v.value}, {"count", v.count}});
    facets[field] = f;
  }
  out.summary = std::to_string(results.size()) + " of " + std::to_string(r->total) + " matches";
  out.result = {{"results", results},
                {"count", results.size()},
                {"total_matches", r->total},
                {"keywords", keywords},
                {"collapse", collapse},
                {"facets", facets}};
  if (!r->note.empty()) out.result["note"] = r->note;
  if (!r->dropped.empty()) out.result["dropped_words"] = r->dropped;
  if (!r->corrections.empty()) {
    Json c = Json::array();
    for (const auto& x : r->corrections) c.push_back({{"word", x.word}, {"searched_as", x.term}});
    out.result["spelling"] = c;
  }
  if (keywords.size() > 1) out.result["results_by_keyword"] = by_keyword;
  return out;
}

Result<ToolOutput> ToolSet::Impl::ListFiles(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(auto ids, ArgStringList(args, "dataset_ids", "dataset_id", true));
  LAKEQA_ASSIGN_OR_RETURN(int64_t limit,
                          ArgInt(args, "limit", 100, 1, static_cast<int64_t>(s.limits().max_list_files)));
  if (ids.size() > 50)
    return InvalidArgument("list_files takes at most 50 dataset_ids, got " + std::to_string(ids.size()));
  ToolOutput out;
  Json files = Json::array(), by_dataset = Json::object();
  bool any_truncated = false;
  Status first_error;
  size_t failed = 0;
  for (const auto& id : ids) {
    auto ref = ResolveDataset(t, id);
    if (!ref.ok()) {
      if (first_error.ok()) first_error = ref.status();
      ++failed;
      by_dataset[id] = ErrorJson(ref.status());
      continue;
    }
    lake::ListOptions lo;
    lo.prefix = ref->Full() + "/";
    lo.max_keys = static_cast<uint32_t>(limit);
    auto page = t.store_->List(lo);
    if (!page.ok()) return page.status().WithContext("list_files " + id);
    Json mine = Json::array();
    for (const auto& o : page->objects) {
      if (o.key.empty() || o.key.back() == '/') continue;
      Json e = {{"path", o.key.substr(lo.prefix.size())},
                {"size", o.size},
                {"dataset_id", ref->id},
                {"namespace", ref->ns}};
      mine.push_back(e);
      files.push_back(e);
    }
    bool truncated = !page->next_continuation_token.empty();
    any_truncated = any_truncated || truncated;
    by_dataset[id] = {{"files", mine}, {"count", mine.size()}, {"truncated", truncated}};
    out.accessed.push_back(ref->Full());
  }
  if (failed == ids.size()) return first_error;
  out.summary =
      std::to_string(files.size()) + " files in " + std::to_string(ids.size() - failed) + " datasets";
  out.result = {{"files", files},
                {"count", files.size()},
                {"dataset_ids", ids},
                {"by_dataset", by_dataset},
                {"truncated", any_truncated}};
  return out;
}

Result<ToolOutput> ToolSet::Impl::Download(ToolSet& t, Session& s, const Json& args) {
  struct Spec {
    std::string dataset_id, file_path;
    DatasetRef ref;
    lake::ObjectInfo info;
  };
  std::vector<Spec> specs;
  if (args.contains("files")) {
    if (args.contains("dataset_id") || args.contains("file_path"))
      return InvalidArgument("download takes either 'files' or one 'dataset_id' + 'file_path', not both");
    const Json& files = args["files"];
    if (!files.is_array())
      return InvalidArgument("argument 'files' must be a list of {dataset_id, file_path} objects");
    if (files.empty()) return InvalidArgument("argument 'files' is an empty list");
    if (files.size() > s.limits().max_files_per_download)
      return InvalidArgument("download takes at most " + std::to_string(s.limits().max_files_per_download) +
                             " files per call, got " + std::to_string(files.size()) +
                             "; split it into several calls");
    for (size_t i = 0; i < files.size(); ++i) {
      const Json& f = files[i];
      std::string where = "files[" + std::to_string(i) + "]";
      if (!f.is_object()) return InvalidArgument(where + " must be an object {dataset_id, file_path}");
      for (const auto& [k, v] : f.items()) {
        if (k != "dataset_id" && k != "file_path")
          return InvalidArgument(where + " has an unknown key '" + k + "'");
      }
      auto d = ArgString(f, "dataset_id", true);
      if (!d.ok()) return d.status().WithContext(where);
      auto p = ArgString(f, "file_path", true);
      if (!p.ok()) return p.status().WithContext(where);
      specs.push_back({*d, *p, {}, {}});
    }
  } else {
    LAKEQA_ASSIGN_OR_RETURN(std::string d, ArgString(args, "dataset_id", true));
    LAKEQA_ASSIGN_OR_RETURN(std::string p, ArgString(args, "file_path", true));
    specs.push_back({d, p, {}, {}});
  }
  // Hostile paths fail the whole call before anything is read or written.
  for (auto& sp : specs) {
    LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(sp.dataset_id, "dataset_id"));
    LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(sp.file_path, "file_path"));
  }
  Json errors = Json::array();
  Status first_error;
  std::vector<Spec*> ready;
  uint64_t total = 0;
  for (auto& sp : specs) {
    auto fail = [&](const Status& st) {
      if (first_error.ok()) first_error = st;
      errors.push_back(
          {{"dataset_id", sp.dataset_id}, {"file_path", sp.file_path}, {"error", ErrorJson(st)["error"]}});
    };
    auto ref = ResolveDataset(t, sp.dataset_id);
    if (!ref.ok()) {
      fail(ref.status());
      continue;
    }
    sp.ref = *ref;
    std::string key = ref->Full() + "/" + sp.file_path;
    auto info = t.store_->Stat(key);
    if (!info.ok()) {
      fail(info.status().code() == ErrorCode::kNotFound
               ? NotFound("no file '" + sp.file_path + "' in dataset " + ref->Full() +
                          " (list_files shows its files)")
               : info.status());
      continue;
    }
    sp.info = *info;
    total += info->size;
    ready.push_back(&sp);
  }
  if (!ready.empty()) LAKEQA_RETURN_IF_ERROR(s.CheckDownload(total, ready.size()));
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(s.limits().call_timeout_ms);
  ToolOutput out;
  Json downloaded = Json::array();
  for (Spec* sp : ready) {
    std::string rel = sp->ref.Full() + "/" + sp->file_path;
    auto entry = t.cache_->Fetch(*t.store_, sp->info, deadline);
    Status st = entry.ok() ? s.LinkFile(rel, entry->path) : entry.status();
    if (!st.ok()) {
      if (first_error.ok()) first_error = st;
      errors.push_back(
          {{"dataset_id", sp->dataset_id}, {"file_path", sp->file_path}, {"error", ErrorJson(st)["error"]}});
      continue;
    }
    s.RecordDownload(entry->size);
    s.NoteDownload(rel, entry->sha256, entry->path);
    downloaded.push_back({{"local_path", s.sandbox_dir() + "/" + rel},
                          {"relative_path", rel},
                          {"file_path", sp->file_path},
                          {"dataset_id", sp->ref.id},
                          {"namespace", sp->ref.ns},
                          {"size", entry->size},
                          {"sha256", entry->sha256},
                          {"cached", entry->hit},
                          {"status", "downloaded"}});
    if (std::find(out.accessed.begin(), out.accessed.end(), sp->ref.Full()) == out.accessed.end())
      out.accessed.push_back(sp->ref.Full());
  }
  if (downloaded.empty()) {
    if (errors.size() == 1) return first_error;
    std::string msg = "no file was downloaded: ";
    for (size_t i = 0; i < errors.size(); ++i)
      msg += (i ? "; " : "") + errors[i]["error"]["message"].get<std::string>();
    return Status(first_error.code(), msg);
  }
  out.summary = std::to_string(downloaded.size()) + " files downloaded";
  out.result = {{"downloaded", downloaded},
                {"download_count", downloaded.size()},
                {"sandbox_dir", s.sandbox_dir()},
                {"session_downloaded_bytes", s.downloaded_bytes()}};
  if (!errors.empty()) out.result["errors"] = errors;
  return out;
}

Result<ToolOutput> ToolSet::Impl::InspectFile(ToolSet& t, Session& s, const Json& args) {
  LAKEQA_ASSIGN_OR_RETURN(std::string dataset_id, ArgString(args, "dataset_id", true));
  LAKEQA_ASSIGN_OR_RETURN(std::string file_path, ArgString(args, "file_path", true));
  LAKEQA_ASSIGN_OR_RETURN(int64_t max_lines, ArgInt(args, "max_lines", 5, 1, 50));
  LAKEQA_RETURN_IF_ERROR(ValidateRelativePath(file_path, "file_path"));
  LAKEQA_ASSIGN_OR_RETURN(DatasetRef ref, ResolveDataset(t, dataset_id));
  std::string key = ref.Full() + "/" + file_path;
  auto info = t.store_->Stat(key);
  if (!info.ok()) {
    if (info.status().code() == ErrorCode::kNotFound)
      return NotFound("no file '" + file_path + "' in dataset " + ref.Full() +
                      " (list_files shows its files)");
    return info.status();
  }
  constexpr uint64_t kHead = 64 * 1024;
  LAKEQA_ASSIGN_OR_RETURN(std::string head, t.store_->ReadRange(key, 0, kHead));
  ingest::ProfileOptions po;
  po.max_bytes = kHead;
  po.max_samples_per_column = 3;
  ingest::Profiler prof(file_path, po);
  prof.Feed(head);
  auto p = prof.Finish(info->size > head.size());
  ToolOutput out;
  out.accessed.push_back(ref.Full());
  Json r = {{"dataset_id", ref.id},
            {"namespace", ref.ns},
            {"file_path", file_path},
            {"size_bytes", info->size},
            {"bytes_inspected", head.size()}};
  // The line preview: the first lines of the text, each cut at 300 bytes.
  Json preview = Json::array();
  size_t start = 0;
  while (start < head.size() && preview.size() < static_cast<size_t>(max_lines)) {
    size_t end = head.find('\n', start);
    if (end == std::string::npos) end = head.size();
    std::string line = head.substr(start, std::min<size_t>(end - start, 300));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    preview.push_back(line);
    start = end + 1;
  }
  if (p.ok()) {
    const auto& f = *p;
    r["format"] = std::string(ingest::FormatName(f.format));
    r["encoding"] = f.encoding;
    r["looks_like_json"] = f.format == ingest::Format::kJson || f.format == ingest::Format::kJsonLines ||
                           f.format == ingest::Format::kGeoJson;
    if (f.format == ingest::Format::kCsv) {
      r["delimiter_guess"] = std::string(1, f.delimiter);
      r["has_header"] = f.has_header;
    }
    if (!f.columns.empty()) {
      Json names = Json::array(), types = Json::array();
      for (const auto& c : f.columns) {
        names.push_back(c.name);
        types.push_back({{"name", c.name}, {"type", c.type}, {"samples", c.samples}});
      }
      r["header_columns"] = names;
      r["columns"] = types;
    }
    r["rows_sampled"] = f.rows;
    r["rows_exact"] = f.rows_exact;
    if (!f.json_paths.empty()) {
      std::vector<std::string> keys(
          f.json_paths.begin(),
          f.json_paths.begin() + static_cast<long>(std::min<size_t>(f.json_paths.size(), 100)));
      r["json_keys"] = keys;
    }
    if (!f.geometry_types.empty()) r["geometry_types"] = f.geometry_types;
    if (!f.warnings.empty()) r["warnings"] = f.warnings;
    if (!f.corrupt.empty()) r["corrupt"] = f.corrupt;
    bool textual = f.format != ingest::Format::kPdf && f.format != ingest::Format::kXlsx &&
                   f.format != ingest::Format::kDocx && f.format != ingest::Format::kZip &&
                   f.format != ingest::Format::kBinary;
    if (textual) {
      r["line_preview"] = preview;
      r["line_count_sampled"] = preview.size();
    } else if (!f.text_sample.empty()) {
      r["text_preview"] = f.text_sample.substr(0, 1000);
    }
    out.summary = std::string(ingest::FormatName(f.format)) + ", " + std::to_string(info->size) + " bytes";
  } else {
    r["profile_error"] = ErrorJson(p.status())["error"];
    r["line_preview"] = preview;
    out.summary = "unprofiled, " + std::to_string(info->size) + " bytes";
  }
  out.result = std::move(r);
  return out;
}

}  // namespace lakeqa::tools
