// The LLM agent loop (reference: evaluation/agent_runner.py, _run_agent_loop).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/tools/model_view.h"

#include "agent/internal.h"

namespace lakeqa::agent {
namespace {

using Clock = std::chrono::steady_clock;
using internal::MsSince;

// "auto", "required" or the forced tool's name, for the trace.
std::string ChoiceLabel(const llm::ToolChoice& c) {
  switch (c.kind) {
    case llm::ToolChoice::Kind::kAuto: return "auto";
    case llm::ToolChoice::Kind::kRequired: return "required";
    case llm::ToolChoice::Kind::kNone: return "none";
    case llm::ToolChoice::Kind::kTool: return c.tool;
  }
  return "auto";
}

class LlmAgent : public Agent {
 public:
  LlmAgent(llm::ChatClient& client, std::string provider, std::string model, const llm::PricingTable* pricing,
           LoopConfig config)
      : client_(client),
        provider_(std::move(provider)),
        model_(std::move(model)),
        config_(std::move(config)) {
    if (pricing != nullptr) price_ = pricing->Find(provider_, model_);
  }
  std::string Name() const override { return "llm"; }

  AgentResult Run(const eval::Task& task, ToolEnv& outer_env, const std::atomic<bool>& cancel) override {
    AgentResult out;
    out.task_id = task.id;
    auto start = Clock::now();
    auto finish = [&](Outcome o, std::string error = {}) {
      if (out.outcome != Outcome::kAnswered || o == Outcome::kAnswered) out.outcome = o;
      if (!config_.ablation.IsStandard()) {
        for (Json& e : out.trace) e["ablation"] = config_.ablation.Label();
      }
      out.error = std::move(error);
      out.elapsed_s = MsSince(start) / 1000;
      if (price_) out.cost_usd = llm::PricingTable::Cost(*price_, out.usage);
      return out;
    };

    // A task without the gold data its oracle needs is refused before any model call.
    if (Status ok = CheckAblation(config_.ablation, task); !ok.ok()) {
      out.cost_usd = 0.0;
      return finish(Outcome::kError, "ablation " + config_.ablation.Label() + ": " + ok.message());
    }
    AblatedEpisode episode(config_.ablation, task, outer_env);
    ToolEnv& env = episode.env();
    auto setup = episode.Setup();
    if (setup.ok()) {
      for (Json& e : *setup) out.trace.push_back(std::move(e));
    } else {
      return finish(Outcome::kError, setup.status().message());
    }

    Result<std::vector<llm::ToolSchema>> offered_tools = OfferedTools(env);
    if (!offered_tools.ok()) return finish(Outcome::kError, offered_tools.status().message());
    std::vector<llm::ToolSchema> tools = episode.Tools(std::move(*offered_tools));
    Offered offered;
    for (const auto& t : tools) offered.names.insert(t.name);
    for (const auto& t : tools) offered.list += (offered.list.empty() ? "" : ", ") + t.name;

    llm::ChatRequest req;
    req.model = model_;
    req.system = config_.system_prompt.empty() ? DefaultSystemPrompt() : config_.system_prompt;
    req.tools = tools;
    req.max_tokens = config_.max_output_tokens;
    req.temperature = config_.temperature;
    req.messages.push_back(
        llm::Message::User(FirstUserMessage(task.question) + episode.UserMessageAddendum()));

    bool budget_low = false;
    for (int turn = 0; turn < config_.max_turns; ++turn) {
      if (cancel.load())
        return finish(Outcome::kCancelled, "cancelled before turn " + std::to_string(turn + 1));
      double elapsed = MsSince(start) / 1000;
      if (elapsed > config_.timeout_s) {
        return finish(Outcome::kTimeout, fmt::format("timeout: the task exceeded {} s", config_.timeout_s));
      }
      req.tool_choice = ChoiceFor(turn, elapsed, budget_low);

      auto t0 = Clock::now();
      Result<llm::ChatResponse> resp = client_.Complete(req);
      double model_ms = MsSince(t0);
      out.turns = turn + 1;
      if (!resp.ok()) {
        out.trace.push_back({{"turn", turn + 1},
                             {"model_ms", model_ms},
                             {"status", "model_error"},
                             {"error", resp.status().ToString()}});
        return finish(Outcome::kError, "model call failed on turn " + std::to_string(turn + 1) + ": " +
                                           resp.status().ToString());
      }
      out.usage += resp->usage;
      Json event = {{"turn", turn + 1},
                    {"tool_choice", ChoiceLabel(req.tool_choice)},
                    {"content", resp->content},
                    {"model_ms", model_ms},
                    {"usage", resp->usage.ToJson()}};
      if (price_) event["cost_usd"] = llm::PricingTable::Cost(*price_, resp->usage);

      if (resp->tool_calls.empty()) {
        req.messages.push_back(llm::Message::Assistant(resp->content));
        req.messages.push_back(llm::Message::User(
            "Please use one of the available tools to continue. If you have the answer, use submit_answer."));
        event["tool"] = nullptr;
        event["status"] = "no_tool_call";
        out.trace.push_back(std::move(event));
      } else {
        RunToolCall(*resp, turn, offered, env, start, req, event, out);
        out.trace.push_back(std::move(event));
        if (out.outcome == Outcome::kAnswered) return finish(Outcome::kAnswered);
      }

      int64_t tokens = out.usage.input_tokens + out.usage.output_tokens;
      double cost = price_ ? llm::PricingTable::Cost(*price_, out.usage) : 0;
      if (config_.max_total_tokens > 0 && tokens >= config_.max_total_tokens) {
        return finish(Outcome::kTokenLimit, fmt::format("token limit: {} tokens used (limit {})", tokens,
                                                        config_.max_total_tokens));
      }
      if (config_.max_cost_usd > 0 && cost >= config_.max_cost_usd) {
        return finish(Outcome::kCostLimit,
                      fmt::format("cost limit: ${:.4f} spent (limit ${:.4f})", cost, config_.max_cost_usd));
      }
      // Another turn like the average one so far would cross a limit: force the answer next turn.
      double per_turn_tokens = double(tokens) / (turn + 1), per_turn_cost = cost / (turn + 1);
      budget_low =
          (config_.max_total_tokens > 0 && tokens + per_turn_tokens >= double(config_.max_total_tokens)) ||
          (config_.max_cost_usd > 0 && cost + per_turn_cost >= config_.max_cost_usd);
    }
    return finish(Outcome::kMaxTurns,
                  "max turns (" + std::to_string(config_.max_turns) + ") reached without an answer");
  }

 private:
  // The last turn, the last tenth of the time or a nearly spent budget: the model must answer now; in the
  // last forced_turns it must call a tool.
  llm::ToolChoice ChoiceFor(int turn, double elapsed, bool budget_low) const {
    int remaining = config_.max_turns - turn;
    double time_left = config_.timeout_s - elapsed;
    if (remaining == 1 || time_left < std::min(60.0, config_.timeout_s / 10) || budget_low)
      return llm::ToolChoice::Tool("submit_answer");
    if (remaining <= config_.forced_turns) return llm::ToolChoice::Required();
    return llm::ToolChoice::Auto();
  }

  // The tools the model is offered and their names as the error of an unknown tool lists them.
  struct Offered {
    std::set<std::string> names;
    std::string list;
  };

  // The paper's tools plus the --tools extras the environment has (an extra it lacks is an error).
  Result<std::vector<llm::ToolSchema>> OfferedTools(ToolEnv& env) const {
    std::vector<llm::ToolSchema> tools = PaperToolSchemas();
    if (config_.extra_tools.empty()) return tools;
    std::vector<Json> env_schemas = env.Schemas();
    for (const std::string& name : config_.extra_tools) {
      auto it = std::find_if(env_schemas.begin(), env_schemas.end(),
                             [&](const Json& s) { return s.value("name", "") == name; });
      if (it == env_schemas.end())
        return InvalidArgument("--tools: the tool environment has no tool \"" + name + "\"");
      if (std::none_of(tools.begin(), tools.end(), [&](const llm::ToolSchema& t) { return t.name == name; }))
        tools.push_back(SchemaFromJson(*it));
    }
    return tools;
  }

  // Runs (or refuses) the tool the model called and puts its result in the conversation, with the turns
  // and seconds left, and in the turn's trace event.
  void RunToolCall(const llm::ChatResponse& resp, int turn, const Offered& offered, ToolEnv& env,
                   Clock::time_point start, llm::ChatRequest& req, Json& event, AgentResult& out) {
    // One tool call per turn: further calls of the same reply are dropped (and noted in the trace).
    llm::ToolCall call = resp.tool_calls.front();
    if (resp.tool_calls.size() > 1) event["ignored_tool_calls"] = resp.tool_calls.size() - 1;
    if (call.id.empty()) call.id = "call_" + std::to_string(turn + 1);
    req.messages.push_back(llm::Message::Assistant(resp.content, {call}));

    Json result;
    auto t1 = Clock::now();
    bool called = false;
    // What the model is shown: the compact view, unless it asked for a view itself.
    bool own_view = call.arguments.is_object() && call.arguments.contains("view");
    bool compact = config_.compact_results && !own_view;
    // One count everywhere (eval's TraceSets): every call but submit_answer, refused ones included.
    if (call.name != "submit_answer") ++out.tool_calls;
    if (offered.names.count(call.name) == 0) {
      result = ErrorJson(NotFound("unknown tool \"" + call.name + "\"; available tools: " + offered.list));
    } else if (!call.ArgumentsValid()) {
      result = ErrorJson(InvalidArgument("the arguments of " + call.name +
                                         " are not a JSON object: " + call.arguments_text.substr(0, 300)));
    } else if (call.name == "submit_answer") {
      result = internal::Submit(call.arguments, out);
    } else {
      result = internal::SafeCall(env, call.name, call.arguments, compact);
      called = true;
    }
    Json ids = internal::TrackDatasets(env, called, call.name, call.arguments, result, out);
    std::string text = internal::Truncate(DumpJson(result), config_.result_chars);
    int turns_left = config_.max_turns - turn - 1;
    int secs_left = std::max(0, static_cast<int>(config_.timeout_s - MsSince(start) / 1000));
    text += fmt::format("\n\n[STATUS: {} turns remaining, {}s time remaining]", turns_left, secs_left);
    bool is_error = internal::IsError(result);
    req.messages.push_back(llm::Message::ToolResult(call.id, text, is_error));
    event["tool"] = call.name;
    event["arguments"] = call.ArgumentsValid() ? call.arguments : Json(call.arguments_text);
    event["status"] = internal::CallStatus(result);
    event["elapsed_ms"] = MsSince(t1);
    event["result"] = text;
    event.update(ids);
  }

  llm::ChatClient& client_;
  std::string provider_, model_;
  std::optional<llm::Price> price_;
  LoopConfig config_;
};

}  // namespace

std::unique_ptr<Agent> MakeLlmAgent(llm::ChatClient& client, const std::string& provider,
                                    const std::string& model, const llm::PricingTable* pricing,
                                    LoopConfig config) {
  return std::make_unique<LlmAgent>(client, provider, model, pricing, std::move(config));
}

}  // namespace lakeqa::agent
