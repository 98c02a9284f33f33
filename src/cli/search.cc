// `lakeqa search --index <dir> "<query>" [--k N] [--mode bm25] [--filter field=value ...] [--facets f1,f2]
//  [--json]`: ranked dataset discovery over <dir>/text/; `--prefix` lists dataset ids by prefix instead
// (S3 list-with-delimiter semantics over the catalog: `--delimiter`, `--max-keys`, `--token`).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "cli/command.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/catalog_docs.h"
#include "lakeqa/index/embedder.h"
#include "lakeqa/index/hybrid.h"
#include "lakeqa/index/prefix.h"
#include "lakeqa/index/vector_index.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index, query, mode = "bm25", facets;
  std::vector<std::string> filters;
  size_t k = 10;
  bool prefix = false;
  std::string delimiter, token;
  uint64_t max_keys = 100;
  bool all_stop_words = false;
  std::string glove, embed_url;
  double vector_weight = 0.7;
  OutputOptions out;
};

std::string StoredField(const index::Hit& h, std::string_view name) {
  for (const auto& [k, v] : h.fields) {
    if (k == name) return v;
  }
  return "";
}

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
      return InvalidArgument("--filter '" + f + "': '" + field + "' is not a filterable field (one of: " + names + ")");
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
  auto cat = catalog::Catalog::Open(o.index + "/catalog.sqlite", /*read_only=*/true);
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
  for (const auto& k : r->keys) fmt::print("{:<60} {:>5} files {:>9}  {}\n", k.id, k.file_count, HumanBytes(k.bytes), k.title);
  if (r->truncated) fmt::print("... more: --token '{}'\n", r->next_token);
  return 0;
}

// The query embedder for the vector index: the one its manifest names (GloVe file or HTTP server).
Result<std::unique_ptr<index::Embedder>> QueryEmbedder(const index::VectorIndex& vi, const Opts& o) {
  const std::string& name = vi.options().embedder;
  std::unique_ptr<index::Embedder> e;
  if (name.rfind("glove", 0) == 0) {
    std::string path = o.glove;
    if (path.empty()) {
      const char* env = std::getenv("LAKEQA_GLOVE");
      if (env == nullptr || !*env)
        return InvalidArgument("the vector index was embedded with " + name + ": pass --glove <glove100.bin> or set LAKEQA_GLOVE");
      path = env;
    }
    LAKEQA_ASSIGN_OR_RETURN(e, index::GloveEmbedder::Open(path));
  } else if (name.rfind("http:", 0) == 0) {
    if (o.embed_url.empty())
      return InvalidArgument("the vector index was embedded with " + name + ": pass --embed-url <base url>");
    index::HttpEmbedderOptions ho;
    ho.base_url = o.embed_url;
    ho.model = name.substr(5);
    ho.dim = vi.dim();
    LAKEQA_ASSIGN_OR_RETURN(e, index::HttpEmbedder::Create(ho));
  } else {
    return Unsupported("vector index embedded with unknown embedder '" + name + "'");
  }
  LAKEQA_RETURN_IF_ERROR(vi.CheckEmbedder(*e));
  return e;
}

// --mode vector|hybrid: nearest datasets by embedding, alone or fused (weighted RRF) with BM25 hits.
int RunVector(const Opts& o) {
  auto vi = index::VectorIndex::Load(o.index + "/vectors");
  if (!vi.ok()) return Fail(vi.status().WithContext("vector index (build it with `lakeqa index build --vectors glove|http:<url>`)"), o.out);
  auto emb = QueryEmbedder(**vi, o);
  if (!emb.ok()) return Fail(emb.status(), o.out);
  auto qv = (*emb)->Embed({o.query});
  if (!qv.ok()) return Fail(qv.status().WithContext("embedding the query"), o.out);
  size_t depth = o.mode == "hybrid" ? std::max<size_t>(o.k, 100) : o.k;
  auto vh = (*vi)->Search((*qv)[0], depth);
  if (!vh.ok()) return Fail(vh.status(), o.out);
  std::vector<index::FusedItem> fused;
  if (o.mode == "vector") {
    for (const auto& h : *vh) fused.push_back({h.id, h.score, {}, {}});
  } else {
    auto reader = index::IndexReader::Open(o.index + "/text");
    if (!reader.ok()) return Fail(reader.status(), o.out);
    text::AnalyzerOptions ao;
    ao.stop_words = !o.all_stop_words;
    index::Searcher searcher(*reader, ao);
    index::SearchOptions so;
    so.k = depth;
    so.snippets = false;
    auto tr = searcher.Search(o.query, so);
    if (!tr.ok()) return Fail(tr.status(), o.out);
    std::vector<index::RankedItem> text, vec;
    for (const auto& h : tr->hits) text.push_back({h.id, h.score});
    for (const auto& h : *vh) vec.push_back({h.id, h.score});
    index::HybridOptions ho;
    ho.vector_weight = o.vector_weight;
    ho.limit = o.k;
    auto f = index::FuseTextAndVectors(std::move(text), std::move(vec), ho);
    if (!f.ok()) return Fail(f.status(), o.out);
    fused = std::move(*f);
  }
  // Titles from the catalog: vector hits carry ids only.
  auto cat = catalog::Catalog::Open(o.index + "/catalog.sqlite", /*read_only=*/true);
  auto title = [&](const std::string& id) -> std::string {
    if (!cat.ok()) return "";
    auto d = (*cat)->GetDataset(id);
    auto files = (*cat)->ListFiles(id);
    if (!d.ok() || !files.ok()) return "";
    // The title the text index shows (catalog title, or the metadata-file fallback).
    for (const auto& [k, v] : index::DatasetDocument(*d, *files).fields) {
      if (k == "title") return v;
    }
    return "";
  };
  if (o.out.json) {
    Json hits = Json::array();
    for (const auto& h : fused) hits.push_back({{"id", h.id}, {"title", title(h.id)}, {"score", h.score}});
    PrintJson({{"query", o.query}, {"mode", o.mode}, {"total", -1}, {"hits", hits}, {"facets", Json::object()}});
    return 0;
  }
  size_t rank = 0;
  for (const auto& h : fused) {
    std::string t = title(h.id);
    fmt::print("{:>3}. {:>7.4f}  {}{}\n", ++rank, h.score, h.id, t.empty() ? "" : "  — " + t);
  }
  return 0;
}

int Run(const Opts& o) {
  if (o.prefix) return RunPrefix(o);
  if (o.mode == "vector" || o.mode == "hybrid") {
    if (!o.filters.empty() || !o.facets.empty())
      return Fail(InvalidArgument("--filter and --facets work with --mode bm25 only"), o.out);
    return RunVector(o);
  }
  if (o.mode != "bm25") return Fail(InvalidArgument("--mode must be bm25, vector or hybrid, got '" + o.mode + "'"), o.out);
  auto reader = index::IndexReader::Open(o.index + "/text");
  if (!reader.ok()) {
    Status s = reader.status();
    if (s.code() == ErrorCode::kNotFound)
      s = NotFound("no text index at " + o.index + "/text (run `lakeqa index build` without --no-text)");
    return Fail(s, o.out);
  }
  text::AnalyzerOptions ao;
  ao.stop_words = !o.all_stop_words;
  index::Searcher searcher(*reader, ao);
  text::Analyzer analyzer(ao);
  auto q = index::ParseQuery(o.query, (*reader)->schema(), analyzer);
  if (!q.ok()) return Fail(q.status().WithContext("query"), o.out);
  if (Status s = AddFilters(o.filters, (*reader)->schema(), *q); !s.ok()) return Fail(s, o.out);
  index::SearchOptions so;
  so.k = o.k;
  so.count_total = true;
  for (auto f : Split(o.facets, ',')) {
    f = Trim(f);
    if (!f.empty()) so.facet_fields.emplace_back(f);
  }
  auto r = searcher.Search(*q, so);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (o.out.json) {
    Json hits = Json::array();
    for (const auto& h : r->hits) {
      Json hl = Json::array();
      for (const auto& x : h.snippet.highlights) hl.push_back({x.start, x.end});
      hits.push_back({{"id", h.id},
                      {"title", StoredField(h, "title")},
                      {"score", h.score},
                      {"snippet", {{"field", h.snippet.field}, {"text", h.snippet.text}, {"highlights", hl}}},
                      {"matched_columns", h.matched_columns}});
    }
    Json facets = Json::object();
    for (const auto& [f, vals] : r->facets) {
      Json a = Json::array();
      for (const auto& v : vals) a.push_back({{"value", v.value}, {"count", v.count}});
      facets[f] = a;
    }
    PrintJson({{"query", o.query}, {"mode", o.mode}, {"total", r->total}, {"hits", hits}, {"facets", facets}});
    return 0;
  }
  fmt::print("{} matching datasets\n", r->total);
  size_t rank = 0;
  for (const auto& h : r->hits) {
    std::string title = StoredField(h, "title");
    fmt::print("{:>3}. {:>7.3f}  {}{}\n", ++rank, h.score, h.id, title.empty() ? "" : "  — " + title);
    if (!h.matched_columns.empty()) {
      std::string cols;
      for (const auto& c : h.matched_columns) cols += (cols.empty() ? "" : ", ") + c;
      fmt::print("             columns: {}\n", cols);
    }
    if (!h.snippet.text.empty()) {
      std::string snip = h.snippet.text;
      for (char& c : snip) {
        if (c == '\n' || c == '\t') c = ' ';
      }
      fmt::print("             {}: {}\n", h.snippet.field, snip);
    }
  }
  for (const auto& [f, vals] : r->facets) {
    fmt::print("facet {}:", f);
    for (const auto& v : vals) fmt::print("  {} ({})", v.value, v.count);
    fmt::print("\n");
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("search", "Find datasets: ranked text search, or --prefix listing of ids");
  cmd->add_option("--index", o->index, "Index directory (from `lakeqa index build`)")->required();
  cmd->add_option("query", o->query,
                  "Query: words, \"phrases\", prefix*, field:value (see docs/search.md); with --prefix, an id prefix")
      ->required();
  cmd->add_option("--k", o->k, "Hits to return")->capture_default_str();
  cmd->add_option("--mode", o->mode, "bm25, vector (<index>/vectors/) or hybrid (weighted RRF of both)")
      ->capture_default_str();
  cmd->add_option("--glove", o->glove, "vector/hybrid: GloVe binary for queries (default $LAKEQA_GLOVE)");
  cmd->add_option("--embed-url", o->embed_url, "vector/hybrid: base URL of the OpenAI-compatible embeddings server");
  cmd->add_option("--vector-weight", o->vector_weight, "hybrid: weight of the vector list (text gets 1 - it)")
      ->capture_default_str();
  cmd->add_option("--filter", o->filters, "field=value on a keyword field (namespace, format, category, tags, "
                                          "theme, publisher); repeatable");
  cmd->add_option("--facets", o->facets, "Comma-separated keyword fields to count over all matches");
  cmd->add_flag("--keep-stop-words", o->all_stop_words, "Score English stop words in the query too");
  cmd->add_flag("--prefix", o->prefix, "List dataset ids starting with the query instead of searching");
  cmd->add_option("--delimiter", o->delimiter, "With --prefix: roll up ids at this delimiter (e.g. /)");
  cmd->add_option("--max-keys", o->max_keys, "With --prefix: page size (1..1000)")->capture_default_str();
  cmd->add_option("--token", o->token, "With --prefix: continuation token of the previous page");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
