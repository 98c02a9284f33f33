// `lakeqa tasks validate <paths...> [--json] [--errors-only]`: loads LakeQA / CMDBench task files and
// folders, checks each task, and prints every problem as file[:line[:column]]. Exit 0 when every file
// and task is valid; otherwise, after the full report, not_found's exit code when a path does not exist or a
// folder holds no task files, unsupported's when the only problems are questions that do not apply to a lake,
// else parse_error's.
#include <fmt/format.h>

#include "cli/command.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/eval/validate.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::vector<std::string> paths;
  bool errors_only = false;
  OutputOptions out;
};

int Run(const Opts& o) {
  eval::LoadResult loaded = eval::LoadTasks(o.paths);
  for (const auto& n : loaded.notes) fmt::print(stderr, "note: {}\n", n);
  eval::ValidationReport report = eval::Validate(loaded);
  if (o.out.json) {
    Json j = report.ToJson();
    if (o.errors_only) {
      Json kept = Json::array();
      for (auto& i : j["issues"]) {
        if (i["severity"] == "error") kept.push_back(i);
      }
      j["issues"] = std::move(kept);
    }
    PrintJson(j);
  } else {
    for (const eval::Issue& i : report.issues) {
      if (o.errors_only && i.severity != eval::Severity::kError) continue;
      fmt::print("{}\n", i.Format());
    }
    fmt::print("{} files, {} tasks loaded, {} valid; {} errors, {} warnings\n", report.files,
               report.tasks_loaded, report.tasks_valid, report.errors, report.warnings);
    if (report.labelled) {
      fmt::print("hop structure matches the k-<k>-d-<d> folder for {}/{} tasks ({:.1f}%; k {}, d {})\n",
                 report.both_match, report.labelled, 100.0 * report.both_match / report.labelled,
                 report.k_match, report.d_match);
    }
  }
  if (report.ok()) return 0;
  // The most telling code wins: a missing input, then anything malformed, then questions that only do not
  // apply to a lake (CMDBench graph, document and source-routing questions).
  bool missing = false, unsupported_only = report.errors == loaded.errors.size();
  for (const eval::LoadError& e : loaded.errors) {
    missing = missing || e.status.code() == ErrorCode::kNotFound;
    unsupported_only = unsupported_only && e.status.code() == ErrorCode::kUnsupported;
  }
  ErrorCode code = missing            ? ErrorCode::kNotFound
                   : unsupported_only ? ErrorCode::kUnsupported
                                      : ErrorCode::kParseError;
  if (!o.out.json) {
    fmt::print(stderr, "lakeqa: {}: {} error(s) in the task files\n", CodeName(code), report.errors);
  }
  return ExitCodeFor(code);
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "tasks", "Benchmark task files: validation and statistics");
  CLI::App* cmd = group->add_subcommand(
      "validate", "Check LakeQA task folders, JSON/JSONL task files" + eval::RunHelpFormats(" questions"));
  cmd->add_option("paths", o->paths, "Task files or folders (searched for *.json, *.jsonl)")->required();
  cmd->add_flag("--errors-only", o->errors_only, "Leave warnings out of the report");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
