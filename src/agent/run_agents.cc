// PrepareAgentRun and AgentRun::Run (run_agents.h): the steps of `lakeqa run` between parsing its flags and
// printing its summary.
#include "lakeqa/agent/run_agents.h"
#include "lakeqa/eval/run_dir.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/llm/cassette.h"
#include "lakeqa/llm/preflight.h"
#include "lakeqa/llm/providers.h"

namespace lakeqa::agent {
namespace {

void Say(const std::function<void(const std::string&)>& to, const std::string& line) {
  if (to) to(line);
}

Status CheckNumbers(const AgentRunOptions& o) {
  if (o.max_turns < 1) return InvalidArgument("--max-turns must be at least 1");
  if (o.timeout <= 0) return InvalidArgument("--timeout must be positive (seconds)");
  if (o.parallel < 1) return InvalidArgument("--parallel must be at least 1");
  if (o.max_failures < 0) return InvalidArgument("--max-failures must be 0 (no limit) or more");
  if (o.max_retries < 0) return InvalidArgument("--max-retries must be 0 or more");
  if (o.epochs < 1) return InvalidArgument(fmt::format("--epochs must be at least 1, not {}", o.epochs));
  return Status::Ok();
}

// The same S3 settings as the JSON agent::ToolEnvOptions takes.
Json StoreOptionsJson(const lake::S3Options& s3) {
  return {{"endpoint", s3.endpoint},
          {"region", s3.region},
          {"anonymous", s3.anonymous},
          {"retries", s3.max_retries}};
}

// Everything the run holds while its agents work: the agent factory reads `loop`, `clients` and `pricing`.
struct State {
  AgentRunOptions o;
  Ablation ablation;
  std::vector<eval::Task> runnable;
  Json not_run = Json::array();
  Json provenance;
  LoopConfig loop;
  std::string prompt_profile;
  std::optional<llm::ModelSpec> spec;
  ToolEnvFactory envs;
  ToolEnvInfo info;
  std::string cassette;
  std::vector<std::unique_ptr<llm::ChatClient>> clients;
  std::optional<llm::PricingTable> pricing;
  EpochAgentFactory make_agent;
  RunOptions ro;
};

// The tasks, their gold contents when asked (read once, from the lake and the index the tools will use),
// and those the ablation can run; the others are reported one by one.
Status SelectTasks(State& s) {
  const AgentRunOptions& o = s.o;
  eval::LoadResult loaded = eval::LoadTasks(o.tasks);
  for (const auto& e : loaded.errors) Say(o.on_note, "skipped: " + e.status.message());
  for (const auto& n : loaded.notes) Say(o.on_note, "note: " + n);
  if (loaded.tasks.empty()) return NotFound("no task could be loaded from --tasks");
  if (o.provide_provenance) {
    std::unique_ptr<lake::Store> store;
    if (!o.lake.empty()) {
      auto opened = lake::OpenStore(o.lake, o.s3);
      if (!opened.ok()) return opened.status().WithContext("--lake");
      store = std::move(*opened);
    }
    // The task format that gives gold contents (task_format.h: provide_gold) hands them out and refuses the
    // tasks it cannot give.
    const eval::TaskFormatSpec* giver = eval::GoldGivingFormat();
    if (giver == nullptr) return InvalidArgument("--provide-provenance: no task format gives gold contents");
    LAKEQA_ASSIGN_OR_RETURN(s.provenance, giver->provide_gold(loaded.tasks, store.get(), o.index));
  }
  for (eval::Task& t : loaded.tasks) {
    Status st = CheckAblation(s.ablation, t);
    if (st.ok()) {
      s.runnable.push_back(std::move(t));
    } else {
      Say(o.on_note, fmt::format("not run ({}): {}", t.Where(), st.message()));
      s.not_run.push_back({{"task_id", t.id}, {"file", t.Where()}, {"reason", st.message()}});
    }
  }
  if (s.runnable.empty()) {
    return InvalidArgument("no task has the gold data --ablate " + s.ablation.Label() +
                           " needs (first: " + s.not_run[0]["reason"].get<std::string>() + ")");
  }
  return Status::Ok();
}

// The agent loop's limits and the prompt profile: --system-prompt wins over any profile; else the profile
// asked for, else the one the tasks' format calls for.
Status ConfigureLoop(State& s) {
  const AgentRunOptions& o = s.o;
  LoopConfig& loop = s.loop;
  loop.max_turns = o.max_turns;
  loop.timeout_s = o.timeout;
  loop.max_total_tokens = o.max_tokens;
  loop.max_cost_usd = o.max_cost;
  loop.max_output_tokens = o.max_output_tokens;
  loop.extra_tools = o.tools;
  loop.ablation = s.ablation;
  if (o.result_view != "compact" && o.result_view != "full")
    return InvalidArgument("--result-view must be compact or full, not \"" + o.result_view + "\"");
  loop.compact_results = o.result_view == "compact";
  if (!o.prompt.empty() && o.prompt != kPromptLakeQa && o.prompt != kPromptLake)
    return ProfilePrompt(o.prompt, {}).status();
  s.prompt_profile = o.prompt.empty() ? DefaultProfile(s.runnable) : o.prompt;
  if (!o.system_prompt_file.empty()) {
    auto text = ReadFile(o.system_prompt_file, 1 << 20);
    if (!text.ok()) return text.status().WithContext("--system-prompt");
    loop.system_prompt = *text;
    s.prompt_profile = "file";
  }
  return Status::Ok();
}

Status ChooseModel(State& s) {
  const std::string& a = s.o.agent;
  if (a != "llm" && a != "oracle" && a != "baseline" && a != "replay")
    return InvalidArgument("--agent " + a + ": expected llm, oracle, baseline or replay");
  if (a != "llm") return Status::Ok();
  if (s.o.model.empty())
    return InvalidArgument("--agent llm needs --model provider:model (e.g. openai:gpt-5.2)");
  LAKEQA_ASSIGN_OR_RETURN(llm::ModelSpec spec, llm::ParseModelSpec(s.o.model));
  s.spec = std::move(spec);
  return Status::Ok();
}

// The lake and the index, before anything is written to `out`: a refused run leaves no cassette behind.
Status OpenTools(State& s) {
  ToolEnvOptions eo;
  eo.index_dir = s.o.index;
  eo.lake = s.o.lake;
  eo.work_dir = eval::RunDir(s.o.out).WorkDir();
  eo.store_options = StoreOptionsJson(s.o.s3);
  eo.force_lake = s.o.force;
  LAKEQA_ASSIGN_OR_RETURN(s.envs, MakeToolEnvFactory(eo, &s.info));
  for (const std::string& w : s.info.warnings) Say(s.o.on_warning, "warning: " + w);
  return Status::Ok();
}

// The llm agent: the pricing table, the preflight (one retry at most: a dead endpoint must stop the run in
// seconds) and one cassette per epoch.
Status MakeLlmAgents(State& s) {
  const AgentRunOptions& o = s.o;
  const llm::ModelSpec& spec = *s.spec;
  auto table = o.pricing.empty() ? llm::PricingTable::LoadDefault() : llm::PricingTable::Load(o.pricing);
  if (!table.ok()) return table.status().WithContext("--pricing");
  s.pricing = std::move(*table);
  if (!s.pricing->Find(spec.provider, spec.model))
    Say(o.on_warning, "no price for " + spec.Name() + " in the pricing table; cost is reported as unknown");
  llm::ClientOptions co;
  co.base_url = o.base_url;
  co.stream = !o.no_stream;
  if (!o.offline) {
    co.http.max_retries = std::min(o.max_retries, 1);
    co.http.timeout_s = std::min(o.request_timeout, 60.0);
    LAKEQA_ASSIGN_OR_RETURN(auto pc, llm::MakeClient(spec, co));
    s.ro.preflight = [pre = std::shared_ptr<llm::ChatClient>(std::move(pc)), model = spec.model,
                      price = s.pricing->Find(spec.provider, spec.model)]() -> Result<Json> {
      LAKEQA_ASSIGN_OR_RETURN(llm::PreflightResult r, llm::Preflight(*pre, model));
      return r.ToJson(price);
    };
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(o.out));
  co.http.timeout_s = o.request_timeout;
  co.http.max_retries = o.max_retries;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    std::unique_ptr<llm::ChatClient> live;
    if (!o.offline) {
      LAKEQA_ASSIGN_OR_RETURN(live, llm::MakeClient(spec, co));
    }
    LAKEQA_ASSIGN_OR_RETURN(
        auto cc, llm::CassetteClient::Open(
                     CassetteOfEpoch(s.cassette, epoch),
                     o.offline ? llm::CassetteMode::kReplay : llm::CassetteMode::kRecord, std::move(live)));
    s.clients.push_back(std::move(cc));
  }
  s.ro.model = spec.Name();
  // The agents read the loop when a task starts: the "lake" prompt is set after this (MakeRunOptions).
  s.make_agent = [&s, provider = spec.provider, model = spec.model](int epoch) {
    return MakeLlmAgent(*s.clients[static_cast<size_t>(epoch - 1)], provider, model, &*s.pricing, s.loop);
  };
  return Status::Ok();
}

Status MakeAgents(State& s) {
  s.cassette = s.o.cassette.empty() ? eval::RunDir(s.o.out).Cassette() : s.o.cassette;
  const std::string& a = s.o.agent;
  if (a == "llm") return MakeLlmAgents(s);
  if (a == "oracle") {
    s.make_agent = [](int) { return MakeOracleAgent(); };
  } else if (a == "baseline") {
    s.make_agent = [](int) { return MakeBaselineAgent(); };
  } else {
    if (s.o.traces.empty()) return InvalidArgument("--agent replay needs --traces <run>/traces");
    s.make_agent = [dir = s.o.traces](int) { return MakeReplayAgent(dir); };
  }
  return Status::Ok();
}

Json ConfigJson(const State& s) {
  const AgentRunOptions& o = s.o;
  return {{"tasks", o.tasks},
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
          {"cassette", o.agent == "llm" ? Json(s.cassette) : Json()},
          {"offline", o.offline},
          {"force", o.force},
          {"epochs", o.epochs},
          {"ablate", o.ablate},
          {"provide_provenance", o.provide_provenance},
          {"provenance", s.provenance}};
}

// run.json's record of the run, and the "lake" prompt, which names the lake's namespaces and the tools
// given: known once the tools are open.
Status MakeRunOptions(State& s) {
  const AgentRunOptions& o = s.o;
  RunOptions& ro = s.ro;
  ro.out_dir = o.out;
  ro.parallel = o.parallel;
  ro.only_new = o.only_new;
  ro.max_failures = o.max_failures;
  ro.force_lake = o.force;
  ro.task_paths = o.tasks;
  ro.epochs = o.epochs;
  ro.ablation = s.ablation.ToJson();
  ro.not_run = s.not_run;
  ro.progress = o.progress;
  ro.agent = o.agent;
  ro.lake = s.info.lake;
  ro.index = s.info.index;
  ro.warnings = s.info.warnings;
  ro.config = ConfigJson(s);
  if (s.prompt_profile == kPromptLake) {
    PromptContext pc;
    pc.namespaces = s.info.namespaces;
    for (const auto& t : PaperToolSchemas()) pc.tools.push_back(t.name);
    for (const auto& t : o.tools)
      if (std::find(pc.tools.begin(), pc.tools.end(), t) == pc.tools.end())
        pc.tools.insert(pc.tools.end() - 1, t);  // before submit_answer
    pc.format = CommonFormat(s.runnable);
    LAKEQA_ASSIGN_OR_RETURN(s.loop.system_prompt, ProfilePrompt(s.prompt_profile, pc));
  }
  ro.prompt_hash = PromptHash(s.loop.system_prompt.empty() ? DefaultSystemPrompt() : s.loop.system_prompt,
                              PaperToolSchemas());
  ro.config["prompt"] = {
      {"profile", s.prompt_profile},
      {"system_prompt_file", o.system_prompt_file.empty() ? Json() : Json(o.system_prompt_file)},
      {"hash", ro.prompt_hash}};
  ro.config["result_view"] = o.result_view;
  return Status::Ok();
}

// Why a run that went to the end did not do what was asked, or "".
std::string FailedMessage(const State& s, const RunSummary& sum) {
  std::string failed;
  if (sum.failed > 0) {
    failed = fmt::format("{} of {} tasks failed{} (first: {}); `lakeqa run` again retries them", sum.failed,
                         sum.ran,
                         sum.stopped == "max_failures"
                             ? fmt::format(", the run stopped at --max-failures {} with {} tasks not started",
                                           s.o.max_failures, sum.not_started)
                             : "",
                         sum.first_failure);
  }
  // An oracle that could attempt none of the tasks did not do what was asked either.
  if (sum.ran > 0 && sum.not_applicable == sum.ran) {
    failed += fmt::format("{}every task that ran ({}) was not applicable to --agent {} (first: {})",
                          failed.empty() ? "" : "; ", sum.ran, s.o.agent, sum.first_not_applicable);
  }
  if (!s.not_run.empty()) {
    failed += fmt::format("{}{} tasks were not run: they lack the gold data --ablate {} needs (first: {})",
                          failed.empty() ? "" : "; ", s.not_run.size(), s.ablation.Label(),
                          s.not_run[0]["reason"].get<std::string>());
  }
  return failed;
}

class PreparedRun : public AgentRun {
 public:
  explicit PreparedRun(std::unique_ptr<State> s) : s_(std::move(s)) {}
  Result<AgentRunResult> Run(std::atomic<bool>& cancel) override {
    LAKEQA_ASSIGN_OR_RETURN(RunSummary sum, RunTasks(s_->ro, s_->runnable, s_->make_agent, s_->envs, cancel));
    AgentRunResult r;
    r.failed = FailedMessage(*s_, sum);
    r.summary = std::move(sum);
    r.ablation = s_->ablation;
    r.not_run = s_->not_run;
    return r;
  }

 private:
  std::unique_ptr<State> s_;
};

}  // namespace

std::string CassetteOfEpoch(const std::string& cassette, int epoch) {
  if (epoch == 1) return cassette;
  std::string stem = cassette.size() > 6 && cassette.ends_with(".jsonl")
                         ? cassette.substr(0, cassette.size() - 6)
                         : cassette;
  return fmt::format("{}.epoch-{}.jsonl", stem, epoch);
}

Json AgentRunResult::ToJson(const std::string& out) const {
  Json j = summary.ToJson();
  j["out"] = out;
  j["ablation"] = ablation.ToJson();
  j["not_run"] = not_run;
  return j;
}

Result<std::unique_ptr<AgentRun>> PrepareAgentRun(const AgentRunOptions& options) {
  auto s = std::make_unique<State>();
  s->o = options;
  LAKEQA_RETURN_IF_ERROR(CheckNumbers(s->o));
  LAKEQA_ASSIGN_OR_RETURN(s->ablation, ParseAblations(s->o.ablate));
  if (!s->ablation.IsStandard() && s->o.agent != "llm") {
    return InvalidArgument(
        "--ablate applies to --agent llm only (the oracles replace a stage of its loop), not --agent " +
        s->o.agent);
  }
  LAKEQA_RETURN_IF_ERROR(SelectTasks(*s));
  LAKEQA_RETURN_IF_ERROR(ConfigureLoop(*s));
  LAKEQA_RETURN_IF_ERROR(ChooseModel(*s));
  LAKEQA_RETURN_IF_ERROR(OpenTools(*s));
  LAKEQA_RETURN_IF_ERROR(MakeAgents(*s));
  LAKEQA_RETURN_IF_ERROR(MakeRunOptions(*s));
  return std::unique_ptr<AgentRun>(std::make_unique<PreparedRun>(std::move(s)));
}

}  // namespace lakeqa::agent
