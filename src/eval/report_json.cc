// report.json: the LakeQA leaderboard fields first (flat, as the site lists them), then every breakdown
// and the per-task rows. Rates are fractions in [0, 1]; docs/scoring.md describes each field.
#include <cmath>

#include "lakeqa/eval/score.h"

namespace lakeqa::eval {
namespace {

template <typename K>
Json Buckets(const std::map<K, Bucket>& m) {
  Json j = Json::object();
  for (const auto& [k, b] : m) {
    if constexpr (std::is_same_v<K, int>) {
      j[std::to_string(k)] = b.ToJson();
    } else {
      j[k] = b.ToJson();
    }
  }
  return j;
}

}  // namespace

Json RunScore::ToJson() const {
  Json j = Json::object();
  j["format"] = "lakeqa-report/1";
  j["run_dir"] = run_dir;
  j["tasks"] = tasks.size();
  j["em"] = em;
  j["runtime_s"] = runtime_s ? Json(*runtime_s) : Json();
  j["cost_usd"] = cost_usd ? Json(*cost_usd) : Json();
  for (const auto& [name, section] : sections) j[name] = section;
  j["dacc_p"] = dacc.precision;
  j["dacc_r"] = dacc.recall;
  j["dacc_f1"] = dacc.f1;
  j["dret_p"] = dret.precision;
  j["dret_r"] = dret.recall;
  j["dret_f1"] = dret.f1;
  j["em_count"] = static_cast<size_t>(std::lround(em * static_cast<double>(tasks.size())));
  j["lenient"] = lenient;
  j["numeric_match"] = numeric_match;
  j["date_match"] = date_match;
  j["token_f1"] = token_f1;
  j["discovery_tasks"] = discovery_tasks;
  j["status"] = status_counts;
  Json funnel_j = Json::object();
  for (FunnelStage st : AllFunnelStages()) funnel_j[std::string(FunnelStageName(st))] = funnel.at(st);
  j["funnel"] = funnel_j;
  j["by_hops"] = Buckets(by_hops);
  j["by_documents"] = Buckets(by_documents);
  j["by_namespace_mix"] = Buckets(by_namespace_mix);
  j["by_answer_type"] = Buckets(by_answer_type);
  for (const auto& [key, kinds] : by_kind) {
    Json& slices = j["by_" + key];
    slices = Json::object();
    for (const auto& [kind, k] : kinds) slices[kind] = k.ToJson();
  }
  j["runtime"] = runtime.ToJson();
  j["runtime"]["unknown"] = runtime_unknown;  // tasks without a runtime, left out of every runtime statistic
  j["cost"] = cost.ToJson();
  j["cost"]["unknown"] = cost_unknown;  // tasks of unknown cost, left out of every cost statistic
  j["turns"] = turns.ToJson();
  j["tool_calls"] = tool_calls.ToJson();
  j["tool_call_totals"] = tool_call_totals;
  j["tokens"] = {{"input", input_tokens}, {"output", output_tokens}, {"cache_read", cache_read_tokens}};
  if (judged) {
    j["judge"] = {
        {"model", judge_model},
        {"judged", judge_verdicts},
        {"failed", judge_failed},
        {"failed_tasks", judge_failed_tasks},
        {"accuracy", judge_verdicts ? Json(judge_accuracy) : Json()},
        {"agreement_with_em", judge_verdicts ? Json(judge_agreement) : Json()},
        {"disagreements", judge_em_disagreements},
        {"cost_usd",
         judge_cost_unknown && judge_cost_unknown == judge_verdicts ? Json() : Json(judge_cost_usd)},
        {"cost_unknown", judge_cost_unknown}};
  }
  if (epochs) j["epochs"] = epochs->ToJson();
  j["not_run"] = not_run;
  j["unknown_predictions"] = unknown_predictions;
  j["superseded"] = Json::array();
  for (const SupersededLine& l : superseded) j["superseded"].push_back(l.ToJson());
  j["warnings"] = warnings;
  Json rows = Json::array();
  for (const TaskScore& t : tasks) rows.push_back(t.ToJson());
  j["per_task"] = std::move(rows);
  return j;
}

}  // namespace lakeqa::eval
