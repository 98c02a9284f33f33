// `lakeqa index build --lake <uri> --index <dir> [--profile none|head|full] [--jobs N] [--no-text]
//  [--chunks [--chunk-window N --chunk-overlap N --chunk-max-words N]]`: the catalog, then the text
// index of its datasets (and, with --chunks, the chunk index for RAG baselines).
#include <fmt/format.h>

#include <optional>

#include "cli/store_options.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/index/catalog_docs.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string lake, index, profile = "head";
  size_t jobs = 0;
  uint64_t debug_kill_after = 0;
  bool no_text = false, chunks = false, rebuild_text = false;
  index::ChunkOptions chunk;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto mode = catalog::ParseProfileMode(o.profile);
  if (!mode.ok()) return Fail(mode.status(), o.out);
  auto store = OpenFromFlags(o.lake, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  catalog::BuildOptions bo;
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
  std::optional<index::TextBuildReport> text;
  if (!o.no_text || o.chunks) {
    auto cat = catalog::Catalog::Open(o.index + "/catalog.sqlite");
    if (!cat.ok()) return Fail(cat.status(), o.out);
    index::TextBuildOptions to;
    to.text = !o.no_text;
    to.chunks = o.chunks;
    to.chunk = o.chunk;
    to.progress = !o.out.quiet;
    to.rebuild = o.rebuild_text;
    auto tr = index::BuildTextIndex(**cat, o.index, to);
    if (!tr.ok()) return Fail(tr.status().WithContext("text index of " + o.index), o.out);
    text = *tr;
  }
  if (o.out.json) {
    Json j = report->ToJson();
    j["index"] = o.index;
    j["lake"] = (*store)->Uri();
    if (text) j["text"] = text->ToJson();
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
    if (text && o.chunks) fmt::print("chunk index: {} chunks written\n", text->chunks);
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "index", "Build the catalog and indexes of a lake")
                      ->add_subcommand("build", "Crawl a lake, profile its files and write the catalog (incremental)");
  cmd->add_option("--lake", o->lake, "Lake root: a path, file:///path or s3://bucket[/prefix]")->required();
  cmd->add_option("--index", o->index, "Index directory (created if missing)")->required();
  cmd->add_option("--profile", o->profile, "none (names, sizes, metadata files), head (first 64 KB), full")
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
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
