// `lakeqa kramabench solutions --checkout <dir> --lake <dir> [--domain d]... [--timeout-s N] [--out FILE]
// [--json]`: the solutions oracle of kramabench/oracle.h over a lake built with --source kramabench:<dir>.
// Prints one line per task (status, score, reason) and KramaBench's leaderboard table over the tasks whose
// solution ran; --out writes the whole report as JSON.
#include <fmt/format.h>

#include <filesystem>

#include "cli/command.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/kramabench/kramabench.h"
#include "lakeqa/kramabench/oracle.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string checkout;
  std::string lake;
  std::vector<std::string> domains;
  std::string ns_prefix;
  int timeout_s = 120;
  int memory_mb = 4096;
  std::string out_file;
  OutputOptions out;
};

int Run(const Opts& o) {
  namespace fs = std::filesystem;
  std::vector<std::string> domains = o.domains;
  std::error_code ec;
  if (domains.empty()) {
    // Every domain with both a workload and an input folder (legal-tiny.json and quick-start-questions.json
    // repeat tasks of the domain workloads and have no folder of their own).
    for (fs::directory_iterator it(o.checkout + "/workload", ec), end; !ec && it != end; it.increment(ec)) {
      std::string stem = it->path().stem().string();
      if (it->path().extension() == ".json" && fs::is_directory(o.checkout + "/data/" + stem + "/input"))
        domains.push_back(stem);
    }
    std::sort(domains.begin(), domains.end());
    if (domains.empty()) {
      return Fail(NotFound(o.checkout + ": no workload/<domain>.json with a data/<domain>/input/ folder "
                                        "(not a KramaBench checkout?)"),
                  o.out);
    }
  }
  std::vector<std::string> paths;
  for (const auto& d : domains) {
    std::string p = o.checkout + "/workload/" + d + ".json";
    if (!PathExists(p)) return Fail(NotFound("--domain " + d + ": no " + p), o.out);
    paths.push_back(p);
  }
  eval::LoadResult loaded = eval::LoadTasks(paths);
  for (const auto& e : loaded.errors) fmt::print(stderr, "task skipped: {}\n", e.status.message());
  if (loaded.tasks.empty()) return Fail(NotFound("no KramaBench task loaded from " + o.checkout), o.out);
  kramabench::KramaBenchOracleOptions opts;
  opts.checkout = o.checkout;
  opts.lake_root = o.lake;
  opts.ns_prefix = o.ns_prefix;
  opts.python.limits.wall_ms = o.timeout_s * 1000;
  opts.python.limits.cpu_s = o.timeout_s;
  opts.python.limits.memory_bytes = static_cast<uint64_t>(o.memory_mb) << 20;
  auto report = kramabench::RunKramaBenchSolutions(loaded.tasks, opts, [&](const Json& r) {
    if (o.out.json || o.out.quiet) return;
    std::string score =
        r.contains("score") && !r["score"].is_null()
            ? fmt::format(" {}={:.3f}", r["main_metric"].get<std::string>(), r["score"].get<double>())
            : "";
    fmt::print(stderr, "{:<22} {:<16}{}{}\n", r["task_id"].get<std::string>(), r["status"].get<std::string>(),
               score, r.contains("reason") ? "  " + r["reason"].get<std::string>() : "");
  });
  if (!report.ok()) return Fail(report.status(), o.out);
  for (const auto& e : loaded.errors) (*report)["load_errors"].push_back(e.status.message());
  if (!o.out_file.empty()) {
    Status st = WriteFileAtomic(o.out_file, DumpJson(*report, 2) + "\n");
    if (!st.ok()) return Fail(st, o.out);
  }
  if (o.out.json) {
    PrintJson(*report);
    return 0;
  }
  fmt::print("{} tasks:", (*report)["tasks"].size());
  for (const auto& [k, v] : (*report)["counts"].items()) fmt::print(" {}={}", k, v.get<size_t>());
  fmt::print("\n{}", kramabench::FormatKramaBenchLeaderboard(
                         (*report)["leaderboard"], "KramaBench metrics over the solutions that ran:"));
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "kramabench", "KramaBench: the reference-solutions oracle");
  CLI::App* cmd = group->add_subcommand(
      "solutions", "Run each solutions/<domain>/<task>.py in the sandbox over the lake and score its answer");
  cmd->add_option("--checkout", o->checkout, "KramaBench checkout (workload/, solutions/, data/)")
      ->required();
  cmd->add_option("--lake", o->lake, "Local lake built with --source kramabench:<checkout>")->required();
  cmd->add_option("--domain", o->domains, "Domains to run (default: every workload with a data folder)");
  cmd->add_option("--namespace", o->ns_prefix, "The build's --namespace (prefix of <prefix>-<domain>)");
  cmd->add_option("--timeout-s", o->timeout_s, "Wall-time limit per solution, seconds")
      ->capture_default_str();
  cmd->add_option("--memory-mb", o->memory_mb, "Memory limit per solution, MiB")->capture_default_str();
  cmd->add_option("--out", o->out_file, "Write the full report (per task and leaderboard) as JSON here");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
