// Reading a run directory and scoring it task by task, then the aggregates. A malformed line in
// predictions.jsonl or a trace is a warning naming file and line; the rest of the run is still scored.
#include "lakeqa/eval/score.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/answer_type.h"
#include "lakeqa/eval/hops.h"
#include "lakeqa/eval/prediction.h"
#include "lakeqa/eval/run_dir.h"
#include "lakeqa/eval/task_format.h"

#include "eval/json_fields.h"

namespace lakeqa::eval {
namespace {

// Macro averages of P/R/F1: sums over tasks, then divided by their count (a sum over no task stays 0).
void AddPrf(Prf& sum, const Prf& one) {
  sum.precision += one.precision;
  sum.recall += one.recall;
  sum.f1 += one.f1;
}
Prf MeanPrf(Prf sum, size_t n) {
  if (n == 0) return sum;
  const double d = static_cast<double>(n);
  return {sum.precision / d, sum.recall / d, sum.f1 / d};
}

// The trace's dataset sets as the labels a task's gold is given in (TaskExtension::LabelOf).
TraceSets LabelSets(const TraceSets& in, const TaskExtension& ext) {
  TraceSets out = in;
  for (auto [from, to] : {std::pair{&in.retrieved, &out.retrieved},
                          {&in.accessed, &out.accessed},
                          {&in.selected, &out.selected},
                          {&in.analyzed, &out.analyzed}}) {
    to->clear();
    for (const auto& d : *from) to->insert(ext.LabelOf(d));
  }
  return out;
}

namespace fs = std::filesystem;
using internal::FieldError;
using internal::GetIds;
using internal::GetInt;
using internal::GetNumber;
using internal::GetString;

// Caps that bound memory on hostile input: a run's predictions and one task's trace.
constexpr uint64_t kMaxPredictionsBytes = 1ull << 30;
constexpr uint64_t kMaxTraceBytes = 256ull << 20;

// Calls `fn(json, where)` for each non-blank line; malformed lines go to `warnings`.
template <typename Fn>
void ForEachJsonLine(const std::string& text, const std::string& file, std::vector<std::string>& warnings,
                     Fn&& fn) {
  LineReader reader(text);
  while (reader.Next()) {
    size_t line_no = reader.number();
    std::string where = file + ":" + std::to_string(line_no);
    auto j = ParseJson(reader.line(), where);
    if (!j.ok()) {
      warnings.push_back(j.status().message());
      continue;
    }
    if (!j->is_object()) {
      warnings.push_back(where + ": expected a JSON object");
      continue;
    }
    Status st = fn(*j, where, line_no);
    if (!st.ok()) warnings.push_back(st.message());
  }
}

std::string NamespaceMix(const std::vector<std::string>& gold) {
  std::set<std::string> ns;
  for (const auto& id : gold) ns.insert(id.substr(0, id.find('/')));
  std::string out;
  for (const auto& n : ns) out += (out.empty() ? "" : "+") + n;
  return out.empty() ? "none" : out;
}

double Percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

Json PrfJson(const Prf& p) { return {{"precision", p.precision}, {"recall", p.recall}, {"f1", p.f1}}; }

Json SetJson(const std::set<std::string>& s) { return Json(std::vector<std::string>(s.begin(), s.end())); }

}  // namespace

namespace {
// The scorer's view of a record: the raw answer when there is one, the statuses ok and turn_limit for
// answered and max_turns.
Prediction ScoredPrediction(const PredictionRecord& r) {
  Prediction p;
  p.task_id = r.task_id;
  // `lakeqa run` keeps the submitted text as raw_answer and its cleaned form as answer; the scorer cleans
  // itself, so it reads the raw text when there is one.
  p.answer = r.raw_answer ? Json(*r.raw_answer) : r.answer;
  // The scorer's names of `lakeqa run`'s outcomes: answered is ok, max_turns is turn_limit.
  p.status = r.status == "answered" ? "ok" : r.status == "max_turns" ? "turn_limit" : r.status;
  p.runtime_s = r.elapsed_s;
  p.cost_usd = r.cost_usd;
  p.input_tokens = r.usage.input_tokens;
  p.output_tokens = r.usage.output_tokens;
  p.cache_read_tokens = r.usage.cache_read_tokens;
  p.turns = r.turns;
  p.epoch = r.Epoch();
  return p;
}
}  // namespace

Result<Prediction> PredictionFromJson(const Json& j, std::string_view where) {
  LAKEQA_ASSIGN_OR_RETURN(PredictionRecord r, PredictionRecord::FromJson(j, where));
  return ScoredPrediction(r);
}

Result<TraceEvent> TraceEventFromJson(const Json& j, std::string_view where) {
  TraceEvent e;
  int64_t turn = 0;
  LAKEQA_RETURN_IF_ERROR(GetInt(j, "turn", where, turn));
  e.turn = static_cast<int>(turn);
  LAKEQA_RETURN_IF_ERROR(GetString(j, "tool", where, e.tool));
  // "tool": null is a turn on which the model called no tool (the llm agent nudges it); absent is an error.
  if (e.tool.empty() && !(j.contains("tool") && j["tool"].is_null()))
    return FieldError(where, "tool", "a tool name");
  if (auto a = j.find("arguments"); a != j.end()) e.arguments = *a;
  e.status = "ok";
  LAKEQA_RETURN_IF_ERROR(GetString(j, "status", where, e.status));
  LAKEQA_RETURN_IF_ERROR(GetNumber(j, "elapsed_ms", where, e.elapsed_ms));
  LAKEQA_RETURN_IF_ERROR(GetString(j, "summary", where, e.summary));
  LAKEQA_RETURN_IF_ERROR(GetIds(j, "returned", where, e.returned));
  LAKEQA_RETURN_IF_ERROR(GetIds(j, "accessed", where, e.accessed));
  // Agents write the result as the text the model saw; any other JSON value is shown as JSON.
  if (auto r = j.find("result"); r != j.end() && !r->is_null())
    e.result = r->is_string() ? r->get<std::string>() : DumpJson(*r);
  LAKEQA_RETURN_IF_ERROR(GetString(j, "content", where, e.content));
  LAKEQA_RETURN_IF_ERROR(GetNumber(j, "model_ms", where, e.model_ms));
  if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
    LAKEQA_RETURN_IF_ERROR(GetInt(*u, "input_tokens", where, e.input_tokens));
    LAKEQA_RETURN_IF_ERROR(GetInt(*u, "output_tokens", where, e.output_tokens));
  }
  return e;
}

bool IsFinalStatus(std::string_view s) {
  static const std::set<std::string, std::less<>> kFinal = {
      "ok", "answered", "timeout", "turn_limit", "max_turns", "token_limit", "cost_limit", "not_applicable"};
  return kFinal.count(s) > 0;
}

Json SupersededLine::ToJson() const {
  return {{"task_id", task_id}, {"line", line}, {"status", status}, {"by_line", by_line}};
}

std::vector<size_t> CurrentLines(const std::vector<PredictionLine>& lines,
                                 std::vector<SupersededLine>* superseded) {
  std::map<std::pair<std::string, int>, size_t> slot;  // (task id, epoch) → position in `current`
  std::vector<size_t> current;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto [it, added] = slot.emplace(std::make_pair(lines[i].task_id, lines[i].epoch), current.size());
    if (added) {
      current.push_back(i);
    } else if (IsFinalStatus(lines[i].status) || !IsFinalStatus(lines[current[it->second]].status)) {
      current[it->second] = i;
    }
  }
  if (superseded != nullptr) {
    std::map<std::pair<std::string, int>, size_t> by_task;
    for (size_t i : current) by_task[{lines[i].task_id, lines[i].epoch}] = i;
    for (size_t i = 0; i < lines.size(); ++i) {
      size_t wins = by_task[{lines[i].task_id, lines[i].epoch}];
      if (wins != i)
        superseded->push_back({lines[i].task_id, lines[i].line, lines[i].status, lines[wins].line});
    }
  }
  return current;
}

namespace {
// traces/<task>.jsonl files of one folder (epoch 1: traces/, epoch e: traces/epoch-<e>/).
void LoadTraces(const fs::path& traces, const std::vector<Prediction>& predictions,
                std::map<std::string, std::vector<TraceEvent>>& into, std::vector<std::string>& warnings);
}  // namespace

Result<RunData> LoadRun(const std::string& dir) {
  RunData run;
  run.dir = dir;
  const RunDir run_dir(dir);
  std::string pred_path = run_dir.Predictions();
  if (!PathExists(pred_path))
    return NotFound(pred_path + ": no " + RunDir::kPredictionsName + " in the run directory");
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(pred_path, kMaxPredictionsBytes));
  std::vector<Prediction> all;
  std::vector<PredictionLine> lines;
  ForEachJsonLine(text, pred_path, run.warnings, [&](const Json& j, const std::string& where, size_t line) {
    LAKEQA_ASSIGN_OR_RETURN(Prediction p, PredictionFromJson(j, where));
    p.line = line;
    auto st = j.find("status");
    lines.push_back(
        {p.task_id, st != j.end() && st->is_string() ? st->get<std::string>() : p.status, line, p.epoch});
    all.push_back(std::move(p));
    return Status::Ok();
  });
  for (size_t i : CurrentLines(lines, &run.superseded)) {
    if (all[i].epoch == 1) run.predictions.push_back(std::move(all[i]));
    else run.later_predictions[all[i].epoch].push_back(std::move(all[i]));
  }

  run.run_json = Json::object();
  std::string run_path = run_dir.RunJson();
  if (PathExists(run_path)) {
    auto t = ReadFile(run_path, 64ull << 20);
    auto j = t.ok() ? ParseJson(*t, run_path) : Result<Json>(t.status());
    if (j.ok() && j->is_object()) {
      run.run_json = std::move(*j);
    } else {
      run.warnings.push_back(j.ok() ? run_path + ": expected a JSON object" : j.status().message());
    }
  }

  LoadTraces(run_dir.TracesDir(), run.predictions, run.traces, run.warnings);
  for (const auto& [epoch, preds] : run.later_predictions)
    LoadTraces(run_dir.TracesDir(epoch), preds, run.later_traces[epoch], run.warnings);
  return run;
}

RunData EpochView(const RunData& run, int epoch) {
  RunData v;
  v.dir = run.dir;
  v.run_json = run.run_json;
  v.warnings = run.warnings;
  if (epoch == 1) {
    v.predictions = run.predictions;
    v.traces = run.traces;
    v.superseded = run.superseded;
    return v;
  }
  if (auto p = run.later_predictions.find(epoch); p != run.later_predictions.end()) v.predictions = p->second;
  if (auto t = run.later_traces.find(epoch); t != run.later_traces.end()) v.traces = t->second;
  return v;
}

namespace {

// Keyed by task id: a file is named by TraceFileName(id), which is not reversible ("a b" and "a_b" share
// a name), so the predictions' ids name the files; a file no prediction names keeps its stem.
void LoadTraces(const fs::path& traces, const std::vector<Prediction>& predictions,
                std::map<std::string, std::vector<TraceEvent>>& into, std::vector<std::string>& warnings) {
  std::map<std::string, std::string> id_of_file;
  for (const Prediction& p : predictions) id_of_file.emplace(TraceFileName(p.task_id), p.task_id);
  std::error_code ec;
  if (fs::is_directory(traces, ec)) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(traces, ec)) {
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      auto t = ReadFile(f.string(), kMaxTraceBytes);
      if (!t.ok()) {
        warnings.push_back(t.status().message());
        continue;
      }
      auto id = id_of_file.find(f.stem().string());
      std::vector<TraceEvent>& events = into[id == id_of_file.end() ? f.stem().string() : id->second];
      ForEachJsonLine(*t, f.string(), warnings, [&](const Json& j, const std::string& where, size_t) {
        LAKEQA_ASSIGN_OR_RETURN(TraceEvent e, TraceEventFromJson(j, where));
        events.push_back(std::move(e));
        return Status::Ok();
      });
    }
  }
}

}  // namespace

std::string DocumentsBucket(size_t documents) {
  if (documents <= 8) return "1-8";
  if (documents <= 13) return "9-13";
  if (documents <= 18) return "14-18";
  return ">18";
}

Distribution Summarize(std::vector<double> values) {
  Distribution d;
  d.n = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.sum = std::accumulate(values.begin(), values.end(), 0.0);
  d.mean = d.sum / static_cast<double>(values.size());
  d.median = Percentile(values, 0.5);
  d.p90 = Percentile(values, 0.9);
  d.min = values.front();
  d.max = values.back();
  return d;
}

Json Distribution::ToJson() const {
  if (n == 0) {
    return {{"n", 0},         {"mean", nullptr}, {"median", nullptr}, {"p90", nullptr},
            {"min", nullptr}, {"max", nullptr},  {"sum", nullptr}};
  }
  return {{"n", n},     {"mean", mean}, {"median", median}, {"p90", p90},
          {"min", min}, {"max", max},   {"sum", sum}};
}

Json Bucket::ToJson() const {
  return {{"tasks", tasks}, {"em_count", em}, {"em", em_rate()}, {"lenient_count", lenient}};
}

Json KindScore::ToJson() const {
  auto rate = [this](size_t c) { return tasks ? static_cast<double>(c) / static_cast<double>(tasks) : 0.0; };
  return {{"tasks", tasks},
          {"em", rate(em)},
          {"em_count", em},
          {"lenient", rate(lenient)},
          {"judge_accuracy",
           judged ? Json(static_cast<double>(judge_correct) / static_cast<double>(judged)) : Json()},
          {"judged", judged},
          {"dret_p", dret.precision},
          {"dret_r", dret.recall},
          {"dret_f1", dret.f1},
          {"dacc_p", dacc.precision},
          {"dacc_r", dacc.recall},
          {"dacc_f1", dacc.f1}};
}

Json TaskScore::ToJson() const {
  Json j = {
      {"task_id", task_id},
      {"question", question},
      {"gold", gold},
      {"answer", raw_answer},
      {"status", status},
      {"cleaned_answer", answer.cleaned},
      {"normalized_answer", answer.norm_pred},
      {"normalized_gold", answer.norm_gold},
      {"em", answer.em},
      {"scorable", answer.scorable},
      {"token_f1", answer.f1},
      {"numeric_match", answer.numeric},
      {"date_match", answer.date},
      {"lenient", answer.lenient()},
      {"hops", hops},
      {"documents", documents},
      {"documents_bucket", documents_bucket},
      {"namespace_mix", namespace_mix},
      {"answer_type", answer_type},
      {"gold_datasets", gold_datasets},
      {"retrieved", SetJson(sets.retrieved)},
      {"accessed", SetJson(sets.accessed)},
      {"analyzed", SetJson(sets.analyzed)},
      {"dret", PrfJson(dret)},
      {"dacc", PrfJson(dacc)},
      {"funnel", FunnelStageName(stage)},
      {"has_trace", has_trace},
      {"tool_calls", sets.calls},
      {"failed_tool_calls", sets.failed_calls},
      {"tool_call_counts", sets.tool_calls},
      {"runtime_s", runtime_s ? Json(*runtime_s) : Json()},
      {"cost_usd", cost_usd ? Json(*cost_usd) : Json()},
      {"tokens", {{"input", input_tokens}, {"output", output_tokens}, {"cache_read", cache_read_tokens}}},
      {"turns", turns}};
  if (judge) {
    j["judge"] = {{"correct", judge->correct},
                  {"rationale", judge->rationale},
                  {"cost_usd", judge->cost_usd ? Json(*judge->cost_usd) : Json()},
                  {"cached", judge->cached}};
  } else if (!judge_error.empty()) {
    j["judge"] = {{"error", judge_error}};
  }
  // Each format with question kinds gives every task its kind field (null for a task of another format).
  for (const TaskFormatSpec& format : TaskFormats()) {
    if (format.kind_key.empty()) continue;
    j[format.kind_key] = kind_key == format.kind_key && !kind.empty() ? Json(kind) : Json(nullptr);
  }
  return j;
}

RunScore ScoreRun(const RunData& run, const std::vector<Task>& tasks) {
  RunScore score;
  score.run_dir = run.dir;
  score.warnings = run.warnings;
  score.superseded = run.superseded;
  std::map<std::string, const Prediction*> preds;
  for (const Prediction& p : run.predictions) preds.emplace(p.task_id, &p);
  std::set<std::string> task_ids;
  for (const Task& t : tasks) {
    task_ids.insert(t.id);
    auto it = preds.find(t.id);
    if (it == preds.end()) {
      score.not_run.push_back(t.id);
      continue;
    }
    const Prediction& p = *it->second;
    TaskScore ts;
    ts.task_id = t.id;
    ts.question = t.question;
    ts.gold = t.answer;
    ts.raw_answer = p.answer;
    ts.status = p.status;
    // Only a submitted answer is scored: the harness records "" for timeouts, crashes and turn limits.
    ts.answer = ScoreAnswer(p.status == "ok" ? p.answer : Json(nullptr), t.answer);
    ts.hops = AnalyzeHops(t).k;
    ts.documents = t.datasets_used.size();
    ts.documents_bucket = DocumentsBucket(ts.documents);
    ts.gold_datasets = GoldDatasets(t);
    ts.namespace_mix = NamespaceMix(ts.gold_datasets);
    ts.answer_type = TaskAnswerType(t);
    if (auto tr = run.traces.find(t.id); tr != run.traces.end()) {
      ts.has_trace = true;
      ts.sets = CollectTraceSets(tr->second);
    }
    std::set<std::string> gold(ts.gold_datasets.begin(), ts.gold_datasets.end());
    TraceSets scored_sets = ts.sets;
    if (t.extension) {
      if (const TaskFormatSpec* format = FindTaskFormat(t.format);
          format != nullptr && !format->kind_key.empty()) {
        ts.kind_key = format->kind_key;
        ts.kind = t.extension->Kind();
      }
      if (const std::vector<std::string>* labels = t.extension->GoldLabels()) {
        // A gold given as labels (a source question's modalities): the datasets touched count by their label.
        gold = std::set<std::string>(labels->begin(), labels->end());
        ts.gold_datasets = *labels;
        scored_sets = LabelSets(ts.sets, *t.extension);
      }
    }
    ts.dret = SetPrf(scored_sets.retrieved, gold);
    ts.dacc = SetPrf(scored_sets.accessed, gold);
    ts.stage = Classify(ts.answer.em, gold, scored_sets, ts.answer.lenient());
    ts.runtime_s = p.runtime_s;
    ts.cost_usd = p.cost_usd;
    ts.input_tokens = p.input_tokens;
    ts.output_tokens = p.output_tokens;
    ts.cache_read_tokens = p.cache_read_tokens;
    ts.turns = p.turns;
    score.tasks.push_back(std::move(ts));
  }
  for (const Prediction& p : run.predictions) {
    if (!task_ids.count(p.task_id)) score.unknown_predictions.push_back(p.task_id);
  }
  Aggregate(score);
  return score;
}

void Aggregate(RunScore& s) {
  const double n = static_cast<double>(s.tasks.size());
  s.status_counts.clear();
  s.funnel.clear();
  s.by_hops.clear();
  s.by_documents.clear();
  s.by_namespace_mix.clear();
  s.by_answer_type.clear();
  s.by_kind.clear();
  s.tool_call_totals.clear();
  for (FunnelStage st : AllFunnelStages()) s.funnel[st] = 0;
  size_t em = 0, lenient = 0, numeric = 0, date = 0;
  double f1 = 0;
  Prf dret, dacc;
  s.discovery_tasks = 0;
  s.input_tokens = s.output_tokens = s.cache_read_tokens = 0;
  std::vector<double> runtime, cost, turns, calls;
  size_t judged = 0, judge_correct = 0, agree = 0;
  double judge_cost = 0;
  s.cost_unknown = 0;
  s.runtime_unknown = 0;
  s.judge_failed = 0;
  s.judge_failed_tasks.clear();
  s.judge_cost_unknown = 0;
  for (const TaskScore& t : s.tasks) {
    em += t.answer.em;
    lenient += t.answer.lenient();
    numeric += t.answer.numeric;
    date += t.answer.date;
    f1 += t.answer.f1;
    ++s.status_counts[t.status];
    ++s.funnel[t.stage];
    for (Bucket* b : {&s.by_hops[t.hops], &s.by_documents[t.documents_bucket],
                      &s.by_namespace_mix[t.namespace_mix], &s.by_answer_type[t.answer_type]}) {
      ++b->tasks;
      b->em += t.answer.em;
      b->lenient += t.answer.lenient();
    }
    if (!t.kind_key.empty() && !t.kind.empty()) {
      KindScore& k = s.by_kind[t.kind_key][t.kind];
      ++k.tasks;
      k.em += t.answer.em;
      k.lenient += t.answer.lenient();
      k.judged += t.judge.has_value();
      k.judge_correct += t.judge && t.judge->correct;
      AddPrf(k.dret, t.dret);
      AddPrf(k.dacc, t.dacc);
    }
    if (!t.gold_datasets.empty()) {
      ++s.discovery_tasks;
      AddPrf(dret, t.dret);
      AddPrf(dacc, t.dacc);
    }
    if (t.runtime_s) runtime.push_back(*t.runtime_s);
    else ++s.runtime_unknown;
    if (t.cost_usd) cost.push_back(*t.cost_usd);
    else ++s.cost_unknown;
    turns.push_back(t.turns);
    calls.push_back(static_cast<double>(t.sets.calls));
    for (const auto& [tool, c] : t.sets.tool_calls) s.tool_call_totals[tool] += c;
    s.input_tokens += t.input_tokens;
    s.output_tokens += t.output_tokens;
    s.cache_read_tokens += t.cache_read_tokens;
    if (t.judge) {
      ++judged;
      judge_correct += t.judge->correct;
      agree += t.judge->correct == t.answer.em;
      if (t.judge->cost_usd) judge_cost += *t.judge->cost_usd;
      else ++s.judge_cost_unknown;
    } else if (!t.judge_error.empty()) {
      ++s.judge_failed;
      s.judge_failed_tasks.push_back(t.task_id);
    }
  }
  auto rate = [n](size_t c) { return n > 0 ? static_cast<double>(c) / n : 0.0; };
  s.em = rate(em);
  s.lenient = rate(lenient);
  s.numeric_match = rate(numeric);
  s.date_match = rate(date);
  s.token_f1 = n > 0 ? f1 / n : 0;
  s.dret = MeanPrf(dret, s.discovery_tasks);
  s.dacc = MeanPrf(dacc, s.discovery_tasks);
  for (auto& [key, kinds] : s.by_kind) {
    for (auto& [kind, k] : kinds) {
      k.dret = MeanPrf(k.dret, k.tasks);
      k.dacc = MeanPrf(k.dacc, k.tasks);
    }
  }
  s.runtime = Summarize(runtime);
  s.cost = Summarize(cost);
  s.turns = Summarize(turns);
  s.tool_calls = Summarize(calls);
  s.runtime_s = s.runtime.n > 0 ? std::optional<double>(s.runtime.mean) : std::nullopt;
  s.cost_usd = s.cost.n > 0 ? std::optional<double>(s.cost.mean) : std::nullopt;
  // Judged once every task has a verdict or a counted failure; rates are over the verdicts.
  s.judged = judged + s.judge_failed > 0 && judged + s.judge_failed == s.tasks.size();
  s.judge_verdicts = judged;
  if (s.judged) {
    double jn = static_cast<double>(judged);
    s.judge_accuracy = judged ? static_cast<double>(judge_correct) / jn : 0;
    s.judge_agreement = judged ? static_cast<double>(agree) / jn : 0;
    s.judge_em_disagreements = judged - agree;
    s.judge_cost_usd = judge_cost;
  }
}

}  // namespace lakeqa::eval
