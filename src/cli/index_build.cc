// `lakeqa index build --lake <uri> --index <dir> [--profile auto|none|head|full] [--jobs N] [--no-text]
//  [--chunks [--chunk-window N --chunk-overlap N --chunk-max-words N]]
//  [--vectors glove|http:<base url> [--glove <bin>] [--embed-model M] [--embed-key-env VAR]]`: the catalog,
// then the text index of its datasets (and, with --chunks, the chunk index for RAG baselines; with
// --vectors, the vector index of the text index's documents); then sources.json, the graph and (unless
// --no-text) the paragraph index of the doc-source pages.
#include <fmt/format.h>

#include <optional>

#include "cli/search_flags.h"
#include "cli/store_options.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/catalog_docs.h"
#include "lakeqa/graph/lake_graph.h"
#include "lakeqa/index/embedder.h"
#include "lakeqa/index/paragraphs.h"
#include "lakeqa/index/sources.h"
#include "lakeqa/index/vector_index.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string lake, index, profile = "auto";
  size_t jobs = 0;
  uint64_t debug_kill_after = 0;
  bool no_text = false, chunks = false, rebuild_text = false, force = false;
  index::ChunkOptions chunk;
  std::string vectors, glove, embed_model = "text-embedding-3-small", embed_key_env = "OPENAI_API_KEY";
  RankingFlags ranking;
  StoreFlags store;
  OutputOptions out;
};

// The document embedder named by --vectors: "glove" (the GloVe binary) or "http:<base url>".
Result<std::unique_ptr<index::Embedder>> MakeEmbedder(const Opts& o) {
  index::EmbedderChoice c;
  if (o.vectors == "glove") {
    c.glove_path = o.glove;
    return index::OpenEmbedder(c);
  }
  if (o.vectors.rfind("http:", 0) == 0 && o.vectors.size() > 5) {
    c.use_http = true;
    c.http.base_url = o.vectors.substr(5);
    c.http.model = o.embed_model;
    c.http.api_key_env = o.embed_key_env;
    return index::OpenEmbedder(c);
  }
  return InvalidArgument("--vectors must be 'glove' or 'http:<base url>' (e.g. http:http://127.0.0.1:8080), got '" +
                         o.vectors + "'");
}

// Whether <index>/vectors/ already embeds exactly the current text index with this embedder: its
// manifest names the embedder and the text build changed nothing. The vector index has no incremental
// update (an HNSW graph does not delete well), so any change re-embeds everything.
bool VectorsUpToDate(const std::string& index_dir, const std::string& embedder,
                     const std::optional<index::TextBuildReport>& text) {
  if (!text || text->added || text->updated || text->deleted) return false;
  const std::string path = catalog::IndexDir(index_dir).VectorsManifest();
  auto raw = ReadFile(path, 1 << 20);
  if (!raw.ok()) return false;
  auto m = ParseJson(*raw, path);
  if (!m.ok() || !m->is_object()) return false;
  auto e = m->find("embedder");
  auto c = m->find("count");
  return e != m->end() && e->is_string() && *e == embedder && c != m->end() && c->is_number_unsigned() &&
         c->get<uint64_t>() == text->datasets;
}

int Run(const Opts& o) {
  std::unique_ptr<index::Embedder> embedder;
  if (!o.vectors.empty()) {
    // Before the crawl: a bad --vectors or a missing GloVe file fails fast, not after the whole build.
    auto e = MakeEmbedder(o);
    if (!e.ok()) return Fail(e.status().WithContext("--vectors"), o.out);
    embedder = std::move(*e);
  }
  auto store = OpenFromFlags(o.lake, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  // auto: the whole file on a local lake, where reading it is cheap and a head's counts would be guesses;
  // the head (with its cost said before any read) on a remote store, where every byte is a paid request.
  std::string profile = o.profile == "auto" ? ((*store)->IsRemote() ? "head" : "full") : o.profile;
  auto mode = catalog::ParseProfileMode(profile);
  if (!mode.ok()) return Fail(mode.status(), o.out);
  catalog::FirstBuildCleanup cleanup(o.index);
  catalog::BuildOptions bo;
  bo.force_other_lake = o.force;
  bo.mode = *mode;
  bo.jobs = o.jobs;
  bo.progress = !o.out.quiet;
  bo.debug_kill_after_batches = o.debug_kill_after;
  bo.on_estimate = [&](const Json& e) {
    // Always on stderr, before any file is read: what the profiling phase is about to cost.
    fmt::print(stderr, "lakeqa: profile={}: {} files to read: {} GET requests, {}\n", e["mode"].get<std::string>(),
               e["files_to_profile"].get<int64_t>(), e["get_requests"].get<int64_t>(),
               HumanBytes(e["bytes_to_read"].get<uint64_t>()));
  };
  if (o.chunks) {
    if (Status cs = o.chunk.Validate(); !cs.ok()) return Fail(cs, o.out);
  }
  auto report = catalog::BuildCatalog(**store, o.index, bo);
  if (!report.ok()) return Fail(report.status(), o.out);
  for (const std::string& w : report->warnings)
    fmt::print(stderr, "lakeqa: warning: {}\n", w);
  std::optional<index::TextBuildReport> text;
  if (!o.no_text || o.chunks) {
    auto cat = catalog::Catalog::Open(catalog::IndexDir(o.index).Catalog());
    if (!cat.ok()) return Fail(cat.status(), o.out);
    index::TextBuildOptions to;
    to.text = !o.no_text;
    to.chunks = o.chunks;
    to.chunk = o.chunk;
    to.progress = !o.out.quiet;
    to.rebuild = o.rebuild_text;
    index::Schema schema = index::Schema::Datasets();
    auto ranking = ApplyRankingFlags(o.ranking, schema, index::DatasetRanking());
    if (!ranking.ok()) return Fail(ranking.status(), o.out);
    to.ranking = *ranking;
    auto tr = index::BuildTextIndex(**cat, o.index, to);
    if (!tr.ok()) return Fail(tr.status().WithContext("text index of " + o.index), o.out);
    text = *tr;
  }
  // Sources and summaries (CMDBench's routing) and the graph view of Neo4j-import files: docs/cmdbench.md.
  std::optional<index::SourceSummaries> sources;
  std::optional<graph::LakeGraphReport> graph_report;
  std::optional<index::ParagraphBuildReport> paragraphs;
  {
    auto cat = catalog::Catalog::Open(catalog::IndexDir(o.index).Catalog(), /*read_only=*/true);
    if (!cat.ok()) return Fail(cat.status(), o.out);
    auto ss = index::BuildSourceSummaries(**cat, o.index);
    if (!ss.ok()) return Fail(ss.status().WithContext("source summaries of " + o.index), o.out);
    sources = std::move(*ss);
    auto gr = graph::BuildLakeGraph(**cat, **store, catalog::IndexDir(o.index).Graph());
    if (!gr.ok()) return Fail(gr.status().WithContext("graph of " + o.index), o.out);
    graph_report = std::move(*gr);
    // Paragraph units of the doc-source pages (<index>/paragraphs/): rebuilt whole when a page changed.
    if (!o.no_text) {
      auto pr = index::BuildParagraphIndex(**cat, **store, o.index);
      if (!pr.ok()) return Fail(pr.status().WithContext("paragraph index of " + o.index), o.out);
      paragraphs = std::move(*pr);
    }
  }
  std::optional<Json> vectors;
  if (embedder) {
    if (VectorsUpToDate(o.index, embedder->name(), text)) {
      vectors = Json{{"embedder", embedder->name()}, {"rebuilt", false}, {"documents", text->datasets}};
    } else {
      if (!o.out.quiet) fmt::print(stderr, "lakeqa: embedding every dataset with {} (the vector index is rebuilt whole)\n", embedder->name());
      auto vr = index::BuildDatasetVectors(o.index, *embedder);
      if (!vr.ok()) return Fail(vr.status().WithContext("vector index of " + o.index), o.out);
      vectors = Json{{"embedder", embedder->name()}, {"rebuilt", true}, {"documents", vr->documents}, {"empty", vr->empty}};
    }
  }
  cleanup.Succeeded();
  if (o.out.json) {
    Json j = report->ToJson();
    j["index"] = o.index;
    j["lake"] = (*store)->Uri();
    if (text) j["text"] = text->ToJson();
    if (vectors) j["vectors"] = *vectors;
    Json src = Json::object();
    for (const auto& x : sources->sources) src[x.name] = x.datasets;
    j["sources"] = src;
    j["graph"] = graph_report->ToJson();
    if (paragraphs) j["paragraphs"] = paragraphs->ToJson();
    PrintJson(j);
  } else {
    fmt::print("catalogued {} datasets, {} files ({} listed, {} profiled, {} unchanged, {} removed) in {}\n",
               report->datasets, report->listed, report->listed, report->profiled, report->unchanged, report->removed,
               HumanDuration(report->seconds));
    fmt::print("read {}{}; {} files with errors (see `lakeqa catalog stats --index {}`)\n", HumanBytes(report->bytes_read),
               report->requests ? fmt::format(" in {} requests", report->requests) : "", report->errors, o.index);
    if (text && !o.no_text) {
      fmt::print("text index: {} datasets ({} added, {} updated, {} unchanged, {} deleted) in {}\n", text->datasets,
                 text->added, text->updated, text->unchanged, text->deleted, HumanDuration(text->seconds));
    }
    if (text && !o.no_text)
      fmt::print("near-duplicates: {} groups of {} datasets (among {} shared titles)\n", text->near_duplicates.groups,
                 text->near_duplicates.datasets, text->near_duplicates.title_groups);
    if (text && o.chunks) fmt::print("chunk index: {} chunks written\n", text->chunks);
    fmt::print("sources: {} doc, {} table, {} graph datasets\n", sources->Find("doc")->datasets,
               sources->Find("table")->datasets, sources->Find("graph")->datasets);
    if (graph_report->node_files > 0) {
      fmt::print("graph: {} nodes, {} edges from {} node and {} relation files; {} rows not taken\n", graph_report->nodes,
                 graph_report->edges, graph_report->node_files, graph_report->relation_files,
                 graph_report->schema.problems_total);
      for (const auto& p : graph_report->schema.problems)
        fmt::print(stderr, "lakeqa: graph: {}:{}: {}\n", p.source, p.line, p.message);
    }
    if (!graph_report->errors.empty())
      fmt::print("graph: {} files not read\n", graph_report->errors.size());
    for (const auto& e : graph_report->errors) fmt::print(stderr, "lakeqa: graph: {}: {}\n", e.file, e.message);
    if (paragraphs && paragraphs->written) {
      fmt::print("paragraph index: {} paragraphs of {} pages ({} cut at {} per page, {} cut at {} bytes); "
                 "{} pages not read{}\n",
                 paragraphs->paragraphs, paragraphs->pages, paragraphs->cut.paragraphs,
                 index::ParagraphOptions{}.max_paragraphs_per_page, paragraphs->cut.bytes,
                 index::ParagraphOptions{}.max_paragraph_bytes, paragraphs->errors.size(),
                 paragraphs->rebuilt ? "" : " (unchanged: no page changed)");
    }
    if (paragraphs) {
      for (const auto& e : paragraphs->errors) fmt::print(stderr, "lakeqa: paragraphs: {}: {}\n", e.file, e.message);
    }
    if (vectors) {
      if ((*vectors)["rebuilt"].get<bool>())
        fmt::print("vector index: {} datasets embedded with {} ({} with no embeddable text), rebuilt whole\n",
                   (*vectors)["documents"].get<uint64_t>(), embedder->name(), (*vectors)["empty"].get<uint64_t>());
      else
        fmt::print("vector index: unchanged ({} datasets, {})\n", (*vectors)["documents"].get<uint64_t>(), embedder->name());
    }
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "index", "Build the catalog and indexes of a lake")
                      ->add_subcommand("build", "Crawl a lake, profile its files and write the catalog (incremental)");
  cmd->add_option("--lake", o->lake, "Lake root: a path, file:///path or s3://bucket[/prefix]")->required();
  cmd->add_option("--index", o->index, "Index directory (created if missing)")->required();
  cmd->add_option("--profile", o->profile,
                  "auto (full on a local lake, head on S3), none (names, sizes, metadata files), head (first 64 KB; "
                  "a larger XLSX/DOCX/zip is also read from its end), full")
      ->capture_default_str();
  cmd->add_option("--jobs", o->jobs, "Profiling threads (default: cores; remote lakes use at least 32)");
  cmd->add_option("--debug-kill-after-batches", o->debug_kill_after, "Test hook: SIGKILL after N committed batches")
      ->group("");
  cmd->add_flag("--no-text", o->no_text, "Build the catalog only, not the text index (<index>/text/)");
  cmd->add_flag("--chunks", o->chunks, "Also build the chunk index for RAG baselines (<index>/chunks/)");
  cmd->add_option("--chunk-window", o->chunk.window, "Words per chunk")->capture_default_str();
  cmd->add_option("--chunk-overlap", o->chunk.overlap, "Words shared by consecutive chunks")->capture_default_str();
  cmd->add_option("--chunk-max-words", o->chunk.max_words, "Words chunked per dataset")->capture_default_str();
  cmd->add_flag("--rebuild-text", o->rebuild_text, "Drop and rebuild the text (and chunk) indexes");
  cmd->add_flag("--force", o->force, "Replace an index built from another lake (refused without it)");
  cmd->add_option("--vectors", o->vectors,
                  "Also build the vector index (<index>/vectors/): glove, or http:<base url> of an "
                  "OpenAI-compatible /v1/embeddings server; re-embeds everything when the text index changed");
  cmd->add_option("--glove", o->glove, "--vectors glove: the GloVe binary (default $LAKEQA_GLOVE, else ./.deps/glove/glove100.bin)");
  cmd->add_option("--embed-model", o->embed_model, "--vectors http: the model name sent to the server")
      ->capture_default_str();
  cmd->add_option("--embed-key-env", o->embed_key_env, "--vectors http: environment variable holding the API key")
      ->capture_default_str();
  AddRankingFlags(cmd, o->ranking);
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
