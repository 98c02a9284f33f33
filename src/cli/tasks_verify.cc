// `lakeqa tasks verify <paths> --lake <uri> --index <dir>`: the grounding check of the LakeQA annotation
// guideline. For every task, the oracle agent walks the gold nodes through the real tools (download of
// each node's source, its `fact` code run in the Python sandbox against the lake) and checks that each
// node yields its annotated answer. Exit 0 when every node of every task is grounded, 6 otherwise; questions
// that do not apply to a lake (CMDBench graph, document, source routing) are named with the reason and
// skipped (exit 11, unsupported, when no question applies).
#include <fmt/format.h>

#include "lakeqa/agent/verify.h"
#include "lakeqa/common/progress.h"

#include "cli/command.h"
#include "cli/store_options.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::vector<std::string> paths;
  std::string lake, index, work;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  agent::VerifyFilesOptions vo;
  vo.paths = o.paths;
  vo.env.index_dir = o.index;
  vo.env.lake = o.lake;
  vo.env.work_dir = o.work;
  vo.env.store_options = StoreFlagsJson(o.store);
  vo.on_note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  ProgressBar bar("verifying", 0, "tasks", !o.out.quiet && !o.out.json);
  vo.progress = &bar;
  auto r = agent::VerifyTaskFiles(vo);
  if (!r.ok()) return Fail(r.status(), o.out);
  const agent::VerifyReport& rep = r->verify;
  if (o.out.json) {
    PrintJson(r->ToJson());
  } else {
    for (const Json& row : rep.results) {
      if (row["grounded"].get<bool>()) continue;
      fmt::print("NOT GROUNDED {} ({}): {}\n", row["task_id"].get<std::string>(),
                 row["file"].get<std::string>(),
                 row.value("error", std::string("a node did not yield its answer")));
    }
    fmt::print(
        "{}/{} tasks grounded, {}/{} nodes{}{}\n", rep.tasks_grounded, rep.tasks, rep.nodes_grounded,
        rep.nodes,
        r->load_failures == 0 ? ""
                              : fmt::format(", {} task(s) or file(s) could not be loaded", r->load_failures),
        r->not_applicable == 0 ? ""
                               : fmt::format(", {} question(s) do not apply to a lake", r->not_applicable));
  }
  return r->all_grounded() ? 0 : ExitCodeFor(ErrorCode::kParseError);
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "tasks", "Benchmark task files: validation and statistics");
  CLI::App* cmd = group->add_subcommand(
      "verify", "Run every node's fact code against the lake through the tools and check its answer");
  cmd->add_option("paths", o->paths, "Task files or folders")->required();
  cmd->add_option("--lake", o->lake, "Lake root URI (folder, file://, s3://bucket[/prefix])")->required();
  cmd->add_option("--index", o->index, "Index directory of that lake (for the search diagnostic)")
      ->required();
  cmd->add_option("--work", o->work, "Scratch folder for sandboxes (default: a temporary folder, removed)");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
