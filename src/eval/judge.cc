// The judge's pinned prompt, reply parsing and the verdict cache. The cache is a JSONL file rewritten
// atomically after each new verdict, so an interrupted judging keeps what it paid for.
#include "lakeqa/eval/judge.h"

#include <cctype>
#include <map>

#include <fmt/format.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/run_dir.h"

namespace lakeqa::eval {
namespace {

uint64_t Fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string CacheKey(const std::string& model, const TaskScore& t) {
  uint64_t h = Fnv1a(kJudgePromptVersion);
  for (const std::string& part : {model, t.question, t.answer.gold_text, DumpJson(t.raw_answer)}) {
    h = Fnv1a("\x1f", h);
    h = Fnv1a(part, h);
  }
  return fmt::format("{:016x}", h);
}

std::string SafeName(const std::string& s) {
  std::string out;
  for (char c : s)
    out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_');
  return out;
}

// What the judge is shown: the model's own words, not the cleaned answer (the judge exists to look past
// surface form).
std::string AnswerTextFor(const Json& raw) {
  return raw.is_string() ? raw.get<std::string>() : DumpJson(raw);
}

}  // namespace

Result<JudgeSpec> ParseJudgeSpec(std::string_view spec) {
  size_t colon = spec.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == spec.size()) {
    return InvalidArgument(fmt::format("--judge \"{}\": expected provider:model, e.g. openai:gpt-5.2", spec));
  }
  return JudgeSpec{std::string(spec.substr(0, colon)), std::string(spec.substr(colon + 1)), ""};
}

std::string JudgeSystemPrompt() {
  return "You grade answers to questions over a data lake. You are given the question, the gold answer and a "
         "candidate answer. The candidate is correct when it states the same answer as the gold answer: "
         "accept "
         "differences of surface form only (capitalisation, abbreviations such as \"PA\" for "
         "\"Pennsylvania\", "
         "units written out or omitted, thousands separators, equivalent date formats, rounding that the "
         "question allows, extra words around the answer). It is incorrect when it names a different entity, "
         "number or date, is less specific than the question requires, lists extra or missing items, or "
         "hedges between several answers. Reply with one JSON object and nothing else: "
         "{\"verdict\": \"correct\" or \"incorrect\", \"rationale\": \"one sentence\"}.";
}

std::string JudgeUserPrompt(std::string_view question, std::string_view gold, std::string_view answer) {
  return fmt::format("Question:\n{}\n\nGold answer:\n{}\n\nCandidate answer:\n{}\n", question, gold, answer);
}

Result<JudgeVerdict> ParseJudgeReply(std::string_view text) {
  std::string_view t = Trim(text);
  size_t open = t.find('{');
  size_t close = t.rfind('}');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    auto j = ParseJson(t.substr(open, close - open + 1), "judge reply");
    if (j.ok() && j->is_object() && j->contains("verdict") && (*j)["verdict"].is_string()) {
      std::string v = ToLowerAscii((*j)["verdict"].get<std::string>());
      if (v == "correct" || v == "incorrect") {
        JudgeVerdict out;
        out.correct = v == "correct";
        if (j->contains("rationale") && (*j)["rationale"].is_string()) out.rationale = (*j)["rationale"];
        return out;
      }
    }
  }
  std::string lower = ToLowerAscii(t.substr(0, 16));
  if (StartsWith(lower, "incorrect")) return JudgeVerdict{false, std::string(t), 0, false};
  if (StartsWith(lower, "correct")) return JudgeVerdict{true, std::string(t), 0, false};
  return ParseError(
      fmt::format("judge reply is neither {{\"verdict\": ...}} JSON nor CORRECT/INCORRECT: \"{}\"",
                  TruncateUtf8(t, 200)));
}

Status JudgeRun(RunScore& score, JudgeClient& client, const JudgeSpec& spec, const std::string& run_dir) {
  const std::string model = client.Model().empty() ? spec.Name() : client.Model();
  const std::string dir = RunDir(run_dir).JudgeDir();
  const std::string path = dir + "/" + SafeName(model) + ".jsonl";
  // key → cache line
  std::map<std::string, Json> cache;
  std::vector<std::string> order;
  if (PathExists(path)) {
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path, 256ull << 20));
    size_t line_no = 0;
    for (std::string_view line : Split(text, '\n')) {
      ++line_no;
      if (Trim(line).empty()) continue;
      auto j = ParseJson(line, fmt::format("{}:{}", path, line_no));
      if (!j.ok() || !j->is_object() || !j->contains("key")) {
        score.warnings.push_back(fmt::format("{}:{}: judge cache line skipped", path, line_no));
        continue;
      }
      // Earlier lakeqa versions cached an unreadable reply as an "incorrect" verdict with the parse error as
      // its rationale: that was never a verdict, so it is dropped and the task is judged again.
      auto why = j->find("rationale");
      if (why != j->end() && why->is_string() &&
          StartsWith(why->get<std::string>(), "judge reply is neither"))
        continue;
      std::string key = (*j)["key"].get<std::string>();
      if (!cache.count(key)) order.push_back(key);
      cache[key] = *j;
    }
  }
  auto save = [&]() -> Status {
    LAKEQA_RETURN_IF_ERROR(MakeDirs(dir));
    std::string out;
    for (const auto& k : order) out += DumpJson(cache[k]) + "\n";
    return WriteFileAtomic(path, out);
  };
  Status result = Status::Ok();
  for (TaskScore& t : score.tasks) {
    std::string key = CacheKey(model, t);
    if (auto it = cache.find(key); it != cache.end()) {
      const Json& c = it->second;
      auto cost = c.find("cost_usd");
      t.judge = JudgeVerdict{
          c.value("correct", false), c.value("rationale", std::string()),
          cost != c.end() && cost->is_number() ? std::optional<double>(cost->get<double>()) : std::nullopt,
          true};
      continue;
    }
    JudgeVerdict v;
    if (t.answer.cleaned.empty()) {
      v.rationale = "no answer was submitted";
      v.cost_usd = 0.0;
    } else {
      Status unreadable;
      bool got = false;
      double cost = 0;
      bool cost_known = true;
      for (int attempt = 0; attempt < kJudgeAttempts && !got; ++attempt) {
        auto reply = client.Complete(JudgeSystemPrompt(), JudgeUserPrompt(t.question, t.answer.gold_text,
                                                                          AnswerTextFor(t.raw_answer)));
        if (!reply.ok()) {
          result = reply.status().WithContext("judging task " + t.task_id);
          break;
        }
        if (reply->cost_usd) cost += *reply->cost_usd;
        else cost_known = false;
        auto parsed = ParseJudgeReply(reply->text);
        if (parsed.ok()) {
          v = *parsed;
          got = true;
        } else {
          unreadable = parsed.status();
        }
      }
      if (!result.ok()) break;
      if (!got) {
        t.judge.reset();
        t.judge_error = unreadable.message();
        score.warnings.push_back(fmt::format("judge, task {}: no verdict after {} attempts: {}", t.task_id,
                                             kJudgeAttempts, unreadable.message()));
        continue;
      }
      v.cost_usd = cost_known ? std::optional<double>(cost) : std::nullopt;
    }
    t.judge = v;
    cache[key] = {{"key", key},
                  {"task_id", t.task_id},
                  {"model", model},
                  {"prompt", kJudgePromptVersion},
                  {"correct", v.correct},
                  {"rationale", v.rationale},
                  {"cost_usd", v.cost_usd ? Json(*v.cost_usd) : Json()}};
    order.push_back(key);
    LAKEQA_RETURN_IF_ERROR(save());
  }
  score.judge_model = model;
  Aggregate(score);
  return result;
}

}  // namespace lakeqa::eval
