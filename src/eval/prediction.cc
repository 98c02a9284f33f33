#include "lakeqa/eval/prediction.h"

#include <set>

#include "eval/json_fields.h"

namespace lakeqa::eval {
namespace {

using internal::FieldError;
using internal::GetInt;
using internal::GetNumber;
using internal::GetString;

// The spellings of other harnesses and earlier versions, and the one `lakeqa run` writes.
std::string CanonicalStatus(const std::string& s) {
  if (s == "ok") return "answered";
  if (s == "turn_limit") return "max_turns";
  return s;
}

// Strings of an array, when the member is one; anything else is left out (a field the scorer never used).
std::vector<std::string> Strings(const Json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const Json& e : *it)
    if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

Status ReadTokens(const Json& j, std::string_view where, llm::Usage& u) {
  if (auto t = j.find("tokens"); t != j.end() && !t->is_null()) {
    if (!t->is_object()) return FieldError(where, "tokens", "an object {input, output, cache_read}");
    LAKEQA_RETURN_IF_ERROR(GetInt(*t, "input", where, u.input_tokens));
    LAKEQA_RETURN_IF_ERROR(GetInt(*t, "output", where, u.output_tokens));
    return GetInt(*t, "cache_read", where, u.cache_read_tokens);
  }
  auto it = j.find("usage");
  if (it == j.end() || !it->is_object()) return Status::Ok();
  LAKEQA_RETURN_IF_ERROR(GetInt(*it, "input_tokens", where, u.input_tokens));
  LAKEQA_RETURN_IF_ERROR(GetInt(*it, "output_tokens", where, u.output_tokens));
  LAKEQA_RETURN_IF_ERROR(GetInt(*it, "cache_read_tokens", where, u.cache_read_tokens));
  if (auto w = it->find("cache_write_tokens"); w != it->end() && w->is_number())
    u.cache_write_tokens = w->get<int64_t>();
  return Status::Ok();
}

}  // namespace

Json PredictionRecord::ToJson() const {
  Json j = {{"task_id", task_id},
            {"status", status},
            {"answer", answer},
            {"raw_answer", raw_answer ? Json(*raw_answer) : Json()},
            {"reasoning", reasoning},
            {"sources", sources},
            {"turns", turns},
            {"tool_calls", tool_calls},
            {"usage", usage.ToJson()},
            {"cost_usd", cost_usd ? Json(*cost_usd) : Json()},
            {"elapsed_s", elapsed_s ? Json(*elapsed_s) : Json()},
            {"returned", returned},
            {"accessed", accessed}};
  if (!raw_answer) j.erase("raw_answer");
  if (!elapsed_s) j.erase("elapsed_s");
  if (!error.empty()) j["error"] = error;
  if (!extra.empty()) j["extra"] = extra;
  if (epoch) j["epoch"] = *epoch;
  return j;
}

Result<PredictionRecord> PredictionRecord::FromJson(const Json& j, std::string_view where) {
  PredictionRecord p;
  auto id = j.find("task_id");
  if (id == j.end() || !(id->is_string() || id->is_number_integer() || id->is_number_unsigned())) {
    return FieldError(where, "task_id", "a string");
  }
  p.task_id = id->is_string() ? id->get<std::string>() : DumpJson(*id);
  if (p.task_id.empty()) return FieldError(where, "task_id", "a non-empty string");
  if (auto a = j.find("answer"); a != j.end()) p.answer = *a;
  if (auto r = j.find("raw_answer"); r != j.end() && r->is_string()) p.raw_answer = r->get<std::string>();
  std::string status = "ok";
  LAKEQA_RETURN_IF_ERROR(GetString(j, "status", where, status));
  static const std::set<std::string> kStatuses = {"answered",   "max_turns", "timeout", "token_limit",
                                                  "cost_limit", "error",     "crashed", "not_applicable"};
  p.status = CanonicalStatus(status);
  if (!kStatuses.count(p.status))
    return FieldError(
        where, "status",
        "one of ok (answered), timeout, crashed, turn_limit (max_turns), token_limit, cost_limit, "
        "not_applicable, error");
  // A line without a runtime has an unknown one, never 0 s.
  for (const char* key : {"runtime_s", "elapsed_s"}) {
    if (auto r = j.find(key); r != j.end() && !r->is_null()) {
      double v = 0;
      LAKEQA_RETURN_IF_ERROR(GetNumber(j, key, where, v));
      p.elapsed_s = v;
      break;
    }
  }
  if (auto c = j.find("cost_usd"); c != j.end() && !c->is_null()) {
    if (!c->is_number()) return FieldError(where, "cost_usd", "a number or null (unknown)");
    p.cost_usd = c->get<double>();
  }
  if (auto e = j.find("epoch"); e != j.end() && !e->is_null()) {
    int64_t epoch = 1;
    LAKEQA_RETURN_IF_ERROR(GetInt(j, "epoch", where, epoch));
    if (epoch < 1) return FieldError(where, "epoch", "an integer of at least 1");
    p.epoch = static_cast<int>(epoch);
  }
  int64_t turns = 0;
  LAKEQA_RETURN_IF_ERROR(GetInt(j, "turns", where, turns));
  p.turns = static_cast<int>(turns);
  LAKEQA_RETURN_IF_ERROR(ReadTokens(j, where, p.usage));
  if (auto t = j.find("tool_calls"); t != j.end() && t->is_number_integer()) p.tool_calls = t->get<int>();
  if (auto r = j.find("reasoning"); r != j.end() && r->is_string()) p.reasoning = r->get<std::string>();
  p.sources = Strings(j, "sources");
  p.returned = Strings(j, "returned");
  p.accessed = Strings(j, "accessed");
  if (auto e = j.find("error"); e != j.end() && e->is_string()) p.error = e->get<std::string>();
  if (auto x = j.find("extra"); x != j.end() && x->is_object()) p.extra = *x;
  return p;
}

}  // namespace lakeqa::eval
