// The grid search behind `lakeqa eval tune` (discovery.h): coordinate ascent over a grid of ranking
// parameters, scored on a development collection.
#include <fmt/format.h>

#include "lakeqa/common/strings.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::eval {

double TuneObjective(const DiscoveryMetrics& m) { return m.p_at_1 + m.r_at_5 + m.mrr; }

std::vector<std::pair<std::string, std::vector<double>>> DefaultTuneGrid(const index::Schema& schema) {
  std::vector<std::pair<std::string, std::vector<double>>> grid = {
      {"k1", {0.3, 0.6, 0.9, 1.2, 1.5, 2.0, 3.0}},
      {"proximity", {0.0, 0.1, 0.2, 0.4, 0.8}},
  };
  for (const auto& f : schema.fields()) {
    if (!f.text) continue;
    grid.push_back({f.name + ".weight", {0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}});
    grid.push_back({f.name + ".b", {0.0, 0.25, 0.5, 0.75, 1.0}});
  }
  return grid;
}

Result<std::vector<std::pair<std::string, std::vector<double>>>> ParseTuneGrid(std::string_view spec) {
  std::vector<std::pair<std::string, std::vector<double>>> out;
  for (std::string_view part : Split(spec, ';')) {
    part = Trim(part);
    if (part.empty()) continue;
    size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return InvalidArgument("grid '" + std::string(part) + "': expected <parameter>=<v1>,<v2>,...");
    std::vector<double> values;
    for (std::string_view v : Split(part.substr(eq + 1), ',')) {
      std::string s(Trim(v));
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (s.empty() || end == s.c_str() || *end != '\0')
        return InvalidArgument("grid '" + std::string(part) + "': '" + s + "' is not a number");
      values.push_back(d);
    }
    if (values.empty()) return InvalidArgument("grid '" + std::string(part) + "': no values");
    out.emplace_back(std::string(Trim(part.substr(0, eq))), std::move(values));
  }
  if (out.empty()) return InvalidArgument("grid: no parameters");
  return out;
}

Json TuneReport::ToJson() const {
  Json steps = Json::array();
  for (const auto& s : improvements)
    steps.push_back({{"parameter", s.parameter}, {"value", s.value}, {"objective", s.objective}, {"metrics", s.metrics.ToJson()}});
  return {{"objective", "p@1 + r@5 + mrr"},
          {"start", {{"ranking", start.ToJson()}, {"objective", start_objective}, {"metrics", start_metrics.ToJson()}}},
          {"best", {{"ranking", best.ToJson()}, {"objective", best_objective}, {"metrics", best_metrics.ToJson()}}},
          {"evaluations", evaluations},
          {"rounds", rounds},
          {"improvements", steps}};
}

Result<TuneReport> TuneRanking(DiscoveryRunner& runner, const std::vector<DiscoveryQuestion>& questions,
                               const index::RankingParams& start, const TuneOptions& options) {
  if (options.discovery.retriever.mode != index::RetrievalMode::kBm25)
    return InvalidArgument("tune: ranking parameters are tuned in mode bm25");
  for (const auto& [name, values] : options.grid) {
    index::RankingParams probe = start;
    for (double v : values) LAKEQA_RETURN_IF_ERROR(probe.Set(name, v).WithContext("tune grid"));
    LAKEQA_RETURN_IF_ERROR(probe.Validate(runner.schema()).WithContext("tune grid " + name));
  }
  TuneReport report;
  auto evaluate = [&](const index::RankingParams& p) -> Result<DiscoveryMetrics> {
    DiscoveryOptions d = options.discovery;
    d.ranking = p;
    d.explain = false;
    ++report.evaluations;
    LAKEQA_ASSIGN_OR_RETURN(DiscoveryReport r, runner.Run(questions, d));
    return r.overall;
  };
  report.start = report.best = start;
  LAKEQA_ASSIGN_OR_RETURN(report.start_metrics, evaluate(start));
  report.best_metrics = report.start_metrics;
  report.start_objective = report.best_objective = TuneObjective(report.start_metrics);
  for (size_t round = 0; round < options.max_rounds; ++round) {
    ++report.rounds;
    bool changed = false;
    for (const auto& [name, values] : options.grid) {
      for (double v : values) {
        index::RankingParams p = report.best;
        LAKEQA_RETURN_IF_ERROR(p.Set(name, v));
        if (p == report.best) continue;
        LAKEQA_ASSIGN_OR_RETURN(DiscoveryMetrics m, evaluate(p));
        double obj = TuneObjective(m);
        if (obj > report.best_objective + 1e-9) {
          report.best = p;
          report.best_metrics = m;
          report.best_objective = obj;
          report.improvements.push_back({name, v, obj, m});
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return report;
}

}  // namespace lakeqa::eval
