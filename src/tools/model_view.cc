// The compact view of tool results (include/lakeqa/tools/model_view.h): one line per search hit, every id
// once, and no lists that push the end of a result (where an answer usually is) out of the kept tail.
#include "lakeqa/tools/model_view.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakeqa/common/json.h"

namespace lakeqa::tools {
namespace {

// The paper's cut: a result over this many characters keeps only the head and the last 1,000.
constexpr size_t kCutAbove = 4000;
// Hits a compact search_keyword result fits inside the kept head (the bar: 15 of 20).
constexpr size_t kHitsInHead = 15;
// Room left in the head for the closing of the hit list and the cut marker.
constexpr size_t kHeadMargin = 60;

std::string Str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// At most n bytes of s, cut at a UTF-8 boundary, "…" marking a cut.
std::string Clip(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  if (n == 0) return "";
  size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "…";
}

// Letters and digits only, lower-cased: "Barack_Obama" and "Barack Obama" compare equal.
std::string Fold(const std::string& s) {
  std::string out;
  for (unsigned char c : s)
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  return out;
}

std::string FullId(const Json& hit) {
  std::string id = Str(hit, "id");
  if (!id.empty()) return id;
  std::string ns = Str(hit, "namespace"), ds = Str(hit, "dataset_id");
  return ns.empty() ? ds : ns + "/" + ds;
}

struct Tier {
  size_t title, columns, column;  // bytes of the title, columns shown, bytes per column name
};

// "datagov/x | Title | rows 1,234 | years 2010-2019 | cols a, b, c +9 | score 3.21"
std::string HitLine(const Json& hit, const Tier& t) {
  std::string id = FullId(hit);
  std::string line = id;
  std::string title = Str(hit, "title");
  std::string bare = id.substr(id.find('/') == std::string::npos ? 0 : id.find('/') + 1);
  if (!title.empty() && Fold(title) != Fold(bare) && t.title > 0) line += " | " + Clip(title, t.title);
  if (hit.contains("rows")) {
    const Json& r = hit["rows"];
    if (r.is_number_unsigned() || r.is_number_integer()) {
      bool exact =
          !hit.contains("rows_exact") || !hit["rows_exact"].is_boolean() || hit["rows_exact"].get<bool>();
      line += fmt::format(" | rows {}{}", exact ? "" : ">=", r.get<int64_t>());
    } else {
      line += " | rows ?";
    }
  }
  std::string years = Str(hit, "years");
  if (!years.empty()) line += " | years " + years;
  if (t.columns > 0 && hit.contains("columns") && hit["columns"].is_array() && !hit["columns"].empty()) {
    std::string cols;
    size_t shown = 0;
    for (const Json& c : hit["columns"]) {
      if (shown == t.columns) break;
      if (!c.is_string()) continue;
      cols += (shown++ ? ", " : "") + Clip(c.get<std::string>(), t.column);
    }
    size_t total = hit.value("columns_total", hit["columns"].size());
    if (total > shown) cols += fmt::format(" +{}", total - shown);
    line += " | cols " + cols;
  }
  if (hit.contains("score") && hit["score"].is_number())
    line += fmt::format(" | score {:.3g}", hit["score"].get<double>());
  return line;
}

// Copies the listed keys of `from` that are present, in this order.
void CopyKeys(const Json& from, Json& to, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (from.contains(k)) to[k] = from[k];
}

// Where the n-th element of to[key] ends in DumpJson(to): the dump of `to` cut after that list, the list cut
// to n elements.
size_t HeadEnd(Json to, const char* key, size_t n) {
  Json head = Json::object();
  for (auto& [k, v] : to.items()) {
    head[k] = std::move(v);
    if (k == key) break;
  }
  Json& list = head[key];
  while (list.size() > n) list.erase(list.size() - 1);
  return DumpJson(head).size();
}

// Per keyword: only the ids the combined ranking did not already show, each id once.
Json MoreIdsByKeyword(const Json& full, const Json& hits) {
  Json extra = Json::object();
  if (!full.contains("results_by_keyword") || !full["results_by_keyword"].is_object()) return extra;
  std::set<std::string> shown;
  for (const Json& h : hits) shown.insert(FullId(h));
  for (const auto& [kw, list] : full["results_by_keyword"].items()) {
    Json ids = Json::array();
    if (list.is_array()) {
      for (const Json& h : list) {
        std::string id = FullId(h);
        if (!id.empty() && shown.insert(id).second) ids.push_back(id);
      }
    }
    if (!ids.empty()) extra[kw] = std::move(ids);
  }
  return extra;
}

Json CompactSearchKeyword(const Json& full) {
  static const Tier kTiers[] = {{72, 4, 24}, {56, 3, 18}, {44, 2, 14}, {36, 1, 12}, {28, 0, 0}, {0, 0, 0}};
  const Json& hits = full.contains("results") && full["results"].is_array() ? full["results"] : Json::array();
  Json more = MoreIdsByKeyword(full, hits);
  Json best;
  for (const Tier& t : kTiers) {
    Json out = Json::object();
    CopyKeys(full, out, {"count", "total_matches", "truncated"});
    out["hit_format"] = "id | title | rows | years | first columns (+ more) | score";
    Json lines = Json::array();
    for (const Json& h : hits) lines.push_back(HitLine(h, t));
    out["results"] = std::move(lines);
    CopyKeys(full, out, {"note", "spelling", "dropped_words"});
    if (!more.empty()) out["more_ids_by_keyword"] = more;
    out["details"] =
        "Descriptions, matched fields, snippets, facets and near-duplicates: the same call with \"view\": "
        "\"full\"; a file's columns and rows: list_files, then inspect_file.";
    best = std::move(out);
    // Measured on the result the caller gets: it escapes the cut whole, or its first hits all land in the
    // kept head.
    size_t n = std::min(kHitsInHead, hits.size());
    if (DumpJson(best).size() <= kCutAbove || HeadEnd(best, "results", n) + kHeadMargin <= kCompactHeadChars)
      break;
  }
  return best;
}

Json CompactSearch(const Json& full) {
  const Json& results =
      full.contains("results") && full["results"].is_array() ? full["results"] : Json::array();
  Json out = Json::object();
  CopyKeys(full, out, {"count", "total", "truncated"});
  // Titles while the whole list fits the window uncut; past that, every id it can show counts more.
  Json titled = Json::array(), bare = Json::array();
  for (const Json& r : results) {
    std::string id = FullId(r);
    std::string title = Str(r, "title");
    std::string plain = id.substr(id.find('/') == std::string::npos ? 0 : id.find('/') + 1);
    titled.push_back(title.empty() || Fold(title) == Fold(plain) ? id : id + " | " + Clip(title, 60));
    bare.push_back(id);
  }
  out["results"] = std::move(titled);
  if (DumpJson(out).size() > kCutAbove - 600) out["results"] = std::move(bare);
  CopyKeys(full, out, {"truncated_prefixes"});
  // The prefixes that found nothing (results_by_prefix repeats every id; these are what it adds).
  if (full.contains("results_by_prefix") && full["results_by_prefix"].is_object()) {
    Json empty = Json::array();
    for (const auto& [p, list] : full["results_by_prefix"].items())
      if (list.is_array() && list.empty()) empty.push_back(p);
    if (!empty.empty()) out["prefixes_without_results"] = std::move(empty);
  }
  return out;
}

Json CompactListFiles(const Json& full) {
  Json out = Json::object();
  CopyKeys(full, out, {"count", "total", "truncated", "failed_count"});
  Json by = Json::object();
  if (full.contains("by_dataset") && full["by_dataset"].is_object()) {
    for (const auto& [id, entry] : full["by_dataset"].items()) {
      if (!entry.is_object() || entry.contains("error")) {
        by[id] = entry;
        continue;
      }
      Json files = Json::array();
      if (entry.contains("files") && entry["files"].is_array()) {
        for (const Json& f : entry["files"]) {
          std::string path = Str(f, "path");
          files.push_back(f.contains("size") && f["size"].is_number()
                              ? fmt::format("{} ({} B)", path, f["size"].dump())
                              : path);
        }
      }
      Json e = {{"files", std::move(files)}};
      CopyKeys(entry, e, {"count", "total", "truncated"});
      by[id] = std::move(e);
    }
  }
  out["by_dataset"] = std::move(by);
  return out;
}

Json CompactDownload(const Json& full) {
  Json out = Json::object();
  Json list = Json::array();
  if (full.contains("downloaded") && full["downloaded"].is_array()) {
    for (const Json& d : full["downloaded"]) {
      Json e = Json::object();
      CopyKeys(d, e, {"local_path", "alias_path", "size", "status", "alias_unavailable"});
      list.push_back(std::move(e));
    }
  }
  out["downloaded"] = std::move(list);
  CopyKeys(full, out, {"download_count", "errors", "sandbox_dir"});
  return out;
}

// A list the model needs only the length of: replaced by its count.
void CountInsteadOfList(Json& out, const char* list, const char* count) {
  if (!out.contains(list) || !out[list].is_array()) return;
  out[count] = out[list].size();
  out.erase(list);
}

// Lists an answer does not need that sit after the output and would take the kept tail.
Json CompactExecuteCode(const Json& full) {
  Json out = full;
  CountInsteadOfList(out, "sandbox_files", "sandbox_file_count");
  out.erase("elapsed_ms");
  // The traceback is also in stderr: shown once.
  if (out.contains("traceback") && out["traceback"].is_string() && out.contains("stderr") &&
      out["stderr"].is_string() &&
      out["stderr"].get_ref<const std::string&>().find(out["traceback"].get_ref<const std::string&>()) !=
          std::string::npos)
    out.erase("traceback");
  // The printed output last, so the paper's cut keeps its end.
  if (out.contains("output")) {
    Json o = out["output"];
    out.erase("output");
    out["output"] = std::move(o);
  }
  return out;
}

Json CompactQuery(const Json& full) {
  Json out = full;
  CountInsteadOfList(out, "views", "view_count");
  out.erase("types");
  out.erase("elapsed_ms");
  out.erase("columnar_cache");
  return out;
}

Json CompactGraphQuery(const Json& full) {
  Json out = full;
  constexpr size_t kIds = 10;
  for (const char* k : {"nodes", "edges"}) {
    if (!out.contains(k) || !out[k].is_array()) continue;
    Json& list = out[k];
    while (list.size() > kIds) list.erase(list.size() - 1);
  }
  out.erase("elapsed_ms");
  out.erase("types");
  return out;
}

}  // namespace

Result<ResultView> ParseResultView(const Json& value) {
  if (value.is_string()) {
    const std::string& v = value.get_ref<const std::string&>();
    if (v == "full") return ResultView::kFull;
    if (v == "compact") return ResultView::kCompact;
    return InvalidArgument("argument 'view' must be \"full\" or \"compact\", got \"" + v + "\"");
  }
  return InvalidArgument("argument 'view' must be \"full\" or \"compact\", got " +
                         std::string(value.type_name()));
}

Json CompactView(std::string_view tool, const Json& full) {
  if (!full.is_object() || (full.contains("error") && full.size() == 1)) return full;
  if (tool == "search_keyword") return CompactSearchKeyword(full);
  if (tool == "search") return CompactSearch(full);
  if (tool == "list_files") return CompactListFiles(full);
  if (tool == "download") return CompactDownload(full);
  if (tool == "execute_code") return CompactExecuteCode(full);
  if (tool == "query") return CompactQuery(full);
  if (tool == "graph_query") return CompactGraphQuery(full);
  return full;
}

}  // namespace lakeqa::tools
