// `lakeqa eval --run <dir> [--tasks <paths>...] [--judge provider:model] [--json]`: scores a run directory
// and writes report.json and report.html into it. `eval` is a group (eval compare, eval discovery are its
// verbs); scoring a run is the group's own action, so the group is bound to this handler and accepts zero
// or one verb.
#include <fmt/format.h>

#include "lakeqa/eval/judge.h"
#include "lakeqa/eval/report.h"
#include "lakeqa/eval/score.h"

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

// Task paths from run.json when --tasks is not given: "tasks" as a path or a list of paths.
std::vector<std::string> TasksFromRunJson(const Json& run_json) {
  std::vector<std::string> out;
  auto it = run_json.find("tasks");
  if (it == run_json.end()) return out;
  if (it->is_string()) out.push_back(it->get<std::string>());
  if (it->is_array()) {
    for (const Json& p : *it) {
      if (p.is_string()) out.push_back(p.get<std::string>());
    }
  }
  return out;
}

int Run(const Opts& o) {
  if (o.run.empty()) {
    return Fail(
        InvalidArgument("eval: --run <dir> is required (or use a verb: eval compare, eval discovery)"),
        o.out);
  }
  auto run = eval::LoadRun(o.run);
  if (!run.ok()) return Fail(run.status(), o.out);
  std::vector<std::string> paths = o.tasks.empty() ? TasksFromRunJson(run->run_json) : o.tasks;
  if (paths.empty()) {
    return Fail(InvalidArgument(o.run + "/run.json names no \"tasks\": pass --tasks <files or folders>"),
                o.out);
  }
  eval::LoadResult loaded = eval::LoadTasks(paths);
  if (loaded.tasks.empty()) {
    std::string why = loaded.errors.empty() ? "no task files found" : loaded.errors[0].status.message();
    return Fail(NotFound("no task could be loaded from the given paths: " + why), o.out);
  }
  eval::RunScore score = eval::ScoreRun(*run, loaded.tasks);
  for (const auto& e : loaded.errors)
    score.warnings.push_back("task skipped: " + e.status.message());
  if (score.tasks.empty()) {
    return Fail(NotFound(fmt::format("{}: none of the {} predictions matches a loaded task id", o.run,
                                     run->predictions.size())),
                o.out);
  }
  if (!o.judge.empty()) {
    eval::JudgeSpec spec;
    auto parsed = eval::ParseJudgeSpec(o.judge);
    if (!parsed.ok()) return Fail(parsed.status(), o.out);
    spec = *parsed;
    if (!o.judge_base_url.empty()) spec.base_url = o.judge_base_url;
    auto client = eval::MakeJudgeClient(spec);
    if (!client.ok()) return Fail(client.status(), o.out);
    Status st = eval::JudgeRun(score, **client, spec, o.run);
    if (!st.ok()) return Fail(st, o.out);
  }
  Status st = eval::WriteReports(score, *run, o.run);
  if (!st.ok()) return Fail(st, o.out);
  if (o.out.json) {
    Json j = score.ToJson();
    j.erase("per_task");
    j["report_json"] = o.run + "/report.json";
    j["report_html"] = o.run + "/report.html";
    PrintJson(j);
    return 0;
  }
  fmt::print("{} tasks scored ({} not run, {} unknown predictions, {} warnings)\n", score.tasks.size(),
             score.not_run.size(), score.unknown_predictions.size(), score.warnings.size());
  fmt::print("EM {:.2f}%  lenient {:.2f}%  token F1 {:.3f}\n", score.em * 100, score.lenient * 100,
             score.token_f1);
  if (score.judged) {
    fmt::print("judge {:.2f}%  agreement with EM {:.2f}%  judge cost ${:.4f}\n", score.judge_accuracy * 100,
               score.judge_agreement * 100, score.judge_cost_usd);
  }
  fmt::print("D_acc P/R/F1 {:.2f}/{:.2f}/{:.2f}%  D_ret P/R/F1 {:.2f}/{:.2f}/{:.2f}%\n",
             score.dacc.precision * 100, score.dacc.recall * 100, score.dacc.f1 * 100,
             score.dret.precision * 100, score.dret.recall * 100, score.dret.f1 * 100);
  fmt::print("runtime mean/median/p90 {:.1f}/{:.1f}/{:.1f}s  cost mean ${:.4f} total ${:.4f}\n",
             score.runtime.mean, score.runtime.median, score.runtime.p90, score.cost.mean, score.cost.sum);
  fmt::print("funnel:");
  for (eval::FunnelStage s : eval::AllFunnelStages())
    fmt::print(" {}={}", eval::FunnelStageName(s), score.funnel[s]);
  fmt::print("\nwrote {0}/report.json and {0}/report.html\n", o.run);
  return 0;
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
