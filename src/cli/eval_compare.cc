// `lakeqa eval compare <run-a> <run-b> ... [--resamples N] [--seed S] [--html <file>] [--json]`: scored runs
// side by side (from each run's report.json), with paired per-task differences and a bootstrap interval on
// the EM difference of each run against the first; for ablated runs (lakeqa run --ablate), the per-stage gain
// of each variant against the standard run.
#include <fmt/format.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/eval/compare.h"

#include "cli/command.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::vector<std::string> runs;
  std::string html;
  eval::CompareOptions compare;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto c = eval::CompareRuns(o.runs, o.compare);
  if (!c.ok()) return Fail(c.status(), o.out);
  if (!o.html.empty()) {
    Status st = WriteFileAtomic(o.html, eval::RenderCompareHtml(*c));
    if (!st.ok()) return Fail(st.WithContext("--html"), o.out);
  }
  if (o.out.json) {
    Json j = c->ToJson();
    if (!o.html.empty()) j["html"] = o.html;
    PrintJson(j);
  } else {
    fmt::print("{}", c->FormatTable());
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "eval", "Scoring runs: reports, comparison, discovery metrics");
  CLI::App* cmd =
      group->add_subcommand("compare", "Compare scored runs: EM side by side with a paired bootstrap CI");
  cmd->add_option("runs", o->runs,
                  "Run directories, each scored by `lakeqa eval --run` (the first is the base)")
      ->required();
  cmd->add_option("--resamples", o->compare.resamples, "Bootstrap resamples (default 10000)");
  cmd->add_option("--seed", o->compare.seed, "Bootstrap seed (default fixed, so results repeat)");
  cmd->add_option("--confidence", o->compare.confidence, "Interval confidence (default 0.95)")
      ->check(CLI::Range(0.5, 0.999));
  cmd->add_option("--html", o->html, "Also write the comparison as a page (with the stage-ablation chart)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
