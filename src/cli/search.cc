// `lakeqa search --index <dir> "<query>" [--k N] [--offset N] [--mode bm25|vector|hybrid] [--collapse]
//  [--explain] [--filter field=value ...] [--facets f1,f2 --facet-limit N] [ranking flags] [--json]`: ranked
// dataset discovery over <dir>/text/; `--prefix` lists dataset ids by prefix instead (S3
// list-with-delimiter semantics over the catalog: `--delimiter`, `--max-keys`, `--token`).
#include <fmt/format.h>

#include <algorithm>

#include "cli/command.h"
#include "cli/search_flags.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/hit_view.h"
#include "lakeqa/index/prefix.h"
#include "lakeqa/index/retriever.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index, query, facets;
  std::vector<std::string> filters;
  size_t k = 10, offset = 0, facet_limit = 20;
  bool prefix = false, collapse = false, explain = false;
  std::string delimiter, token;
  uint64_t max_keys = 100;
  RetrievalFlags retrieval;
  RankingFlags ranking;
  OutputOptions out;
};

// --filter field=value, repeated: values of one field OR, fields AND (as field:value in the query).
Status AddFilters(const std::vector<std::string>& filters, const index::Schema& schema, index::Query& q) {
  for (const auto& f : filters) {
    size_t eq = f.find('=');
    if (eq == std::string::npos || eq == 0)
      return InvalidArgument("--filter '" + f + "': expected field=value (e.g. namespace=datagov)");
    std::string field = f.substr(0, eq);
    int i = schema.Find(field);
    if (i < 0 || !schema.fields()[i].keyword) {
      std::string names;
      for (const auto& s : schema.fields()) {
        if (s.keyword) names += (names.empty() ? "" : ", ") + s.name;
      }
      return InvalidArgument("--filter '" + f + "': '" + field +
                             "' is not a filterable field (one of: " + names + ")");
    }
    std::string value = text::FoldKeyword(f.substr(eq + 1));
    bool merged = false;
    for (auto& c : q.filters) {
      if (c.field == i) {
        c.values.push_back(value);
        merged = true;
      }
    }
    if (!merged) q.filters.push_back({i, {value}});
  }
  return Status::Ok();
}

int RunPrefix(const Opts& o) {
  auto cat = catalog::Catalog::Open(catalog::IndexDir(o.index).Catalog(), /*read_only=*/true);
  if (!cat.ok()) return Fail(cat.status(), o.out);
  index::PrefixRequest req;
  req.prefix = o.query;
  req.delimiter = o.delimiter;
  req.max_keys = o.max_keys;
  req.continuation = o.token;
  auto r = index::ListPrefix(**cat, req);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (o.out.json) {
    Json j = r->ToJson();
    j["prefix"] = o.query;
    j["delimiter"] = o.delimiter;
    PrintJson(j);
    return 0;
  }
  for (const auto& p : r->common_prefixes) fmt::print("{:<60} (prefix)\n", p);
  for (const auto& k : r->keys)
    fmt::print("{:<60} {:>5} files {:>9}  {}\n", k.id, k.file_count, HumanBytes(k.bytes), k.title);
  if (r->truncated) fmt::print("... more: --token '{}'\n", r->next_token);
  return 0;
}

void PrintHit(size_t rank, const index::Hit& h, const Json& view) {
  std::string title = view["title"].get<std::string>();
  fmt::print("{:>3}. {:>8.3f}  {}{}\n", rank, h.score, h.id, title.empty() ? "" : "  — " + title);
  std::string facts;
  if (!view["rows"].is_null())
    facts +=
        fmt::format("{}{} rows", view["rows_exact"].get<bool>() ? "" : ">=", view["rows"].get<uint64_t>());
  if (!view["months"].get<std::string>().empty())
    facts += (facts.empty() ? "" : "; ") + view["months"].get<std::string>();
  if (!view["years"].get<std::string>().empty())
    facts += (facts.empty() ? "" : "; ") + view["years"].get<std::string>();
  if (!facts.empty()) fmt::print("              {}\n", facts);
  std::string desc = view["description"].get<std::string>();
  if (!desc.empty()) fmt::print("              {}\n", desc);
  if (!view["matched"].empty()) {
    std::string m;
    for (const auto& [field, words] : view["matched"].items()) {
      std::string ws;
      for (const auto& w : words) ws += (ws.empty() ? "" : " ") + w.get<std::string>();
      m += (m.empty() ? "" : "; ") + field + ": " + ws;
    }
    fmt::print("              matched {}\n", m);
  }
  for (const auto& d : view["near_duplicates"]) {
    std::string differs;
    for (const auto& x : d["differs"]) differs += (differs.empty() ? "" : "; ") + x.get<std::string>();
    fmt::print("              near-duplicate {} ({})\n", d["id"].get<std::string>(), differs);
  }
  if (h.explanation) {
    std::string text = h.explanation->ToText();
    for (std::string_view line : Split(text, '\n')) {
      if (!line.empty()) fmt::print("            {}\n", line);
    }
  }
}

int Run(const Opts& o) {
  if (o.prefix) return RunPrefix(o);
  auto ro = ToRetrieverOptions(o.retrieval);
  if (!ro.ok()) return Fail(ro.status(), o.out);
  ro->collapse = o.collapse;
  auto retriever = index::Retriever::Open(o.index, *ro);
  if (!retriever.ok()) return Fail(retriever.status(), o.out);
  index::Retriever& r = **retriever;
  const index::IndexReader& reader = r.searcher().reader();
  auto ranking = ApplyRankingFlags(o.ranking, reader.schema(), reader.ranking());
  if (!ranking.ok()) return Fail(ranking.status(), o.out);
  std::vector<index::Correction> corrections;
  auto q = r.searcher().Parse(o.query, &corrections, *ranking ? &**ranking : nullptr);
  if (!q.ok()) return Fail(q.status().WithContext("query"), o.out);
  if (Status s = AddFilters(o.filters, reader.schema(), *q); !s.ok()) return Fail(s, o.out);
  index::SearchOptions so;
  so.k = o.k;
  so.offset = o.offset;
  so.count_total = true;
  so.explain = o.explain;
  so.facet_limit = o.facet_limit;
  if (*ranking) so.ranking = &**ranking;
  for (auto f : Split(o.facets, ',')) {
    f = Trim(f);
    if (!f.empty()) so.facet_fields.emplace_back(f);
  }
  auto res = r.Search(o.query, *q, so);
  if (!res.ok()) return Fail(res.status(), o.out);
  res->corrections = corrections;
  std::vector<Json> views;
  for (const auto& h : res->hits) views.push_back(index::HitJson(h, &r.duplicates()));
  if (o.out.json) {
    Json facets = Json::object();
    for (const auto& [f, vals] : res->facets) {
      Json a = Json::array();
      for (const auto& v : vals) a.push_back({{"value", v.value}, {"count", v.count}});
      facets[f] = a;
    }
    Json corr = Json::array();
    for (const auto& c : res->corrections)
      corr.push_back({{"word", c.word}, {"term", c.term}, {"kept_word", true}});
    Json j = {{"query", o.query},
              {"mode", o.retrieval.mode},
              {"total", res->total < 0 ? Json() : Json(res->total)},
              {"offset", o.offset},
              {"collapse", o.collapse},
              {"hits", views},
              {"facets", facets},
              {"dropped", res->dropped},
              {"corrections", corr}};
    if (!res->note.empty()) j["note"] = res->note;
    PrintJson(j);
    return 0;
  }
  if (res->total >= 0) fmt::print("{} matching datasets\n", res->total);
  if (!res->note.empty()) fmt::print("{}\n", res->note);
  for (const auto& c : res->corrections)
    fmt::print("(no dataset holds '{}': also searched for '{}', counted at a discount)\n", c.word, c.term);
  for (size_t i = 0; i < res->hits.size(); ++i) PrintHit(o.offset + i + 1, res->hits[i], views[i]);
  for (const auto& [f, vals] : res->facets) {
    fmt::print("facet {}:", f);
    for (const auto& v : vals) fmt::print("  {} ({})", v.value, v.count);
    fmt::print("\n");
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      root.add_subcommand("search", "Find datasets: ranked text search, or --prefix listing of ids");
  cmd->add_option("--index", o->index, "Index directory (from `lakeqa index build`)")->required();
  cmd->add_option(
         "query", o->query,
         "Query: words, \"phrases\", prefix*, field:value (see docs/search.md); with --prefix, an id prefix")
      ->required();
  cmd->add_option("--k", o->k, "Hits to return")->capture_default_str();
  cmd->add_option("--offset", o->offset, "Hits to skip (the next page: --offset 10 after --k 10)")
      ->capture_default_str();
  cmd->add_flag("--collapse", o->collapse, "One hit per near-duplicate group (the others are listed in it)");
  cmd->add_flag("--explain", o->explain, "bm25: per hit, what every query term and field added to the score");
  AddRetrievalFlags(cmd, o->retrieval);
  AddRankingFlags(cmd, o->ranking);
  cmd->add_option("--filter", o->filters,
                  "field=value on a keyword field (namespace, format, category, tags, "
                  "theme, publisher); repeatable");
  cmd->add_option("--facets", o->facets, "Comma-separated keyword fields to count over all matches");
  cmd->add_option("--facet-limit", o->facet_limit, "Values shown per facet")->capture_default_str();
  cmd->add_flag("--prefix", o->prefix, "List dataset ids starting with the query instead of searching");
  cmd->add_option("--delimiter", o->delimiter, "With --prefix: roll up ids at this delimiter (e.g. /)");
  cmd->add_option("--max-keys", o->max_keys, "With --prefix: page size (1..1000)")->capture_default_str();
  cmd->add_option("--token", o->token, "With --prefix: continuation token of the previous page");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
