// `lakeqa run --tasks <paths> --index <dir> --lake <uri> --agent llm|oracle|baseline|replay
//  --model provider:model --out <run> [--parallel N] [--max-turns 25] [--timeout 450] [--only-new]
//  [--max-failures N] [--max-retries N] [--force] [--ablate stage=level]... [--epochs K]`:
// runs an agent over a task set into a run directory (see include/lakeqa/agent/run.h), resumable, with a
// record/replay cassette of every model call. SIGINT/SIGTERM stop cleanly: finished tasks are kept,
// running ones are left for the next invocation; a second signal kills at once.
#include <csignal>

#include <fmt/format.h>
#include <unistd.h>

#include "lakeqa/agent/run_agents.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/llm/pricing.h"

#include "cli/command.h"
#include "cli/store_options.h"

namespace lakeqa::cli {
namespace {

std::atomic<bool> g_cancel{false};

extern "C" void OnSignal(int sig) {
  g_cancel.store(true);
  static const char kMsg[] = "\nlakeqa run: stopping after the running turns (again to kill)\n";
  ssize_t ignored = ::write(2, kMsg, sizeof kMsg - 1);
  (void)ignored;
  std::signal(sig, SIG_DFL);
}

struct Opts {
  agent::AgentRunOptions run;  // the flags bind to it directly
  StoreFlags store;
  OutputOptions out_opts;
};

void PrintSummary(const agent::AgentRunOptions& o, const agent::AgentRunResult& r) {
  const agent::RunSummary& sum = r.summary;
  if (!r.ablation.IsStandard()) fmt::print("ablation: {}\n", r.ablation.Label());
  fmt::print("{} tasks{}: {} skipped (done earlier), {} ran: {} answered, {} unfinished, {} failed{}{}\n",
             sum.tasks, o.epochs > 1 ? fmt::format(" × {} epochs", o.epochs) : "", sum.skipped, sum.ran,
             sum.answered, sum.unfinished, sum.failed,
             sum.not_applicable ? fmt::format(", {} not applicable", sum.not_applicable) : "",
             sum.interrupted
                 ? fmt::format(", interrupted ({} left for the next run)", sum.cancelled + sum.not_started)
                 : "");
  fmt::print("tokens: {} in ({} cached), {} out; cost {}; {} → {}\n", sum.usage.input_tokens,
             sum.usage.cache_read_tokens, sum.usage.output_tokens,
             llm::FormatCost(sum.cost_usd, sum.cost_known, sum.cost_unknown), HumanDuration(sum.elapsed_s),
             o.out);
}

int Run(const Opts& o) {
  const OutputOptions& out = o.out_opts;
  agent::AgentRunOptions ro = o.run;
  ro.s3 = ToS3Options(o.store);
  ro.progress = !out.quiet && !out.json;
  ro.on_note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  ro.on_warning = [](const std::string& line) { fmt::print(stderr, "lakeqa run: {}\n", line); };
  auto prepared = agent::PrepareAgentRun(ro);
  if (!prepared.ok()) return Fail(prepared.status(), out);
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  auto result = (*prepared)->Run(g_cancel);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!result.ok()) return Fail(result.status(), out);
  // Failed tasks are recorded and the run goes on, but the run did not do what was asked: exit non-zero.
  Json j = result->ToJson(ro.out);
  int rc = result->failed.empty() ? 0 : PartialFailure(result->failed, out, &j);
  if (out.json) PrintJson(j);
  else PrintSummary(ro, *result);
  return result->summary.interrupted ? ExitCodeFor(ErrorCode::kCancelled) : rc;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      root.add_subcommand("run", "Run an agent over benchmark tasks into a resumable run directory");
  cmd->add_option("--tasks", o->run.tasks,
                  "Task files or folders (LakeQA JSON/JSONL" + eval::RunHelpFormats() + ")")
      ->required();
  cmd->add_option("--index", o->run.index, "Index directory (catalog and text index)");
  cmd->add_option("--lake", o->run.lake, "Lake root URI (folder, file://, s3://bucket[/prefix])");
  cmd->add_option("--agent", o->run.agent, "llm | oracle | baseline | replay")->capture_default_str();
  cmd->add_option("--model", o->run.model,
                  "provider:model, e.g. openai:gpt-5.2, anthropic:claude-sonnet-4-5");
  cmd->add_option("--out", o->run.out, "Run directory (created; resumed when it exists)")->required();
  cmd->add_option("--parallel", o->run.parallel, "Tasks run at once")->capture_default_str();
  cmd->add_option("--max-turns", o->run.max_turns, "Model turns per task")->capture_default_str();
  cmd->add_option("--timeout", o->run.timeout, "Wall-clock seconds per task")->capture_default_str();
  cmd->add_option("--max-tokens", o->run.max_tokens, "Token budget per task (input + output; 0 = none)");
  cmd->add_option("--max-cost", o->run.max_cost, "Dollar budget per task (0 = none)");
  cmd->add_option("--max-output-tokens", o->run.max_output_tokens, "max_tokens of each model call")
      ->capture_default_str();
  cmd->add_option("--tools", o->run.tools, "Tools beyond the paper's set (e.g. query)")->delimiter(',');
  cmd->add_option("--ablate", o->run.ablate,
                  "Stage oracle <stage>=<level>, repeatable: search=naive|standard|preloaded|ideal, "
                  "decompose=standard|ideal, compute=standard|ideal (--agent llm; docs/ablations.md)");
  cmd->add_option("--epochs", o->run.epochs, "Runs of each task (pass@k, pass^k in `lakeqa eval`)")
      ->capture_default_str();
  if (const eval::TaskFormatSpec* giver = eval::GoldGivingFormat())
    cmd->add_flag("--provide-provenance", o->run.provide_provenance, giver->provide_gold_help);
  cmd->add_flag("--only-new", o->run.only_new, "Skip every task already recorded, failed ones too");
  cmd->add_option("--max-failures", o->run.max_failures,
                  "Stop starting tasks after this many failed (error, crashed); 0 = no limit")
      ->capture_default_str();
  cmd->add_option("--max-retries", o->run.max_retries,
                  "Retries of a model request (429, 5xx, connection errors)")
      ->capture_default_str();
  cmd->add_flag("--force", o->run.force,
                "Use a lake other than the one the index was built from (run.json says so)");
  cmd->add_option("--base-url", o->run.base_url,
                  "OpenAI-compatible or Anthropic endpoint (vLLM, llama.cpp, Ollama)");
  cmd->add_option("--pricing", o->run.pricing, "Pricing table JSON (default data/pricing.json)");
  cmd->add_option("--cassette", o->run.cassette,
                  "Record/replay file of model calls (default <out>/cassette.jsonl)");
  cmd->add_flag("--offline", o->run.offline, "Answer model calls from the cassette only (no network)");
  cmd->add_flag("--no-stream", o->run.no_stream, "Ask for whole responses instead of SSE streams");
  cmd->add_option("--request-timeout", o->run.request_timeout, "Seconds per model request")
      ->capture_default_str();
  cmd->add_option("--traces", o->run.traces, "Recorded traces folder for --agent replay");
  cmd->add_option("--system-prompt,--system-prompt-file", o->run.system_prompt_file,
                  "File with the system prompt (wins over --prompt)");
  cmd->add_option(
      "--prompt", o->run.prompt,
      "System prompt profile: lakeqa (the paper's, verbatim; the default for LakeQA tasks) or lake (names "
      "the lake's namespaces and every tool given, states the benchmark's answer format; the default "
      "for " +
          eval::TaskFormatTitles() + " tasks)");
  cmd->add_option(
         "--result-view", o->run.result_view,
         "What the llm agent's model is shown of a tool result: compact (what matters inside the paper's "
         "2,500 + 1,000-character cut; docs/tools.md) or full (the whole JSON)")
      ->capture_default_str();
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out_opts);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
