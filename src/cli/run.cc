// `lakeqa run --tasks <paths> --index <dir> --lake <uri> --agent llm|oracle|baseline|replay
//  --model provider:model --out <run> [--parallel N] [--max-turns 25] [--timeout 450] [--only-new]
//  [--max-failures N] [--max-retries N] [--force] [--ablate stage=level]... [--epochs K]`:
// runs an agent over a task set into a run directory (see include/lakeqa/agent/run.h), resumable, with a
// record/replay cassette of every model call. SIGINT/SIGTERM stop cleanly: finished tasks are kept,
// running ones are left for the next invocation; a second signal kills at once.
#include "lakeqa/agent/run.h"

#include <algorithm>
#include <csignal>
#include <cstring>

#include <fmt/format.h>
#include <unistd.h>

#include "lakeqa/agent/ablation.h"
#include "lakeqa/agent/agent.h"
#include "lakeqa/agent/cmdbench_provenance.h"
#include "lakeqa/agent/prompts.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/llm/cassette.h"
#include "lakeqa/llm/preflight.h"
#include "lakeqa/llm/providers.h"

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
  std::vector<std::string> tasks;
  std::string index, lake, agent = "llm", model, out, base_url, pricing, cassette, traces, system_prompt_file,
      result_view = "compact", prompt;
  std::vector<std::string> tools, ablate;
  int epochs = 1;
  int parallel = 1, max_turns = 25, max_output_tokens = 8192, max_failures = 0, max_retries = 6;
  double timeout = 450, request_timeout = 300, max_cost = 0;
  int64_t max_tokens = 0;
  bool only_new = false, offline = false, no_stream = false, force = false, provide_provenance = false;
  StoreFlags store;
  OutputOptions out_opts;
};

int Run(const Opts& o) {
  const OutputOptions& out = o.out_opts;
  if (o.max_turns < 1) return Fail(InvalidArgument("--max-turns must be at least 1"), out);
  if (o.timeout <= 0) return Fail(InvalidArgument("--timeout must be positive (seconds)"), out);
  if (o.parallel < 1) return Fail(InvalidArgument("--parallel must be at least 1"), out);
  if (o.max_failures < 0) return Fail(InvalidArgument("--max-failures must be 0 (no limit) or more"), out);
  if (o.max_retries < 0) return Fail(InvalidArgument("--max-retries must be 0 or more"), out);
  if (o.epochs < 1)
    return Fail(InvalidArgument(fmt::format("--epochs must be at least 1, not {}", o.epochs)), out);
  auto ablation = agent::ParseAblations(o.ablate);
  if (!ablation.ok()) return Fail(ablation.status(), out);
  if (!ablation->IsStandard() && o.agent != "llm") {
    return Fail(
        InvalidArgument("--ablate applies to --agent llm only (the oracles replace a stage of its loop), "
                        "not --agent " +
                        o.agent),
        out);
  }
  eval::LoadResult loaded = eval::LoadTasks(o.tasks);
  for (const auto& e : loaded.errors)
    fmt::print(stderr, "skipped: {}\n", e.status.message());
  for (const auto& n : loaded.notes)
    fmt::print(stderr, "note: {}\n", n);
  if (loaded.tasks.empty()) return Fail(NotFound("no task could be loaded from --tasks"), out);
  // The gold contents are read once, before any task runs, from the lake and the index the tools will use.
  Json provenance;
  if (o.provide_provenance) {
    std::unique_ptr<lake::Store> store;
    if (!o.lake.empty()) {
      auto opened = OpenFromFlags(o.lake, o.store);
      if (!opened.ok()) return Fail(opened.status().WithContext("--lake"), out);
      store = std::move(*opened);
    }
    auto given = agent::ProvideCmdbenchProvenance(loaded.tasks, {store.get(), o.index});
    if (!given.ok()) return Fail(given.status(), out);
    provenance = std::move(*given);
  }
  // Tasks without the gold data their oracle needs are reported one by one; the rest run.
  Json not_run = Json::array();
  std::vector<eval::Task> runnable;
  for (eval::Task& t : loaded.tasks) {
    Status st = agent::CheckAblation(*ablation, t);
    if (st.ok()) {
      runnable.push_back(std::move(t));
    } else {
      fmt::print(stderr, "not run ({}): {}\n", t.Where(), st.message());
      not_run.push_back({{"task_id", t.id}, {"file", t.Where()}, {"reason", st.message()}});
    }
  }
  if (runnable.empty()) {
    return Fail(InvalidArgument("no task has the gold data --ablate " + ablation->Label() +
                                " needs (first: " + not_run[0]["reason"].get<std::string>() + ")"),
                out);
  }

  agent::LoopConfig loop;
  loop.max_turns = o.max_turns;
  loop.timeout_s = o.timeout;
  loop.max_total_tokens = o.max_tokens;
  loop.max_cost_usd = o.max_cost;
  loop.max_output_tokens = o.max_output_tokens;
  loop.extra_tools = o.tools;
  loop.ablation = *ablation;
  if (o.result_view != "compact" && o.result_view != "full")
    return Fail(InvalidArgument("--result-view must be compact or full, not \"" + o.result_view + "\""), out);
  loop.compact_results = o.result_view == "compact";
  if (!o.prompt.empty() && o.prompt != agent::kPromptLakeQa && o.prompt != agent::kPromptLake)
    return Fail(agent::ProfilePrompt(o.prompt, {}).status(), out);
  // --system-prompt wins over any profile; else the profile asked for, else the one the tasks' format calls for.
  std::string prompt_profile = o.prompt.empty() ? agent::DefaultProfile(runnable) : o.prompt;
  if (!o.system_prompt_file.empty()) {
    auto text = ReadFile(o.system_prompt_file, 1 << 20);
    if (!text.ok()) return Fail(text.status().WithContext("--system-prompt"), out);
    loop.system_prompt = *text;
    prompt_profile = "file";
  }

  agent::RunOptions ro;
  ro.out_dir = o.out;
  ro.parallel = o.parallel;
  ro.only_new = o.only_new;
  ro.max_failures = o.max_failures;
  ro.force_lake = o.force;
  ro.task_paths = o.tasks;
  ro.epochs = o.epochs;
  ro.ablation = ablation->ToJson();
  ro.not_run = not_run;
  ro.progress = !out.quiet && !out.json;
  ro.agent = o.agent;

  if (o.agent != "llm" && o.agent != "oracle" && o.agent != "baseline" && o.agent != "replay")
    return Fail(InvalidArgument("--agent " + o.agent + ": expected llm, oracle, baseline or replay"), out);
  std::optional<llm::ModelSpec> spec;
  if (o.agent == "llm") {
    if (o.model.empty())
      return Fail(InvalidArgument("--agent llm needs --model provider:model (e.g. openai:gpt-5.2)"), out);
    auto parsed = llm::ParseModelSpec(o.model);
    if (!parsed.ok()) return Fail(parsed.status(), out);
    spec = std::move(*parsed);
  }
  // The lake and the index before anything is written to --out: a refused run leaves no cassette behind.
  agent::ToolEnvOptions eo;
  eo.index_dir = o.index;
  eo.lake = o.lake;
  eo.work_dir = eval::RunDir(o.out).WorkDir();
  eo.store_options = StoreFlagsJson(o.store);
  eo.force_lake = o.force;
  agent::ToolEnvInfo info;
  auto envs = agent::MakeToolEnvFactory(eo, &info);
  if (!envs.ok()) return Fail(envs.status(), out);
  for (const std::string& w : info.warnings)
    fmt::print(stderr, "lakeqa run: warning: {}\n", w);
  ro.lake = info.lake;
  ro.index = info.index;
  ro.warnings = info.warnings;

  // One cassette per epoch (the same request gets each epoch's own answer on resume and replay).
  std::vector<std::unique_ptr<llm::ChatClient>> clients;
  std::optional<llm::PricingTable> pricing;
  agent::EpochAgentFactory make_agent;
  std::string cassette = o.cassette.empty() ? eval::RunDir(o.out).Cassette() : o.cassette;
  auto cassette_of = [&](int epoch) {
    if (epoch == 1) return cassette;
    std::string stem = cassette.size() > 6 && cassette.ends_with(".jsonl")
                           ? cassette.substr(0, cassette.size() - 6)
                           : cassette;
    return fmt::format("{}.epoch-{}.jsonl", stem, epoch);
  };
  if (o.agent == "llm") {
    auto table = o.pricing.empty() ? llm::PricingTable::LoadDefault() : llm::PricingTable::Load(o.pricing);
    if (!table.ok()) return Fail(table.status().WithContext("--pricing"), out);
    pricing = std::move(*table);
    if (!pricing->Find(spec->provider, spec->model)) {
      fmt::print(stderr, "lakeqa run: no price for {} in the pricing table; cost is reported as unknown\n",
                 spec->Name());
    }
    llm::ClientOptions co;
    co.base_url = o.base_url;
    co.stream = !o.no_stream;
    co.http.timeout_s = o.request_timeout;
    co.http.max_retries = o.max_retries;
    if (!o.offline) {
      // The preflight gets at most one retry: a dead endpoint must stop the run in seconds.
      co.http.max_retries = std::min(o.max_retries, 1);
      co.http.timeout_s = std::min(o.request_timeout, 60.0);
      auto pc = llm::MakeClient(*spec, co);
      if (!pc.ok()) return Fail(pc.status(), out);
      ro.preflight = [pre = std::shared_ptr<llm::ChatClient>(std::move(*pc)), model = spec->model,
                      price = pricing->Find(spec->provider, spec->model)]() -> Result<Json> {
        LAKEQA_ASSIGN_OR_RETURN(llm::PreflightResult r, llm::Preflight(*pre, model));
        return r.ToJson(price);
      };
    }
    Status st = MakeDirs(o.out);
    if (!st.ok()) return Fail(st, out);
    co.http.timeout_s = o.request_timeout;
    co.http.max_retries = o.max_retries;
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
      std::unique_ptr<llm::ChatClient> live;
      if (!o.offline) {
        auto c = llm::MakeClient(*spec, co);
        if (!c.ok()) return Fail(c.status(), out);
        live = std::move(*c);
      }
      auto cc = llm::CassetteClient::Open(cassette_of(epoch),
                                          o.offline ? llm::CassetteMode::kReplay : llm::CassetteMode::kRecord,
                                          std::move(live));
      if (!cc.ok()) return Fail(cc.status(), out);
      clients.push_back(std::move(*cc));
    }
    ro.model = spec->Name();
    std::string provider = spec->provider, model = spec->model;
    make_agent = [&, provider, model](int epoch) {
      return agent::MakeLlmAgent(*clients[static_cast<size_t>(epoch - 1)], provider, model, &*pricing, loop);
    };
  } else if (o.agent == "oracle") {
    make_agent = [](int) { return agent::MakeOracleAgent(); };
  } else if (o.agent == "baseline") {
    make_agent = [](int) { return agent::MakeBaselineAgent(); };
  } else if (o.agent == "replay") {
    if (o.traces.empty()) return Fail(InvalidArgument("--agent replay needs --traces <run>/traces"), out);
    make_agent = [dir = o.traces](int) { return agent::MakeReplayAgent(dir); };
  } else {
    return Fail(InvalidArgument("--agent " + o.agent + ": expected llm, oracle, baseline or replay"), out);
  }

  ro.config = {{"tasks", o.tasks},
               {"index", o.index},
               {"lake", o.lake},
               {"agent", o.agent},
               {"model", o.model},
               {"base_url", o.base_url},
               {"parallel", o.parallel},
               {"max_turns", o.max_turns},
               {"timeout_s", o.timeout},
               {"max_total_tokens", o.max_tokens},
               {"max_cost_usd", o.max_cost},
               {"max_failures", o.max_failures},
               {"max_retries", o.max_retries},
               {"tools", o.tools},
               {"cassette", o.agent == "llm" ? Json(cassette) : Json()},
               {"offline", o.offline},
               {"force", o.force},
               {"epochs", o.epochs},
               {"ablate", o.ablate},
               {"provide_provenance", o.provide_provenance},
               {"provenance", provenance}};

  // The "lake" profile names the lake's namespaces and the tools given, known once the tools are open. The
  // make_agent closures read `loop` when a task starts, after this.
  if (prompt_profile == agent::kPromptLake) {
    agent::PromptContext pc;
    pc.namespaces = info.namespaces;
    for (const auto& t : agent::PaperToolSchemas())
      pc.tools.push_back(t.name);
    for (const auto& t : o.tools)
      if (std::find(pc.tools.begin(), pc.tools.end(), t) == pc.tools.end())
        pc.tools.insert(pc.tools.end() - 1, t);  // before submit_answer
    pc.format = agent::CommonFormat(runnable);
    auto text = agent::ProfilePrompt(prompt_profile, pc);
    if (!text.ok()) return Fail(text.status(), out);
    loop.system_prompt = *text;
  }
  ro.prompt_hash =
      agent::PromptHash(loop.system_prompt.empty() ? agent::DefaultSystemPrompt() : loop.system_prompt,
                        agent::PaperToolSchemas());
  ro.config["prompt"] = {{"profile", prompt_profile},
                         {"system_prompt_file", o.system_prompt_file.empty() ? Json() : Json(o.system_prompt_file)},
                         {"hash", ro.prompt_hash}};
  ro.config["result_view"] = o.result_view;

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  auto sum = agent::RunTasks(ro, runnable, make_agent, *envs, g_cancel);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!sum.ok()) return Fail(sum.status(), out);
  // Failed tasks are recorded and the run goes on, but the run did not do what was asked: exit non-zero.
  std::string failed;
  if (sum->failed > 0) {
    failed = fmt::format("{} of {} tasks failed{} (first: {}); `lakeqa run` again retries them", sum->failed,
                         sum->ran,
                         sum->stopped == "max_failures"
                             ? fmt::format(", the run stopped at --max-failures {} with {} tasks not started",
                                           o.max_failures, sum->not_started)
                             : "",
                         sum->first_failure);
  }
  // An oracle that could attempt none of the tasks did not do what was asked either.
  if (sum->ran > 0 && sum->not_applicable == sum->ran) {
    failed += fmt::format("{}every task that ran ({}) was not applicable to --agent {} (first: {})",
                          failed.empty() ? "" : "; ", sum->ran, o.agent, sum->first_not_applicable);
  }
  if (!not_run.empty()) {
    failed += fmt::format("{}{} tasks were not run: they lack the gold data --ablate {} needs (first: {})",
                          failed.empty() ? "" : "; ", not_run.size(), ablation->Label(),
                          not_run[0]["reason"].get<std::string>());
  }
  std::string cost = llm::FormatCost(sum->cost_usd, sum->cost_known, sum->cost_unknown);
  Json j = sum->ToJson();
  j["out"] = o.out;
  j["ablation"] = ablation->ToJson();
  j["not_run"] = not_run;
  int rc = failed.empty() ? 0 : PartialFailure(failed, out, &j);
  if (out.json) {
    PrintJson(j);
  } else {
    if (!ablation->IsStandard()) fmt::print("ablation: {}\n", ablation->Label());
    fmt::print("{} tasks{}: {} skipped (done earlier), {} ran: {} answered, {} unfinished, {} failed{}{}\n",
               sum->tasks, o.epochs > 1 ? fmt::format(" × {} epochs", o.epochs) : "", sum->skipped, sum->ran,
               sum->answered, sum->unfinished, sum->failed,
               sum->not_applicable ? fmt::format(", {} not applicable", sum->not_applicable) : "",
               sum->interrupted ? fmt::format(", interrupted ({} left for the next run)",
                                              sum->cancelled + sum->not_started)
                                : "");
    fmt::print("tokens: {} in ({} cached), {} out; cost {}; {} → {}\n", sum->usage.input_tokens,
               sum->usage.cache_read_tokens, sum->usage.output_tokens, cost, HumanDuration(sum->elapsed_s), o.out);
  }
  return sum->interrupted ? ExitCodeFor(ErrorCode::kCancelled) : rc;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      root.add_subcommand("run", "Run an agent over benchmark tasks into a resumable run directory");
  cmd->add_option("--tasks", o->tasks, "Task files or folders (LakeQA JSON/JSONL, CMDBench)")->required();
  cmd->add_option("--index", o->index, "Index directory (catalog and text index)");
  cmd->add_option("--lake", o->lake, "Lake root URI (folder, file://, s3://bucket[/prefix])");
  cmd->add_option("--agent", o->agent, "llm | oracle | baseline | replay")->capture_default_str();
  cmd->add_option("--model", o->model, "provider:model, e.g. openai:gpt-5.2, anthropic:claude-sonnet-4-5");
  cmd->add_option("--out", o->out, "Run directory (created; resumed when it exists)")->required();
  cmd->add_option("--parallel", o->parallel, "Tasks run at once")->capture_default_str();
  cmd->add_option("--max-turns", o->max_turns, "Model turns per task")->capture_default_str();
  cmd->add_option("--timeout", o->timeout, "Wall-clock seconds per task")->capture_default_str();
  cmd->add_option("--max-tokens", o->max_tokens, "Token budget per task (input + output; 0 = none)");
  cmd->add_option("--max-cost", o->max_cost, "Dollar budget per task (0 = none)");
  cmd->add_option("--max-output-tokens", o->max_output_tokens, "max_tokens of each model call")
      ->capture_default_str();
  cmd->add_option("--tools", o->tools, "Tools beyond the paper's set (e.g. query)")->delimiter(',');
  cmd->add_option("--ablate", o->ablate,
                  "Stage oracle <stage>=<level>, repeatable: search=naive|standard|preloaded|ideal, "
                  "decompose=standard|ideal, compute=standard|ideal (--agent llm; docs/ablations.md)");
  cmd->add_option("--epochs", o->epochs, "Runs of each task (pass@k, pass^k in `lakeqa eval`)")
      ->capture_default_str();
  cmd->add_flag("--provide-provenance", o->provide_provenance,
                "CMDBench questions: hand the agent the gold contents (table rows, matched sub-graph, "
                "paragraphs, source; docs/cmdbench.md)");
  cmd->add_flag("--only-new", o->only_new, "Skip every task already recorded, failed ones too");
  cmd->add_option("--max-failures", o->max_failures,
                  "Stop starting tasks after this many failed (error, crashed); 0 = no limit")
      ->capture_default_str();
  cmd->add_option("--max-retries", o->max_retries, "Retries of a model request (429, 5xx, connection errors)")
      ->capture_default_str();
  cmd->add_flag("--force", o->force, "Use a lake other than the one the index was built from (run.json says so)");
  cmd->add_option("--base-url", o->base_url,
                  "OpenAI-compatible or Anthropic endpoint (vLLM, llama.cpp, Ollama)");
  cmd->add_option("--pricing", o->pricing, "Pricing table JSON (default data/pricing.json)");
  cmd->add_option("--cassette", o->cassette,
                  "Record/replay file of model calls (default <out>/cassette.jsonl)");
  cmd->add_flag("--offline", o->offline, "Answer model calls from the cassette only (no network)");
  cmd->add_flag("--no-stream", o->no_stream, "Ask for whole responses instead of SSE streams");
  cmd->add_option("--request-timeout", o->request_timeout, "Seconds per model request")
      ->capture_default_str();
  cmd->add_option("--traces", o->traces, "Recorded traces folder for --agent replay");
  cmd->add_option("--system-prompt,--system-prompt-file", o->system_prompt_file,
                  "File with the system prompt (wins over --prompt)");
  cmd->add_option("--prompt", o->prompt,
                  "System prompt profile: lakeqa (the paper's, verbatim; the default for LakeQA tasks) or lake (names "
                  "the lake's namespaces and every tool given, states the benchmark's answer format; the default "
                  "for CMDBench and KramaBench tasks)");
  cmd->add_option("--result-view", o->result_view,
                  "What the llm agent's model is shown of a tool result: compact (what matters inside the paper's "
                  "2,500 + 1,000-character cut; docs/tools.md) or full (the whole JSON)")
      ->capture_default_str();
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out_opts);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
