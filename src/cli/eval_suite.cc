// `lakeqa eval suite --suite suite.json [--set NAME=VALUE]... [ranking flags] [--expect pinned.json]
//  [--write-expected pinned.json] [--tune [--grid SPEC] [--rounds N] [--out best.json]] [--json]`:
// every collection of a suite (eval/discovery.h LoadDiscoverySuite: relevance collections over one or more
// indexes, split dev / test) measured with plain BM25 and with the ranking in use, strict and twin-ok;
// --tune chooses ranking parameters on the dev collections only (mean MRR, none below plain BM25) and
// reports the test collections under the result untouched. docs/search.md, "Tuning discipline".
#include <fmt/format.h>

#include <cmath>
#include <map>

#include "cli/command.h"
#include "cli/search_flags.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::cli {
namespace {

constexpr const char* kPinned[] = {"p@1", "r@5", "mrr", "ndcg@10"};

struct Opts {
  std::string suite, expect, write_expected, grid, out_file;
  std::vector<std::string> sets;
  RankingFlags ranking;
  size_t k = 10, rounds = 3;
  double tolerance = 0.02;
  bool tune = false;
  OutputOptions out;
};

struct Measured {
  eval::DiscoveryMetrics plain, used, twin_ok;
};

int Run(const Opts& o) {
  std::map<std::string, std::string> vars;
  for (const std::string& kv : o.sets) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return Fail(InvalidArgument("--set '" + kv + "': expected NAME=VALUE"), o.out);
    vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  auto suite = eval::LoadDiscoverySuite(o.suite, vars);
  if (!suite.ok()) return Fail(suite.status(), o.out);
  // One runner per index, shared by its collections.
  std::map<std::string, std::unique_ptr<eval::DiscoveryRunner>> runners;
  index::RetrieverOptions retriever;
  for (const auto& c : *suite) {
    if (runners.count(c.index)) continue;
    auto r = eval::DiscoveryRunner::Open(c.index, retriever);
    if (!r.ok()) return Fail(r.status().WithContext(c.name), o.out);
    runners[c.index] = std::move(*r);
  }
  const eval::SuiteCollection& first = suite->front();
  eval::DiscoveryRunner& base = *runners[first.index];
  auto flags = ApplyRankingFlags(o.ranking, base.schema(), base.index_ranking());
  if (!flags.ok()) return Fail(flags.status(), o.out);
  // The ranking measured: the flags', else each index's own.
  std::optional<index::RankingParams> used = *flags;
  Json j = {{"suite", o.suite}, {"k", o.k}};
  if (o.tune) {
    eval::TuneOptions to;
    to.max_rounds = o.rounds;
    to.discovery.k = o.k;
    to.discovery.retriever = retriever;
    if (o.grid.empty()) {
      to.grid = eval::DefaultTuneGrid(base.schema());
    } else {
      auto g = eval::ParseTuneGrid(o.grid);
      if (!g.ok()) return Fail(g.status().WithContext("--grid"), o.out);
      to.grid = *g;
    }
    std::vector<eval::TuneCollection> dev;
    for (const auto& c : *suite) {
      if (c.split == "dev") dev.push_back({c.name, runners[c.index].get(), c.questions});
    }
    if (dev.empty()) return Fail(InvalidArgument(o.suite + ": no collection has split \"dev\" to tune on"), o.out);
    auto r = eval::TuneRankingAcross(dev, used ? *used : base.index_ranking(), to);
    if (!r.ok()) return Fail(r.status(), o.out);
    used = r->tune.best;
    j["tune"] = r->ToJson();
    if (!o.out.json) {
      fmt::print("tuned on {} dev collection(s): objective {:.4f} -> {:.4f} ({} evaluations, {} rounds)\n", dev.size(),
                 r->tune.start_objective, r->tune.best_objective, r->tune.evaluations, r->tune.rounds);
      for (const auto& s : r->tune.improvements) fmt::print("  {} = {} -> {:.4f}\n", s.parameter, s.value, s.objective);
      fmt::print("best ranking: {}\n", DumpJson(r->tune.best.ToJson()));
    }
    if (!o.out_file.empty()) {
      if (Status s = WriteFileAtomic(o.out_file, DumpJson(r->ToJson(), 2) + "\n"); !s.ok()) return Fail(s, o.out);
    }
  }
  eval::DiscoveryOptions d;
  d.k = o.k;
  d.retriever = retriever;
  std::vector<Measured> measured;
  for (const auto& c : *suite) {
    eval::DiscoveryRunner& runner = *runners[c.index];
    Measured m;
    d.ranking = eval::PlainBm25Ranking(runner.schema());
    auto plain = runner.Run(c.questions, d);
    if (!plain.ok()) return Fail(plain.status().WithContext(c.name), o.out);
    m.plain = plain->overall;
    d.ranking = used;
    auto got = runner.Run(c.questions, d);
    if (!got.ok()) return Fail(got.status().WithContext(c.name), o.out);
    m.used = got->overall;
    m.twin_ok = got->overall_twin_ok;
    measured.push_back(m);
  }
  // Pins: a metric below its pin by more than the tolerance is a regression; above it by more than the
  // tolerance, the pin is stale (an improvement re-pins, so the next drop is caught from there).
  std::vector<std::string> regressions, stale;
  if (!o.expect.empty()) {
    auto text = ReadFile(o.expect);
    if (!text.ok()) return Fail(text.status(), o.out);
    auto e = ParseJson(*text, o.expect);
    if (!e.ok()) return Fail(e.status(), o.out);
    double tol = e->value("tolerance", o.tolerance);
    if (!e->contains("collections") || !(*e)["collections"].is_object())
      return Fail(InvalidArgument(o.expect + ": expected {\"tolerance\", \"collections\": {name: {metric: value}}}"), o.out);
    for (size_t i = 0; i < suite->size(); ++i) {
      const std::string& name = (*suite)[i].name;
      auto it = (*e)["collections"].find(name);
      if (it == (*e)["collections"].end()) {
        stale.push_back(name + ": not pinned");
        continue;
      }
      for (const auto& [metric, value] : it->items()) {
        auto g = measured[i].used.Get(metric);
        if (!g || !value.is_number())
          return Fail(InvalidArgument(o.expect + ": " + name + "." + metric + ": not a metric with a number"), o.out);
        double want = value.get<double>();
        if (*g < want - tol - 1e-12)
          regressions.push_back(fmt::format("{} {} {:.4f} < pinned {:.4f} - {:.3f}", name, metric, *g, want, tol));
        else if (*g > want + tol + 1e-12)
          stale.push_back(fmt::format("{} {} {:.4f} > pinned {:.4f} + {:.3f}", name, metric, *g, want, tol));
      }
    }
  }
  if (!o.write_expected.empty()) {
    Json e = {{"tolerance", o.tolerance}, {"collections", Json::object()}};
    for (size_t i = 0; i < suite->size(); ++i) {
      Json m = Json::object();
      for (const char* name : kPinned) m[name] = std::round(*measured[i].used.Get(name) * 10000) / 10000;
      e["collections"][(*suite)[i].name] = m;
    }
    if (Status s = WriteFileAtomic(o.write_expected, DumpJson(e, 1) + "\n"); !s.ok()) return Fail(s, o.out);
  }
  Json cs = Json::array();
  for (size_t i = 0; i < suite->size(); ++i) {
    const auto& c = (*suite)[i];
    Json x = {{"name", c.name},        {"split", c.split},
              {"index", c.index},      {"questions", c.questions.size()},
              {"plain_bm25", measured[i].plain.ToJson()}, {"metrics", measured[i].used.ToJson()},
              {"twin_ok", measured[i].twin_ok.ToJson()}};
    if (!c.skipped.empty()) x["skipped"] = c.skipped;
    cs.push_back(std::move(x));
  }
  j["collections"] = cs;
  j["ranking"] = used ? used->ToJson() : Json("each index's own");
  if (!o.expect.empty()) {
    j["regressions"] = regressions;
    j["stale_pins"] = stale;
  }
  if (o.out.json) {
    PrintJson(j);
  } else {
    fmt::print("{:<24} {:>5} {:>4}  {:<27}  {:<27}  {}\n", "collection", "split", "qs", "plain BM25 P@1 R@5 MRR nDCG",
               "lakeqa P@1 R@5 MRR nDCG", "twin-ok P@1 MRR");
    auto four = [](const eval::DiscoveryMetrics& m) {
      return fmt::format("{:.3f} {:.3f} {:.3f} {:.3f}", m.p_at_1, m.r_at_5, m.mrr, m.ndcg_at_10);
    };
    for (size_t i = 0; i < suite->size(); ++i) {
      const auto& c = (*suite)[i];
      fmt::print("{:<24} {:>5} {:>4}  {:<27}  {:<27}  {:.3f} {:.3f}\n", c.name, c.split, c.questions.size(),
                 four(measured[i].plain), four(measured[i].used), measured[i].twin_ok.p_at_1, measured[i].twin_ok.mrr);
      for (const auto& s : c.skipped) fmt::print("  skipped: {}\n", s);
    }
    for (const auto& r : regressions) fmt::print("REGRESSION: {}\n", r);
    for (const auto& s : stale) fmt::print("STALE PIN: {} (re-pin: --write-expected)\n", s);
  }
  if (!regressions.empty() || !stale.empty()) {
    if (!o.out.json)
      fmt::print(stderr, "lakeqa: {} regression(s), {} stale pin(s) against {}\n", regressions.size(), stale.size(),
                 o.expect);
    return ExitCodeFor(ErrorCode::kParseError);  // a failed check, like `eval discovery --expect`
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "eval", "Evaluate runs and indexes")
                      ->add_subcommand("suite", "Every collection of a relevance suite against plain BM25; tune on its "
                                                "dev collections");
  cmd->add_option("--suite", o->suite, "Suite JSON ({\"collections\": [{name, split, index, questions|tasks|topics}]})")
      ->required();
  cmd->add_option("--set", o->sets, "NAME=VALUE for ${NAME} in the suite (repeatable; else the environment)");
  AddRankingFlags(cmd, o->ranking);
  cmd->add_option("--k", o->k, "Evaluation depth")->capture_default_str();
  cmd->add_option("--expect", o->expect,
                  "Pinned metrics ({\"tolerance\", \"collections\": {name: {metric: value}}}): exit non-zero when one "
                  "falls below or rises above its pin by more than the tolerance");
  cmd->add_option("--write-expected", o->write_expected, "Write the metrics measured now as the pins");
  cmd->add_option("--tolerance", o->tolerance, "With --write-expected: the pins' tolerance")->capture_default_str();
  cmd->add_flag("--tune", o->tune, "Choose ranking parameters on the dev collections (mean MRR, none below plain BM25)");
  cmd->add_option("--grid", o->grid, "With --tune: parameters and values (default: eval tune's grid)");
  cmd->add_option("--rounds", o->rounds, "With --tune: most rounds of coordinate ascent")->capture_default_str();
  cmd->add_option("--out", o->out_file, "With --tune: write the report (--ranking and index build --ranking read it)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
