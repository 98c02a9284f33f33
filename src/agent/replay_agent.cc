// Re-runs a recorded trace against the tools: the same tool calls in the same order, then the recorded
// answer. Differences in tool results between the two runs show up in the new trace.
#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"

#include "agent/internal.h"

namespace lakeqa::agent {
namespace {

class ReplayAgent : public Agent {
 public:
  explicit ReplayAgent(std::string dir) : dir_(std::move(dir)) {}
  std::string Name() const override { return "replay"; }

  AgentResult Run(const eval::Task& task, ToolEnv& env, const std::atomic<bool>& cancel) override {
    AgentResult out;
    out.cost_usd = 0.0;  // no model call: nothing is spent (unknown is for unpriced models)
    out.task_id = task.id;
    auto start = std::chrono::steady_clock::now();
    std::string path = dir_ + "/" + task.id + ".jsonl";
    auto text = ReadFile(path);
    if (!text.ok()) {
      out.outcome = Outcome::kError;
      out.error = "replay: no recorded trace for task " + task.id + ": " + text.status().message();
      return out;
    }
    LineReader reader(*text);
    int turn = 0;
    bool submitted = false;
    while (!submitted && reader.Next()) {
      std::string_view line = reader.line();
      size_t line_no = reader.number();
      if (cancel.load()) {
        out.outcome = Outcome::kCancelled;
        return out;
      }
      Json ev = Json::parse(line, nullptr, false);
      if (!ev.is_object()) {
        out.outcome = Outcome::kError;
        out.error = path + ":" + std::to_string(line_no) + ": not a JSON trace event";
        return out;
      }
      if (!ev.contains("tool") || !ev["tool"].is_string()) continue;  // a turn without a tool call
      std::string tool = ev["tool"].get<std::string>();
      Json args = ev.contains("arguments") && ev["arguments"].is_object() ? ev["arguments"] : Json::object();
      auto t0 = std::chrono::steady_clock::now();
      Json r;
      if (tool == "submit_answer") {
        r = internal::Submit(args, out);
        submitted = out.outcome == Outcome::kAnswered;
      } else {
        r = internal::SafeCall(env, tool, args);
        ++out.tool_calls;
      }
      Json ids = internal::TrackDatasets(env, tool != "submit_answer", tool, args, r, out);
      Json event = internal::ToolEvent(++turn, tool, args, r, internal::MsSince(t0));
      event.update(ids);
      event["recorded_status"] = ev.value("status", "");
      out.trace.push_back(std::move(event));
    }
    out.turns = turn;
    if (!submitted) {
      out.outcome = Outcome::kMaxTurns;
      out.error = "replay: the recorded trace has no submit_answer";
    }
    out.elapsed_s = internal::MsSince(start) / 1000;
    return out;
  }

 private:
  std::string dir_;
};

}  // namespace

std::unique_ptr<Agent> MakeReplayAgent(std::string traces_dir) {
  return std::make_unique<ReplayAgent>(std::move(traces_dir));
}

}  // namespace lakeqa::agent
