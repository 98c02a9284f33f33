// A relevance suite measured and checked against its pins (discovery_pins.h).
#include "lakeqa/eval/discovery_pins.h"

#include <cmath>

#include <fmt/format.h>

#include "lakeqa/common/fs.h"

namespace lakeqa::eval {

Result<SuiteRunners> OpenSuiteRunners(const std::vector<SuiteCollection>& suite,
                                      const index::RetrieverOptions& retriever) {
  SuiteRunners runners;
  for (const auto& c : suite) {
    if (runners.count(c.index)) continue;
    auto r = DiscoveryRunner::Open(c.index, retriever);
    if (!r.ok()) return r.status().WithContext(c.name);
    runners[c.index] = std::move(*r);
  }
  return runners;
}

Result<std::vector<SuiteMeasured>> MeasureSuite(const std::vector<SuiteCollection>& suite,
                                                SuiteRunners& runners,
                                                const std::optional<index::RankingParams>& used, size_t k,
                                                const index::RetrieverOptions& retriever) {
  DiscoveryOptions d;
  d.k = k;
  d.retriever = retriever;
  std::vector<SuiteMeasured> measured;
  for (const auto& c : suite) {
    DiscoveryRunner& runner = *runners.at(c.index);
    SuiteMeasured m;
    d.ranking = PlainBm25Ranking(runner.schema());
    auto plain = runner.Run(c.questions, d);
    if (!plain.ok()) return plain.status().WithContext(c.name);
    m.plain = plain->overall;
    d.ranking = used;
    auto got = runner.Run(c.questions, d);
    if (!got.ok()) return got.status().WithContext(c.name);
    m.used = got->overall;
    m.twin_ok = got->overall_twin_ok;
    measured.push_back(m);
  }
  return measured;
}

Result<PinCheck> CheckSuitePins(const std::string& pins_path, double tolerance,
                                const std::vector<SuiteCollection>& suite,
                                const std::vector<SuiteMeasured>& measured) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(pins_path));
  LAKEQA_ASSIGN_OR_RETURN(Json e, ParseJson(text, pins_path));
  double tol = e.value("tolerance", tolerance);
  if (!e.contains("collections") || !e["collections"].is_object())
    return InvalidArgument(pins_path +
                           ": expected {\"tolerance\", \"collections\": {name: {metric: value}}}");
  PinCheck check;
  for (size_t i = 0; i < suite.size(); ++i) {
    const std::string& name = suite[i].name;
    auto it = e["collections"].find(name);
    if (it == e["collections"].end()) {
      check.stale.push_back(name + ": not pinned");
      continue;
    }
    for (const auto& [metric, value] : it->items()) {
      auto g = measured[i].used.Get(metric);
      if (!g || !value.is_number())
        return InvalidArgument(pins_path + ": " + name + "." + metric + ": not a metric with a number");
      double want = value.get<double>();
      if (*g < want - tol - 1e-12)
        check.regressions.push_back(
            fmt::format("{} {} {:.4f} < pinned {:.4f} - {:.3f}", name, metric, *g, want, tol));
      else if (*g > want + tol + 1e-12)
        check.stale.push_back(
            fmt::format("{} {} {:.4f} > pinned {:.4f} + {:.3f}", name, metric, *g, want, tol));
    }
  }
  return check;
}

Json SuitePinsJson(double tolerance, const std::vector<SuiteCollection>& suite,
                   const std::vector<SuiteMeasured>& measured) {
  Json e = {{"tolerance", tolerance}, {"collections", Json::object()}};
  for (size_t i = 0; i < suite.size(); ++i) {
    Json m = Json::object();
    for (const char* name : kPinnedMetrics) m[name] = std::round(*measured[i].used.Get(name) * 10000) / 10000;
    e["collections"][suite[i].name] = m;
  }
  return e;
}

Json SuiteCollectionsJson(const std::vector<SuiteCollection>& suite,
                          const std::vector<SuiteMeasured>& measured) {
  Json cs = Json::array();
  for (size_t i = 0; i < suite.size(); ++i) {
    const auto& c = suite[i];
    Json x = {{"name", c.name},
              {"split", c.split},
              {"index", c.index},
              {"questions", c.questions.size()},
              {"plain_bm25", measured[i].plain.ToJson()},
              {"metrics", measured[i].used.ToJson()},
              {"twin_ok", measured[i].twin_ok.ToJson()}};
    if (!c.skipped.empty()) x["skipped"] = c.skipped;
    cs.push_back(std::move(x));
  }
  return cs;
}

}  // namespace lakeqa::eval
