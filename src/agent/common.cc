// Dataset tracking, safe tool calls, truncation and submit_answer handling shared by every agent.
#include <algorithm>
#include <exception>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/tools/results.h"

#include "agent/internal.h"

namespace lakeqa::agent::internal {
namespace {

void AddUnique(std::vector<std::string>& v, const std::string& id) {
  if (!id.empty() && std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
}

}  // namespace

Json TrackDatasets(ToolEnv& env, bool called, const std::string& tool, const Json& args, const Json& result,
                   AgentResult& out) {
  std::vector<std::string> returned, accessed;
  Json recorded = called ? env.LastCallDatasets() : Json();
  if (recorded.is_object()) {
    for (const char* k : {"returned", "accessed"}) {
      if (!recorded.contains(k) || !recorded[k].is_array()) continue;
      for (const Json& id : recorded[k])
        if (id.is_string()) AddUnique(k[0] == 'r' ? returned : accessed, id.get<std::string>());
    }
  } else {
    if (tool == "search" || tool == "search_keyword") {
      for (const tools::ResultDataset& hit : tools::SearchHits(result)) AddUnique(returned, hit.Qualified());
    }
    if (args.is_object() && tool == "list_files") {
      if (args.contains("dataset_ids") && args["dataset_ids"].is_array()) {
        for (const Json& id : args["dataset_ids"])
          if (id.is_string()) AddUnique(accessed, id.get<std::string>());
      }
    } else if (args.is_object() && tool == "download") {
      if (auto files = tools::DownloadedFiles(result)) {
        for (const tools::DownloadedFile& f : *files) AddUnique(accessed, f.dataset.Qualified());
      } else if (args.contains("files") && args["files"].is_array()) {
        for (const Json& f : args["files"])
          if (f.is_object()) AddUnique(accessed, f.value("dataset_id", ""));
      }
    } else if (args.is_object() && tool == "inspect_file") {
      if (args.contains("dataset_id") && args["dataset_id"].is_string())
        AddUnique(accessed, args["dataset_id"].get<std::string>());
    }
  }
  for (const auto& id : returned) AddUnique(out.returned, id);
  for (const auto& id : accessed) AddUnique(out.accessed, id);
  return {{"returned", returned}, {"accessed", accessed}};
}

Json CallAndRecord(ToolEnv& env, int& turn, const std::string& tool, const Json& args, AgentResult& out) {
  auto t0 = std::chrono::steady_clock::now();
  Json r = SafeCall(env, tool, args);
  ++out.tool_calls;
  Json ids = TrackDatasets(env, true, tool, args, r, out);
  Json event = ToolEvent(++turn, tool, args, r, MsSince(t0));
  event.update(ids);
  out.trace.push_back(std::move(event));
  return r;
}

ScriptedRun::ScriptedRun(const eval::Task& task, ToolEnv& env) : env_(env) {
  out.cost_usd = 0.0;
  out.task_id = task.id;
}

void ScriptedRun::SubmitAnswer(const Json& args) {
  Json r = Submit(args, out);
  out.trace.push_back(ToolEvent(++turn_, "submit_answer", args, r, 0));
  out.turns = turn_;
}

AgentResult ScriptedRun::Finish() {
  out.elapsed_s = MsSince(start_) / 1000;
  return std::move(out);
}

Json SafeCall(ToolEnv& env, const std::string& tool, const Json& args, bool compact) {
  try {
    return compact ? env.CallCompact(tool, args) : env.Call(tool, args);
  } catch (const std::exception& e) {
    return ErrorJson(Internal("tool " + tool + " failed: " + e.what()));
  }
}

bool IsError(const Json& result) {
  return result.is_object() && result.contains("error") && result.size() == 1;
}

std::string CallStatus(const Json& result) {
  if (!IsError(result)) return "ok";
  const Json& e = result["error"];
  return e.is_object() && e.contains("code") && e["code"].is_string() ? e["code"].get<std::string>()
                                                                      : "error";
}

Json ToolEvent(int turn, const std::string& tool, const Json& args, const Json& result, double elapsed_ms) {
  return {{"turn", turn},
          {"tool", tool},
          {"arguments", args},
          {"status", CallStatus(result)},
          {"elapsed_ms", elapsed_ms},
          {"result", Truncate(DumpJson(result), 4000)}};
}

std::string Truncate(const std::string& text, size_t limit) {
  if (text.size() <= limit || limit < 100) return text;
  size_t head = limit * 5 / 8, tail = limit / 4;
  // Step back to a UTF-8 character boundary so the cut never splits a code point.
  auto boundary = [&](size_t i) {
    while (i > 0 && i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
    return i;
  };
  size_t h = boundary(head), t = boundary(text.size() - tail);
  return text.substr(0, h) + "\n...[truncated]...\n" + text.substr(t);
}

Json Submit(const Json& args, AgentResult& out) {
  if (!args.contains("answer") || args["answer"].is_null()) {
    return ErrorJson(
        InvalidArgument("submit_answer: the argument \"answer\" is required, e.g. {\"answer\": \"[42]\"}"));
  }
  const Json& a = args["answer"];
  out.raw_answer = a.is_string() ? a.get<std::string>() : a.dump();
  if (a.is_object()) {
    // Models sometimes nest the value: {"answer": {"value": 3}}.
    for (const char* k : {"answer", "value", "result"}) {
      if (a.contains(k)) {
        out.raw_answer = a[k].is_string() ? a[k].get<std::string>() : a[k].dump();
        break;
      }
    }
  }
  out.answer = CleanAnswer(out.raw_answer);
  out.reasoning =
      args.contains("reasoning") && args["reasoning"].is_string() ? args["reasoning"].get<std::string>() : "";
  out.sources.clear();
  if (args.contains("sources") && args["sources"].is_array()) {
    for (const Json& s : args["sources"])
      if (s.is_string()) out.sources.push_back(s.get<std::string>());
  }
  out.outcome = Outcome::kAnswered;
  return {{"status", "answer_submitted"}, {"answer", out.answer}, {"raw_answer", out.raw_answer}};
}

}  // namespace lakeqa::agent::internal
