// `lakeqa tasks verify <paths> --lake <uri> --index <dir>`: the grounding check of the LakeQA annotation
// guideline. For every task, the oracle agent walks the gold nodes through the real tools (download of
// each node's source, its `fact` code run in the Python sandbox against the lake) and checks that each
// node yields its annotated answer. Exit 0 when every node of every task is grounded, 6 otherwise; questions
// that do not apply to a lake (CMDBench graph, document, source routing) are named with the reason and skipped
// (exit 11, unsupported, when no question applies).
#include <fmt/format.h>

#include <sys/stat.h>

#include "lakeqa/agent/tool_env.h"
#include "lakeqa/agent/verify.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/eval/cmdbench.h"
#include "lakeqa/eval/task.h"

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
  eval::LoadResult loaded = eval::LoadTasks(o.paths);
  // Questions that cannot apply to a lake (CMDBench graph, document, source routing) are reported in one
  // line each and are not failures; every other load error is.
  size_t not_applicable = 0;
  for (const auto& e : loaded.errors) {
    bool na = e.status.code() == ErrorCode::kUnsupported;
    not_applicable += na;
    fmt::print(stderr, "skipped: {}\n", e.status.message());
  }
  const size_t load_failures = loaded.errors.size() - not_applicable;
  // A CMDBench source question's gold is a modality: there is no lake file to ground.
  std::erase_if(loaded.tasks, [&](const eval::Task& t) {
    if (!t.cmdbench || t.cmdbench->kind != eval::CmdbenchKind::kSource) return false;
    std::string sources;
    for (const auto& s : t.cmdbench->sources) sources += (sources.empty() ? "" : ", ") + s;
    fmt::print(stderr, "skipped: {} [{}]: not applicable: a CMDBench source-routing question: its gold is a modality "
               "({}), not a lake file\n", t.Where(), t.id, sources);
    ++not_applicable;
    return true;
  });
  if (loaded.tasks.empty()) {
    if (load_failures == 0 && not_applicable > 0) {
      return Fail(Unsupported(fmt::format("none of the {} question(s) applies to a lake (reasons above)", not_applicable)),
                  o.out);
    }
    return Fail(NotFound("no task could be loaded from the given paths"), o.out);
  }

  std::string work = o.work;
  if (work.empty()) {
    auto t = MakeTempDir("lakeqa-verify-");
    if (!t.ok()) return Fail(t.status(), o.out);
    work = *t;
    // The Python sandbox runs as an unprivileged user, which must be able to reach the sandboxes inside.
    ::chmod(work.c_str(), 0755);
  }
  agent::ToolEnvOptions eo;
  eo.index_dir = o.index;
  eo.lake = o.lake;
  eo.work_dir = work;
  eo.store_options = StoreFlagsJson(o.store);
  auto envs = agent::MakeToolEnvFactory(eo);
  if (!envs.ok()) return Fail(envs.status(), o.out);

  ProgressBar bar("verifying", loaded.tasks.size(), "tasks", !o.out.quiet && !o.out.json);
  agent::VerifyReport rep = agent::VerifyTasks(loaded.tasks, *envs, [&bar] { bar.Add(1); });
  bar.Finish();
  if (o.work.empty()) (void)RemoveAll(work);

  const Json& rows = rep.results;
  size_t tasks_ok = rep.tasks_grounded, nodes = rep.nodes, nodes_ok = rep.nodes_grounded;
  bool all = tasks_ok == loaded.tasks.size() && load_failures == 0;
  if (o.out.json) {
    PrintJson({{"tasks", loaded.tasks.size()},
               {"tasks_grounded", tasks_ok},
               {"nodes", nodes},
               {"nodes_grounded", nodes_ok},
               {"load_errors", load_failures},
               {"not_applicable", not_applicable},
               {"results", rows}});
  } else {
    for (const Json& row : rows) {
      if (row["grounded"].get<bool>()) continue;
      fmt::print("NOT GROUNDED {} ({}): {}\n", row["task_id"].get<std::string>(), row["file"].get<std::string>(),
                 row.value("error", std::string("a node did not yield its answer")));
    }
    fmt::print("{}/{} tasks grounded, {}/{} nodes{}{}\n", tasks_ok, loaded.tasks.size(), nodes_ok, nodes,
               load_failures == 0 ? "" : fmt::format(", {} task(s) or file(s) could not be loaded", load_failures),
               not_applicable == 0 ? "" : fmt::format(", {} question(s) do not apply to a lake", not_applicable));
  }
  return all ? 0 : ExitCodeFor(ErrorCode::kParseError);
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "tasks", "Benchmark task files: validation and statistics");
  CLI::App* cmd = group->add_subcommand(
      "verify", "Run every node's fact code against the lake through the tools and check its answer");
  cmd->add_option("paths", o->paths, "Task files or folders")->required();
  cmd->add_option("--lake", o->lake, "Lake root URI (folder, file://, s3://bucket[/prefix])")->required();
  cmd->add_option("--index", o->index, "Index directory of that lake (for the search diagnostic)")->required();
  cmd->add_option("--work", o->work, "Scratch folder for sandboxes (default: a temporary folder, removed)");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
