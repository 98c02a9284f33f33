// `lakeqa eval --run <dir> [--tasks <paths>...] [--judge provider:model] [--json]`: scores a run directory
// and writes report.json and report.html into it. `eval` is a group (eval compare, eval discovery are its
// verbs); scoring a run is the group's own action, so the group is bound to this handler and accepts zero
// or one verb.
#include <fmt/format.h>

#include "lakeqa/eval/evaluate_run.h"
#include "lakeqa/eval/report_section.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/llm/pricing.h"

#include "cli/command.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string run;
  std::vector<std::string> tasks;
  std::string judge;
  std::string judge_base_url;
  OutputOptions out;
};

int Run(const Opts& o) {
  if (o.run.empty()) {
    return Fail(
        InvalidArgument("eval: --run <dir> is required (or use a verb: eval compare, eval discovery)"),
        o.out);
  }
  eval::EvaluateRunOptions eo;
  eo.run_dir = o.run;
  eo.tasks = o.tasks;
  eo.judge = o.judge;
  eo.judge_base_url = o.judge_base_url;
  eo.on_note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  auto scored = eval::EvaluateRun(eo);
  if (!scored.ok()) return Fail(scored.status(), o.out);
  eval::RunScore score = std::move(*scored);
  // Answers the judge could not grade: the reports are written, but the command did not do all it was asked.
  std::string judge_failed;
  if (score.judge_failed > 0) {
    judge_failed = fmt::format(
        "the judge gave no readable verdict for {} of {} tasks (first: {}); scoring again "
        "asks it again",
        score.judge_failed, score.tasks.size(), score.judge_failed_tasks[0]);
  }
  if (o.out.json) {
    Json j = score.ToJson();
    j.erase("per_task");
    j["report_json"] = eval::RunDir(o.run).ReportJson();
    j["report_html"] = eval::RunDir(o.run).ReportHtml();
    int rc = judge_failed.empty() ? 0 : PartialFailure(judge_failed, o.out, &j);
    PrintJson(j);
    return rc;
  }
  fmt::print("{} tasks scored ({} not run, {} unknown predictions, {} superseded lines, {} warnings)\n",
             score.tasks.size(), score.not_run.size(), score.unknown_predictions.size(),
             score.superseded.size(), score.warnings.size());
  fmt::print("EM {:.2f}%  lenient {:.2f}%  token F1 {:.3f}\n", score.em * 100, score.lenient * 100,
             score.token_f1);
  if (score.judged) {
    fmt::print("judge {}  agreement with EM {}  judge cost {}{}\n",
               score.judge_verdicts ? fmt::format("{:.2f}%", score.judge_accuracy * 100) : "none",
               score.judge_verdicts ? fmt::format("{:.2f}%", score.judge_agreement * 100) : "none",
               llm::FormatCost(score.judge_cost_usd, score.judge_verdicts - score.judge_cost_unknown,
                               score.judge_cost_unknown),
               score.judge_failed ? fmt::format("  ({} tasks without a verdict)", score.judge_failed) : "");
  }
  fmt::print("D_acc P/R/F1 {:.2f}/{:.2f}/{:.2f}%  D_ret P/R/F1 {:.2f}/{:.2f}/{:.2f}%\n",
             score.dacc.precision * 100, score.dacc.recall * 100, score.dacc.f1 * 100,
             score.dret.precision * 100, score.dret.recall * 100, score.dret.f1 * 100);
  fmt::print(
      "runtime {}  cost {}\n",
      score.runtime.n == 0
          ? std::string("unknown")
          : fmt::format(
                "mean/median/p90 {:.1f}/{:.1f}/{:.1f}s{}", score.runtime.mean, score.runtime.median,
                score.runtime.p90,
                score.runtime_unknown ? fmt::format(" ({} tasks unknown)", score.runtime_unknown) : ""),
      score.cost.n == 0 ? "unknown"
                        : fmt::format("mean ${:.4f} total {}", score.cost.mean,
                                      llm::FormatCost(score.cost.sum, score.cost.n, score.cost_unknown)));
  fmt::print("{}", eval::ReportSectionsText(score));
  fmt::print("funnel:");
  for (eval::FunnelStage s : eval::AllFunnelStages())
    fmt::print(" {}={}", eval::FunnelStageName(s), score.funnel[s]);
  if (score.epochs) fmt::print("\n{}", score.epochs->FormatText());
  fmt::print("\nwrote {0}/report.json and {0}/report.html\n", o.run);
  return judge_failed.empty() ? 0 : PartialFailure(judge_failed, o.out, nullptr);
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* group = Commands::Group(root, "eval", "Scoring runs: reports, comparison, discovery metrics");
  group->require_subcommand(0, 1);
  group->add_option("--run", o->run, "Run directory (predictions.jsonl, traces/, run.json) to score");
  group->add_option("--tasks", o->tasks, "Task files or folders (default: \"tasks\" in run.json)");
  group->add_option("--judge", o->judge,
                    "LLM judge as provider:model (e.g. openai:gpt-5.2); cached in the run");
  group->add_option("--judge-base-url", o->judge_base_url,
                    "Base URL of the judge's API (default: the provider's)");
  AddOutputOptions(group, o->out);
  commands.Bind(group, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
