// The grid search behind `lakeqa eval tune` (discovery.h): coordinate ascent over a grid of ranking
// parameters, scored on a development collection.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "lakeqa/common/strings.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::eval {

double TuneObjective(const DiscoveryMetrics& m) { return m.p_at_1 + m.r_at_5 + m.mrr; }

std::vector<std::pair<std::string, std::vector<double>>> DefaultTuneGrid(const index::Schema& schema) {
  std::vector<std::pair<std::string, std::vector<double>>> grid = {
      {"k1", {0.3, 0.6, 0.9, 1.2, 1.5, 2.0, 3.0}},
      {"proximity", {0.0, 0.1, 0.2, 0.4, 0.8}},
      {"data_k1", {0.3, 0.6, 1.2, 2.0}},
      {"fuzzy", {0.0, 0.2, 0.4}},
      {"correction", {0.25, 0.5, 1.0}},
  };
  for (const auto& f : schema.fields()) {
    if (!f.text) continue;
    grid.push_back({f.name + ".weight", {0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}});
    grid.push_back({f.name + ".b", {0.0, 0.25, 0.5, 0.75, 1.0}});
    grid.push_back({f.name + ".data", {0, 1}});
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
    steps.push_back({{"parameter", s.parameter},
                     {"value", s.value},
                     {"objective", s.objective},
                     {"metrics", s.metrics.ToJson()}});
  return {
      {"objective", "p@1 + r@5 + mrr"},
      {"start",
       {{"ranking", start.ToJson()}, {"objective", start_objective}, {"metrics", start_metrics.ToJson()}}},
      {"best",
       {{"ranking", best.ToJson()}, {"objective", best_objective}, {"metrics", best_metrics.ToJson()}}},
      {"evaluations", evaluations},
      {"rounds", rounds},
      {"improvements", steps}};
}

namespace {

// Every grid value is a valid ranking parameter for the schema, checked before any evaluation.
Status CheckGrid(const index::RankingParams& start, const TuneOptions& options, const index::Schema& schema,
                 const std::string& where) {
  for (const auto& [name, values] : options.grid) {
    index::RankingParams probe = start;
    for (double v : values) LAKEQA_RETURN_IF_ERROR(probe.Set(name, v).WithContext("tune grid"));
    LAKEQA_RETURN_IF_ERROR(probe.Validate(schema).WithContext("tune grid " + name + where));
  }
  return Status::Ok();
}

struct Measure {
  double objective = 0;
  DiscoveryMetrics metrics;
};

// Coordinate ascent from t.start: each value of each grid parameter in turn, from the best ranking so far; a
// value is kept when the objective rises by more than 1e-9 (`kept` is told, after t is updated); it stops
// after a round without a kept value or after max_rounds. One loop for one collection and for a suite.
Status Ascend(TuneReport& t, const TuneOptions& options,
              const std::function<Result<Measure>(const index::RankingParams&)>& evaluate,
              const std::function<void()>& kept) {
  LAKEQA_ASSIGN_OR_RETURN(Measure first, evaluate(t.start));
  t.best = t.start;
  t.start_metrics = t.best_metrics = first.metrics;
  t.start_objective = t.best_objective = first.objective;
  for (size_t round = 0; round < options.max_rounds; ++round) {
    ++t.rounds;
    bool changed = false;
    for (const auto& [name, values] : options.grid) {
      for (double v : values) {
        index::RankingParams p = t.best;
        LAKEQA_RETURN_IF_ERROR(p.Set(name, v));
        if (p == t.best) continue;
        LAKEQA_ASSIGN_OR_RETURN(Measure m, evaluate(p));
        if (m.objective > t.best_objective + 1e-9) {
          t.best = p;
          t.best_metrics = m.metrics;
          t.best_objective = m.objective;
          t.improvements.push_back({name, v, m.objective, m.metrics});
          kept();
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return Status::Ok();
}

}  // namespace

Result<TuneReport> TuneRanking(DiscoveryRunner& runner, const std::vector<DiscoveryQuestion>& questions,
                               const index::RankingParams& start, const TuneOptions& options) {
  if (options.discovery.retriever.mode != index::RetrievalMode::kBm25)
    return InvalidArgument("tune: ranking parameters are tuned in mode bm25");
  LAKEQA_RETURN_IF_ERROR(CheckGrid(start, options, runner.schema(), ""));
  TuneReport report;
  report.start = start;
  auto evaluate = [&](const index::RankingParams& p) -> Result<Measure> {
    DiscoveryOptions d = options.discovery;
    d.ranking = p;
    d.explain = false;
    ++report.evaluations;
    LAKEQA_ASSIGN_OR_RETURN(DiscoveryReport r, runner.Run(questions, d));
    return Measure{TuneObjective(r.overall), r.overall};
  };
  LAKEQA_RETURN_IF_ERROR(Ascend(report, options, evaluate, [] {}));
  return report;
}

index::RankingParams PlainBm25Ranking(const index::Schema& schema) {
  index::RankingParams p = index::RankingParams::FromSchema(schema);
  p.k1 = 1.2;
  p.proximity = 0;
  p.fuzzy = 0;
  p.correction = 0;
  for (auto& [name, f] : p.fields) f = {1.0, 0.75, false};
  return p;
}

double SuiteObjective(const std::vector<DiscoveryMetrics>& got, const std::vector<DiscoveryMetrics>& floor) {
  if (got.empty()) return 0;
  double mean = 0, shortfall = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    mean += got[i].mrr;
    if (i < floor.size()) shortfall += std::max(0.0, floor[i].mrr - got[i].mrr);
  }
  return mean / static_cast<double>(got.size()) - 10 * shortfall;
}

Json SuiteTuneReport::ToJson() const {
  Json j = tune.ToJson();
  j["objective"] = "mean MRR over the collections - 10 * (sum of shortfalls below plain BM25's MRR)";
  Json cs = Json::array();
  for (size_t i = 0; i < names.size(); ++i)
    cs.push_back({{"name", names[i]},
                  {"plain_bm25", floor[i].ToJson()},
                  {"start", start[i].ToJson()},
                  {"best", best[i].ToJson()}});
  j["collections"] = cs;
  return j;
}

Result<SuiteTuneReport> TuneRankingAcross(const std::vector<TuneCollection>& collections,
                                          const index::RankingParams& start, const TuneOptions& options) {
  if (collections.empty()) return InvalidArgument("tune: no collections");
  if (options.discovery.retriever.mode != index::RetrievalMode::kBm25)
    return InvalidArgument("tune: ranking parameters are tuned in mode bm25");
  for (const TuneCollection& c : collections)
    LAKEQA_RETURN_IF_ERROR(CheckGrid(start, options, c.runner->schema(), " on " + c.name));
  SuiteTuneReport report;
  TuneReport& t = report.tune;
  auto each = [&](const index::RankingParams& p) -> Result<std::vector<DiscoveryMetrics>> {
    DiscoveryOptions d = options.discovery;
    d.ranking = p;
    d.explain = false;
    ++t.evaluations;
    std::vector<DiscoveryMetrics> out;
    for (const TuneCollection& c : collections) {
      auto r = c.runner->Run(c.questions, d);
      if (!r.ok()) return r.status().WithContext(c.name);
      out.push_back(r->overall);
    }
    return out;
  };
  for (const TuneCollection& c : collections) report.names.push_back(c.name);
  LAKEQA_ASSIGN_OR_RETURN(report.floor, each(PlainBm25Ranking(collections[0].runner->schema())));
  // The per-collection metrics of the last evaluation: the start's, then each kept step's.
  std::vector<DiscoveryMetrics> last;
  auto evaluate = [&](const index::RankingParams& p) -> Result<Measure> {
    LAKEQA_ASSIGN_OR_RETURN(last, each(p));
    if (report.start.empty()) report.start = report.best = last;  // Ascend evaluates the start first
    DiscoveryMetrics mean;
    for (const auto& x : last) mean += x;
    mean /= static_cast<double>(last.size());
    return Measure{SuiteObjective(last, report.floor), mean};
  };
  t.start = start;
  LAKEQA_RETURN_IF_ERROR(Ascend(t, options, evaluate, [&] { report.best = last; }));
  return report;
}

}  // namespace lakeqa::eval
