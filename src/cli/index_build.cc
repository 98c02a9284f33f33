// `lakeqa index build --lake <uri> --index <dir> [--profile none|head|full] [--jobs N]`
#include <fmt/format.h>

#include "cli/store_options.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/common/progress.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string lake, index, profile = "head";
  size_t jobs = 0;
  uint64_t debug_kill_after = 0;
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
  auto report = catalog::BuildCatalog(**store, o.index, bo);
  if (!report.ok()) return Fail(report.status(), o.out);
  if (o.out.json) {
    Json j = report->ToJson();
    j["index"] = o.index;
    j["lake"] = (*store)->Uri();
    PrintJson(j);
  } else {
    fmt::print("catalogued {} datasets, {} files ({} listed, {} profiled, {} unchanged, {} removed) in {}\n",
               report->datasets, report->listed, report->listed, report->profiled, report->unchanged, report->removed,
               HumanDuration(report->seconds));
    fmt::print("read {}{}; {} files with errors (see `lakeqa catalog stats --index {}`)\n", HumanBytes(report->bytes_read),
               report->requests ? fmt::format(" in {} requests", report->requests) : "", report->errors, o.index);
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
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
