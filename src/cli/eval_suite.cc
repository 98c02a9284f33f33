// `lakeqa eval suite --suite suite.json [--set NAME=VALUE]... [ranking flags] [--expect pinned.json]
//  [--write-expected pinned.json] [--tune [--grid SPEC] [--rounds N] [--out best.json]] [--json]`:
// every collection of a suite (eval/discovery.h LoadDiscoverySuite: relevance collections over one or more
// indexes, split dev / test) measured with plain BM25 and with the ranking in use, strict and twin-ok;
// --tune chooses ranking parameters on the dev collections only (mean MRR, none below plain BM25) and
// reports the test collections under the result untouched. docs/search.md, "Tuning discipline".
#include <fmt/format.h>

#include <map>

#include "cli/command.h"
#include "cli/search_flags.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/eval/discovery_pins.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string suite, expect, write_expected, grid, out_file;
  std::vector<std::string> sets;
  RankingFlags ranking;
  size_t k = 10, rounds = 3;
  double tolerance = 0.02;
  bool tune = false;
  OutputOptions out;
};

// --set NAME=VALUE, repeated.
Result<std::map<std::string, std::string>> ParseSets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> vars;
  for (const std::string& kv : sets) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return InvalidArgument("--set '" + kv + "': expected NAME=VALUE");
    vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return vars;
}

// --tune: the ranking chosen on the dev collections only, reported into j["tune"] (and --out).
Result<index::RankingParams> Tune(const Opts& o, const std::vector<eval::SuiteCollection>& suite,
                                  eval::SuiteRunners& runners, const index::RetrieverOptions& retriever,
                                  const index::RankingParams& start, Json& j) {
  eval::DiscoveryRunner& base = *runners[suite.front().index];
  eval::TuneOptions to;
  to.max_rounds = o.rounds;
  to.discovery.k = o.k;
  to.discovery.retriever = retriever;
  if (o.grid.empty()) {
    to.grid = eval::DefaultTuneGrid(base.schema());
  } else {
    auto g = eval::ParseTuneGrid(o.grid);
    if (!g.ok()) return g.status().WithContext("--grid");
    to.grid = *g;
  }
  std::vector<eval::TuneCollection> dev;
  for (const auto& c : suite) {
    if (c.split == "dev") dev.push_back({c.name, runners[c.index].get(), c.questions});
  }
  if (dev.empty()) return InvalidArgument(o.suite + ": no collection has split \"dev\" to tune on");
  LAKEQA_ASSIGN_OR_RETURN(eval::SuiteTuneReport r, eval::TuneRankingAcross(dev, start, to));
  j["tune"] = r.ToJson();
  if (!o.out.json) {
    fmt::print("tuned on {} dev collection(s): objective {:.4f} -> {:.4f} ({} evaluations, {} rounds)\n",
               dev.size(), r.tune.start_objective, r.tune.best_objective, r.tune.evaluations, r.tune.rounds);
    for (const auto& s : r.tune.improvements)
      fmt::print("  {} = {} -> {:.4f}\n", s.parameter, s.value, s.objective);
    fmt::print("best ranking: {}\n", DumpJson(r.tune.best.ToJson()));
  }
  if (!o.out_file.empty())
    LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(o.out_file, DumpJson(r.ToJson(), 2) + "\n"));
  return r.tune.best;
}

void PrintTable(const std::vector<eval::SuiteCollection>& suite,
                const std::vector<eval::SuiteMeasured>& measured, const eval::PinCheck& pins) {
  fmt::print("{:<24} {:>5} {:>4}  {:<27}  {:<27}  {}\n", "collection", "split", "qs",
             "plain BM25 P@1 R@5 MRR nDCG", "lakeqa P@1 R@5 MRR nDCG", "twin-ok P@1 MRR");
  auto four = [](const eval::DiscoveryMetrics& m) {
    return fmt::format("{:.3f} {:.3f} {:.3f} {:.3f}", m.p_at_1, m.r_at_5, m.mrr, m.ndcg_at_10);
  };
  for (size_t i = 0; i < suite.size(); ++i) {
    const auto& c = suite[i];
    fmt::print("{:<24} {:>5} {:>4}  {:<27}  {:<27}  {:.3f} {:.3f}\n", c.name, c.split, c.questions.size(),
               four(measured[i].plain), four(measured[i].used), measured[i].twin_ok.p_at_1,
               measured[i].twin_ok.mrr);
    for (const auto& s : c.skipped) fmt::print("  skipped: {}\n", s);
  }
  for (const auto& r : pins.regressions) fmt::print("REGRESSION: {}\n", r);
  for (const auto& s : pins.stale) fmt::print("STALE PIN: {} (re-pin: --write-expected)\n", s);
}

int Run(const Opts& o) {
  auto vars = ParseSets(o.sets);
  if (!vars.ok()) return Fail(vars.status(), o.out);
  auto suite = eval::LoadDiscoverySuite(o.suite, *vars);
  if (!suite.ok()) return Fail(suite.status(), o.out);
  index::RetrieverOptions retriever;
  auto runners = eval::OpenSuiteRunners(*suite, retriever);
  if (!runners.ok()) return Fail(runners.status(), o.out);
  eval::DiscoveryRunner& base = *(*runners)[suite->front().index];
  auto flags = ApplyRankingFlags(o.ranking, base.schema(), base.index_ranking());
  if (!flags.ok()) return Fail(flags.status(), o.out);
  // The ranking measured: the tuned one, else the flags', else each index's own.
  std::optional<index::RankingParams> used = *flags;
  Json j = {{"suite", o.suite}, {"k", o.k}};
  if (o.tune) {
    auto tuned = Tune(o, *suite, *runners, retriever, used ? *used : base.index_ranking(), j);
    if (!tuned.ok()) return Fail(tuned.status(), o.out);
    used = *tuned;
  }
  auto measured = eval::MeasureSuite(*suite, *runners, used, o.k, retriever);
  if (!measured.ok()) return Fail(measured.status(), o.out);
  eval::PinCheck pins;
  if (!o.expect.empty()) {
    auto checked = eval::CheckSuitePins(o.expect, o.tolerance, *suite, *measured);
    if (!checked.ok()) return Fail(checked.status(), o.out);
    pins = std::move(*checked);
  }
  if (!o.write_expected.empty()) {
    Json e = eval::SuitePinsJson(o.tolerance, *suite, *measured);
    if (Status s = WriteFileAtomic(o.write_expected, DumpJson(e, 1) + "\n"); !s.ok()) return Fail(s, o.out);
  }
  j["collections"] = eval::SuiteCollectionsJson(*suite, *measured);
  j["ranking"] = used ? used->ToJson() : Json("each index's own");
  if (!o.expect.empty()) {
    j["regressions"] = pins.regressions;
    j["stale_pins"] = pins.stale;
  }
  if (o.out.json) PrintJson(j);
  else PrintTable(*suite, *measured, pins);
  if (pins.ok()) return 0;
  if (!o.out.json)
    fmt::print(stderr, "lakeqa: {} regression(s), {} stale pin(s) against {}\n", pins.regressions.size(),
               pins.stale.size(), o.expect);
  return ExitCodeFor(ErrorCode::kParseError);  // a failed check, like `eval discovery --expect`
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "eval", "Evaluate runs and indexes")
          ->add_subcommand("suite",
                           "Every collection of a relevance suite against plain BM25; tune on its "
                           "dev collections");
  cmd->add_option("--suite", o->suite,
                  "Suite JSON ({\"collections\": [{name, split, index, questions|tasks|topics}]})")
      ->required();
  cmd->add_option("--set", o->sets, "NAME=VALUE for ${NAME} in the suite (repeatable; else the environment)");
  AddRankingFlags(cmd, o->ranking);
  cmd->add_option("--k", o->k, "Evaluation depth")->capture_default_str();
  cmd->add_option(
      "--expect", o->expect,
      "Pinned metrics ({\"tolerance\", \"collections\": {name: {metric: value}}}): exit non-zero when one "
      "falls below or rises above its pin by more than the tolerance");
  cmd->add_option("--write-expected", o->write_expected, "Write the metrics measured now as the pins");
  cmd->add_option("--tolerance", o->tolerance, "With --write-expected: the pins' tolerance")
      ->capture_default_str();
  cmd->add_flag("--tune", o->tune,
                "Choose ranking parameters on the dev collections (mean MRR, none below plain BM25)");
  cmd->add_option("--grid", o->grid, "With --tune: parameters and values (default: eval tune's grid)");
  cmd->add_option("--rounds", o->rounds, "With --tune: most rounds of coordinate ascent")
      ->capture_default_str();
  cmd->add_option("--out", o->out_file,
                  "With --tune: write the report (--ranking and index build --ranking read it)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
