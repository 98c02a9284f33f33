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
#include "lakeqa/common/progress.h"
#include "lakeqa/graph/index_pipeline.h"
#include "lakeqa/index/schema.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string lake;
  graph::IndexBuildOptions build;  // the flags bind to it directly
  RankingFlags ranking;
  StoreFlags store;
  OutputOptions out;
};

// The stderr side of a build: the profiling estimate (always), the catalog's warnings, and notes of long
// steps unless -q.
void SetReporting(graph::IndexBuildOptions& b, const OutputOptions& out) {
  b.progress = !out.quiet;
  b.on_estimate = [](const Json& e) {
    // Always on stderr, before any file is read: what the profiling phase is about to cost.
    fmt::print(stderr, "lakeqa: profile={}: {} files to read: {} GET requests, {}\n",
               e["mode"].get<std::string>(), e["files_to_profile"].get<int64_t>(),
               e["get_requests"].get<int64_t>(), HumanBytes(e["bytes_to_read"].get<uint64_t>()));
  };
  b.on_warning = [](const std::string& w) { fmt::print(stderr, "lakeqa: warning: {}\n", w); };
  if (!out.quiet) b.on_note = [](const std::string& n) { fmt::print(stderr, "lakeqa: {}\n", n); };
}

void PrintGraphAndParagraphs(const graph::IndexBuildReport& r) {
  const graph::LakeGraphReport& g = r.graph;
  if (g.node_files > 0) {
    fmt::print("graph: {} nodes, {} edges from {} node and {} relation files; {} rows not taken\n", g.nodes,
               g.edges, g.node_files, g.relation_files, g.schema.problems_total);
    for (const auto& p : g.schema.problems)
      fmt::print(stderr, "lakeqa: graph: {}:{}: {}\n", p.source, p.line, p.message);
  }
  if (!g.errors.empty()) fmt::print("graph: {} files not read\n", g.errors.size());
  for (const auto& e : g.errors) fmt::print(stderr, "lakeqa: graph: {}: {}\n", e.file, e.message);
  if (r.paragraphs && r.paragraphs->written) {
    const index::ParagraphBuildReport& p = *r.paragraphs;
    fmt::print(
        "paragraph index: {} paragraphs of {} pages ({} cut at {} per page, {} cut at {} bytes); "
        "{} pages not read{}\n",
        p.paragraphs, p.pages, p.cut.paragraphs, index::ParagraphOptions{}.max_paragraphs_per_page,
        p.cut.bytes, index::ParagraphOptions{}.max_paragraph_bytes, p.errors.size(),
        p.rebuilt ? "" : " (unchanged: no page changed)");
  }
  if (r.paragraphs) {
    for (const auto& e : r.paragraphs->errors)
      fmt::print(stderr, "lakeqa: paragraphs: {}: {}\n", e.file, e.message);
  }
}

void PrintText(const graph::IndexBuildOptions& o, const graph::IndexBuildReport& r) {
  const catalog::BuildReport& c = r.catalog;
  fmt::print("catalogued {} datasets, {} files ({} listed, {} profiled, {} unchanged, {} removed) in {}\n",
             c.datasets, c.listed, c.listed, c.profiled, c.unchanged, c.removed, HumanDuration(c.seconds));
  fmt::print("read {}{}; {} files with errors (see `lakeqa catalog stats --index {}`)\n",
             HumanBytes(c.bytes_read), c.requests ? fmt::format(" in {} requests", c.requests) : "", c.errors,
             o.index_dir);
  const auto& text = r.text;
  if (text && o.text) {
    fmt::print("text index: {} datasets ({} added, {} updated, {} unchanged, {} deleted) in {}\n",
               text->datasets, text->added, text->updated, text->unchanged, text->deleted,
               HumanDuration(text->seconds));
    fmt::print("near-duplicates: {} groups of {} datasets (among {} shared titles)\n",
               text->near_duplicates.groups, text->near_duplicates.datasets,
               text->near_duplicates.title_groups);
  }
  if (text && o.chunks) fmt::print("chunk index: {} chunks written\n", text->chunks);
  fmt::print("sources: {} doc, {} table, {} graph datasets\n", r.sources.Find("doc")->datasets,
             r.sources.Find("table")->datasets, r.sources.Find("graph")->datasets);
  PrintGraphAndParagraphs(r);
  if (const auto& v = r.vectors) {
    if (v->rebuilt)
      fmt::print("vector index: {} datasets embedded with {} ({} with no embeddable text), rebuilt whole\n",
                 v->documents, v->embedder, v->empty);
    else fmt::print("vector index: unchanged ({} datasets, {})\n", v->documents, v->embedder);
  }
}

int Run(const Opts& o) {
  auto store = OpenFromFlags(o.lake, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  index::Schema schema = index::Schema::Datasets();
  auto ranking = ApplyRankingFlags(o.ranking, schema, index::DatasetRanking());
  if (!ranking.ok()) return Fail(ranking.status(), o.out);
  graph::IndexBuildOptions b = o.build;
  b.ranking = *ranking;
  SetReporting(b, o.out);
  auto report = graph::BuildIndex(**store, b);
  if (!report.ok()) return Fail(report.status(), o.out);
  if (o.out.json) PrintJson(report->ToJson());
  else PrintText(b, *report);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "index", "Build the catalog and indexes of a lake")
          ->add_subcommand("build", "Crawl a lake, profile its files and write the catalog (incremental)");
  cmd->add_option("--lake", o->lake, "Lake root: a path, file:///path or s3://bucket[/prefix]")->required();
  cmd->add_option("--index", o->build.index_dir, "Index directory (created if missing)")->required();
  cmd->add_option(
         "--profile", o->build.profile,
         "auto (full on a local lake, head on S3), none (names, sizes, metadata files), head (first 64 KB; "
         "a larger XLSX/DOCX/zip is also read from its end), full")
      ->capture_default_str();
  cmd->add_option("--jobs", o->build.jobs,
                  "Profiling threads (default: cores; remote lakes use at least 32)");
  cmd->add_option("--debug-kill-after-batches", o->build.debug_kill_after_batches,
                  "Test hook: SIGKILL after N committed batches")
      ->group("");
  cmd->add_flag(
      "--no-text", [o](int64_t) { o->build.text = false; },
      "Build the catalog only, not the text index (<index>/text/)");
  cmd->add_flag("--chunks", o->build.chunks,
                "Also build the chunk index for RAG baselines (<index>/chunks/)");
  cmd->add_option("--chunk-window", o->build.chunk.window, "Words per chunk")->capture_default_str();
  cmd->add_option("--chunk-overlap", o->build.chunk.overlap, "Words shared by consecutive chunks")
      ->capture_default_str();
  cmd->add_option("--chunk-max-words", o->build.chunk.max_words, "Words chunked per dataset")
      ->capture_default_str();
  cmd->add_flag("--rebuild-text", o->build.rebuild_text, "Drop and rebuild the text (and chunk) indexes");
  cmd->add_flag("--force", o->build.force_other_lake,
                "Replace an index built from another lake (refused without it)");
  cmd->add_option(
      "--vectors", o->build.vectors,
      "Also build the vector index (<index>/vectors/): glove, or http:<base url> of an "
      "OpenAI-compatible /v1/embeddings server; re-embeds everything when the text index changed");
  cmd->add_option(
      "--glove", o->build.glove,
      "--vectors glove: the GloVe binary (default $LAKEQA_GLOVE, else ./.deps/glove/glove100.bin)");
  cmd->add_option("--embed-model", o->build.embed_model, "--vectors http: the model name sent to the server")
      ->capture_default_str();
  cmd->add_option("--embed-key-env", o->build.embed_key_env,
                  "--vectors http: environment variable holding the API key")
      ->capture_default_str();
  AddRankingFlags(cmd, o->ranking);
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
