// Explore: faceted search (hits from the search_keyword tool, facet counts from the same query over the
// text index), prefix browsing, the dataset page, file previews through the tools, the SQL console and
// "suggest" (datasets whose values or text hold an answer).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "lakeqa/common/strings.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/index/prefix.h"
#include "lakeqa/index/searcher.h"

#include "workbench/internal.h"

namespace lakeqa::workbench {
namespace {

// The keyword fields the search page filters and counts by (those the index has).
const std::vector<std::string> kFacetFields = {"namespace", "category", "publisher",
                                               "format",    "tags",     "theme"};

constexpr size_t kMaxPageSize = 50;
constexpr size_t kMaxDepth = 1000;

// The first sentence of a description (up to 240 bytes), for hit cards.
std::string FirstSentence(const std::string& text) {
  size_t end = std::string::npos;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if ((text[i] == '.' || text[i] == '!' || text[i] == '?') && (text[i + 1] == ' ' || text[i + 1] == '\n')) {
      end = i + 1;
      break;
    }
  }
  std::string s = end == std::string::npos ? text : text.substr(0, end);
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (s.size() > 240) s = std::string(TruncateUtf8(s, 240)) + "…";
  return s;
}

// The query the search page sends: its words plus field:"value" for every chosen facet value.
std::string BuildQuery(const ApiRequest& req) {
  std::string q(Trim(req.Param("q")));
  for (const std::string& f : kFacetFields) {
    for (std::string v : req.Params(f)) {
      v.erase(std::remove(v.begin(), v.end(), '"'), v.end());
      q += (q.empty() ? "" : " ") + f + ":\"" + v + "\"";
    }
  }
  return q;
}

Result<size_t> SizeParam(const ApiRequest& req, const char* name, size_t fallback, size_t min, size_t max) {
  std::string v = req.Param(name);
  if (v.empty()) return fallback;
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  if (*end != '\0' || n < static_cast<long long>(min) || n > static_cast<long long>(max))
    return InvalidArgument(
        fmt::format("'{}' must be a whole number from {} to {}, got '{}'", name, min, max, v));
  return static_cast<size_t>(n);
}

Result<ApiReply> Info(Workbench::Impl& w, const ApiRequest&) {
  Json facets = Json::array();
  if (w.text) {
    for (const auto& f : kFacetFields) {
      int i = w.text->schema().Find(f);
      if (i >= 0 && w.text->schema().fields()[i].keyword) facets.push_back(f);
    }
  }
  Json j = {{"lake", w.options.lake_uri},
            {"index", w.options.index_dir},
            {"project", w.project->path()},
            {"export_dir", w.export_dir},
            {"model", w.model_name.empty() ? Json() : Json(w.model_name)},
            {"datasets", w.text ? Json(w.TotalDatasets()) : Json()},
            {"text_index", w.text != nullptr},
            {"facets", facets},
            {"fact_timeout_ms", w.options.limits.call_timeout_ms},
            {"example_source", w.example_source.empty() ? Json() : Json(w.example_source)},
            {"runs", w.options.runs}};
  return ApiReply{200, j};
}

Result<ApiReply> Search(Workbench::Impl& w, const ApiRequest& req) {
  std::string query = BuildQuery(req);
  if (query.empty()) return InvalidArgument("type words to search for, or pick a facet value");
  LAKEQA_ASSIGN_OR_RETURN(size_t size, SizeParam(req, "size", 10, 1, kMaxPageSize));
  LAKEQA_ASSIGN_OR_RETURN(size_t page, SizeParam(req, "page", 1, 1, kMaxDepth));
  if (page * size > kMaxDepth)
    return InvalidArgument(
        fmt::format("results go {} deep at most: refine the query instead of paging further", kMaxDepth));
  // The hits exactly as an agent's search_keyword returns them.
  LAKEQA_ASSIGN_OR_RETURN(
      Json r, w.Tool(*w.explore, "search_keyword", {{"keywords", {query}}, {"limit", page * size}}));
  Json hits = Json::array();
  const Json& results = r.contains("results") ? r["results"] : Json::array();
  for (size_t i = (page - 1) * size; i < results.size() && i < page * size; ++i) {
    Json h = results[i];
    std::string id = h.value("id", h.value("namespace", "") + "/" + h.value("dataset_id", ""));
    // What the catalogue adds to a card (the tool's own fields stay as they are).
    if (auto d = w.Dataset(id); d.ok()) {
      Json cols = Json::array();
      for (size_t c = 0; c < d->columns.size() && c < 12; ++c) cols.push_back(d->columns[c]);
      h["catalog"] = {{"category", d->category},
                      {"publisher", d->metadata.publisher},
                      {"description", FirstSentence(d->metadata.description)},
                      {"tags", d->metadata.tags},
                      {"file_count", d->file_count},
                      {"bytes", d->bytes},
                      {"columns", cols},
                      {"column_count", d->columns.size()},
                      {"temporal", d->metadata.temporal}};
    }
    h["rank"] = i + 1;
    hits.push_back(std::move(h));
  }
  // Facet counts and the total over the whole match set: the same query on the text index.
  Json facets = Json::object();
  Json total = r.contains("total_matches") ? r["total_matches"] : Json();
  std::string note = r.value("note", "");
  if (w.text) {
    index::Searcher searcher(w.text);
    index::SearchOptions so;
    so.k = 1;
    so.snippets = false;
    so.count_total = true;
    so.facet_limit = 30;
    for (const auto& f : kFacetFields) {
      int i = w.text->schema().Find(f);
      if (i >= 0 && w.text->schema().fields()[i].keyword) so.facet_fields.push_back(f);
    }
    auto fr = searcher.Search(query, so);
    if (!fr.ok()) return fr.status().WithContext("facets");
    total = fr->total;
    note = fr->note;
    // The searcher's note speaks to the command line; say the same in the page's terms.
    if (fr->total == 0 && !fr->dropped.empty() && !note.empty() && fr->hits.empty()) {
      std::string words;
      for (const auto& d : fr->dropped) words += (words.empty() ? "\"" : ", \"") + d + "\"";
      note = "0 results because every word of the query is a stop word or question phrasing (" + words +
             "), which search leaves out: search for what the question is about";
    }
    for (const auto& [field, values] : fr->facets) {
      Json a = Json::array();
      for (const auto& v : values) a.push_back({{"value", v.value}, {"count", v.count}});
      facets[field] = a;
    }
  }
  Json selected = Json::object();
  for (const auto& f : kFacetFields) {
    auto v = req.Params(f);
    if (!v.empty()) selected[f] = v;
  }
  return ApiReply{200,
                  {{"query", query},
                   {"q", req.Param("q")},
                   {"selected", selected},
                   {"total", total},
                   {"page", page},
                   {"size", size},
                   {"hits", hits},
                   {"facets", facets},
                   {"note", note.empty() ? Json() : Json(note)}}};
}

Result<ApiReply> Prefix(Workbench::Impl& w, const ApiRequest& req) {
  index::PrefixRequest pr;
  pr.prefix = req.Param("prefix");
  pr.delimiter = req.Param("delimiter", "/");
  LAKEQA_ASSIGN_OR_RETURN(size_t max, SizeParam(req, "max", 100, 1, index::kMaxPrefixKeys));
  pr.max_keys = max;
  pr.continuation = req.Param("token");
  std::lock_guard<std::mutex> lock(w.catalog_mu);
  LAKEQA_ASSIGN_OR_RETURN(index::PrefixResult r, index::ListPrefix(*w.catalog, pr));
  Json j = r.ToJson();
  j["prefix"] = pr.prefix;
  j["delimiter"] = pr.delimiter;
  return ApiReply{200, j};
}

Result<ApiReply> DatasetPage(Workbench::Impl& w, const ApiRequest& req) {
  std::string id = req.Param("id");
  if (id.find('/') == std::string::npos)
    return InvalidArgument("'id' must be <namespace>/<dataset id>, got '" + id + "'");
  std::lock_guard<std::mutex> lock(w.catalog_mu);
  LAKEQA_ASSIGN_OR_RETURN(catalog::DatasetRecord d, w.catalog->GetDataset(id));
  LAKEQA_ASSIGN_OR_RETURN(std::vector<catalog::FileRecord> files, w.catalog->ListFiles(id));
  Json fs = Json::array();
  for (const auto& f : files) fs.push_back(f.ToJson());
  return ApiReply{200, {{"dataset", d.ToJson()}, {"files", fs}}};
}

bool Tabular(const std::string& format) {
  return format == "csv" || format == "tsv" || format == "json" || format == "jsonl" || format == "geojson" ||
         format == "parquet";
}

Result<ApiReply> FilePreview(Workbench::Impl& w, const ApiRequest& req) {
  std::string dataset = req.Param("dataset"), path = req.Param("path");
  if (dataset.empty() || path.empty()) return InvalidArgument("'dataset' and 'path' are required");
  Json out = {{"dataset", dataset}, {"path", path}};
  {
    std::lock_guard<std::mutex> lock(w.catalog_mu);
    auto f = w.catalog->GetFile(dataset + "/" + path);
    out["file"] = f.ok() ? f->ToJson() : Json();
  }
  // What inspect_file shows an agent: format, columns with types and samples, the first lines.
  auto inspect =
      w.Tool(*w.explore, "inspect_file", {{"dataset_id", dataset}, {"file_path", path}, {"max_lines", 12}});
  if (!inspect.ok()) return inspect.status();
  out["inspect"] = *inspect;
  std::string format = inspect->value("format", "");
  if (Tabular(format)) {
    // The first rows through download + query, as an agent would read them.
    auto dl = w.Tool(*w.explore, "download",
                     {{"files", Json::array({{{"dataset_id", dataset}, {"file_path", path}}})}});
    if (!dl.ok()) {
      out["rows_error"] = dl.status().ToString();
    } else {
      std::string rel = (*dl)["downloaded"].empty() ? "" : (*dl)["downloaded"][0].value("relative_path", "");
      std::string sql = "SELECT * FROM '" + rel + "' LIMIT 20";
      auto q = w.Tool(*w.explore, "query", {{"sql", sql}});
      out["rows_sql"] = sql;
      if (q.ok()) {
        out["rows"] = *q;
      } else {
        out["rows_error"] = q.status().ToString();
      }
    }
  }
  return ApiReply{200, out};
}

Result<ApiReply> Sql(Workbench::Impl& w, const ApiRequest& req) {
  Json downloaded = Json::array();
  if (req.body.contains("files") && !req.body["files"].empty()) {
    LAKEQA_ASSIGN_OR_RETURN(Json dl, w.Tool(*w.explore, "download", {{"files", req.body["files"]}}));
    downloaded = dl.value("downloaded", Json::array());
  }
  Json out = {{"downloaded", downloaded}};
  if (req.body.contains("sql")) {
    LAKEQA_ASSIGN_OR_RETURN(std::string sql, RequireString(req.body, "sql"));
    auto q = w.Tool(*w.explore, "query", {{"sql", sql}});
    // A failing statement is an answer, not a failed request: the console shows the error under the editor.
    if (q.ok()) {
      out["result"] = *q;
    } else {
      out["error"] = ErrorJson(q.status())["error"];
    }
  }
  return ApiReply{200, out};
}

Result<ApiReply> Sandbox(Workbench::Impl& w, const ApiRequest&) {
  LAKEQA_ASSIGN_OR_RETURN(Json info, w.Tool(*w.explore, "get_sandbox_info", Json::object()));
  return ApiReply{200, info};
}

// The graph's node files holding a node named `value` (exactly, ignoring case), one hit per node file: a
// graph table holds thousands of rows, so its sampled values in the text index rarely include one name.
Result<Json> GraphHolders(Workbench::Impl& w, const std::string& value, size_t limit) {
  Json out = Json::array();
  if (!w.graph_schema) return out;
  LAKEQA_ASSIGN_OR_RETURN(Json r, w.Tool(*w.explore, "graph_find_nodes", {{"name", value}, {"limit", 50}}));
  std::map<std::string, size_t> at;  // node file → position in out
  for (const Json& n : r.value("nodes", Json::array())) {
    std::string matched = n.value("matched", "");
    if (matched.size() < 6 || matched.compare(matched.size() - 6, 6, " exact") != 0) continue;
    const graph::NodeType* type = w.graph_schema->Node(n.value("label", ""));
    if (!type) continue;
    auto ref = eval::ParseDatasetPath(type->source);
    if (!ref.ok()) continue;
    auto it = at.find(type->source);
    if (it == at.end()) {
      if (out.size() >= limit) continue;
      std::string title;
      if (auto d = w.Dataset(ref->Key()); d.ok()) title = d->metadata.title;
      it = at.emplace(type->source, out.size()).first;
      out.push_back({{"id", ref->Key()},
                     {"title", title.empty() ? type->label + " (graph nodes)" : title},
                     {"namespace", ref->ns},
                     {"graph", {{"label", type->label}, {"file", type->source}, {"nodes", Json::array()}}}});
    }
    out[it->second]["graph"]["nodes"].push_back(
        {{"node", n.value("node", "")}, {"label", n.value("label", "")}, {"name", n.value("name", "")}});
  }
  return out;
}

// A snippet's text on one line: the text index joins a file's sampled values and lines with line breaks,
// which an inline snippet would otherwise run together; each break becomes " · ".
std::string OneLine(const std::string& text) {
  std::string out;
  bool brk = false, space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      brk = true;
    } else if (c == ' ' || c == '\t') {
      space = true;
    } else {
      if (!out.empty() && brk) out += " · ";
      else if (!out.empty() && space) out += ' ';
      brk = space = false;
      out += c;
    }
  }
  return out;
}

// Datasets whose values or text hold an answer: the chaining step of the paper's annotators.
Result<ApiReply> Suggest(Workbench::Impl& w, const ApiRequest& req) {
  std::string value(Trim(req.Param("value")));
  if (value.empty())
    return InvalidArgument("'value' (an answer to look for: a place, a date, a name) is required");
  std::string clean = value;
  clean.erase(std::remove(clean.begin(), clean.end(), '"'), clean.end());
  LAKEQA_ASSIGN_OR_RETURN(size_t limit, SizeParam(req, "limit", 20, 1, 100));
  std::vector<std::string> exclude = req.Params("exclude");
  auto excluded = [&](const std::string& id) {
    return std::find(exclude.begin(), exclude.end(), id) != exclude.end();
  };
  Json hits = Json::array();
  LAKEQA_ASSIGN_OR_RETURN(Json graph, GraphHolders(w, clean, limit));
  for (Json& g : graph) {
    if (!excluded(g["id"].get<std::string>())) hits.push_back(std::move(g));
  }
  LAKEQA_ASSIGN_OR_RETURN(
      Json r, w.Tool(*w.explore, "search_keyword", {{"keywords", {"\"" + clean + "\""}}, {"limit", limit}}));
  for (Json h : r.value("results", Json::array())) {
    std::string id = h.value("id", "");
    if (excluded(id)) continue;
    if (h.contains("snippet") && h["snippet"].is_object() && h["snippet"].contains("text") &&
        h["snippet"]["text"].is_string())
      h["snippet"]["text"] = OneLine(h["snippet"]["text"].get<std::string>());
    // A node file already listed from the graph: the text hit's snippet joins it.
    auto same =
        std::find_if(hits.begin(), hits.end(), [&](const Json& x) { return x.value("id", "") == id; });
    if (same != hits.end()) {
      if (h.contains("snippet")) (*same)["snippet"] = h["snippet"];
      continue;
    }
    hits.push_back(std::move(h));
  }
  return ApiReply{200, {{"value", value}, {"query", "\"" + clean + "\""}, {"hits", hits}}};
}

}  // namespace

void AddExploreRoutes(std::vector<Route>& routes) {
  routes.push_back({"GET", "/api/info", Info});
  routes.push_back({"GET", "/api/search", Search});
  routes.push_back({"GET", "/api/prefix", Prefix});
  routes.push_back({"GET", "/api/dataset", DatasetPage});
  routes.push_back({"GET", "/api/file", FilePreview});
  routes.push_back({"POST", "/api/sql", Sql});
  routes.push_back({"GET", "/api/sandbox", Sandbox});
  routes.push_back({"GET", "/api/suggest", Suggest});
}

}  // namespace lakeqa::workbench
