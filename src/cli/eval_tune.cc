// `lakeqa eval tune --index <dir> (--questions ... | --tasks ... | --topics ... --qrels ...) [--grid SPEC]
//  [--rounds N] [--out best.json] [ranking flags to start from] [--json]`: the grid search that chooses
// BM25F parameters on a development collection (coordinate ascent, eval/discovery.h). `--out` writes the
// report, whose best ranking `lakeqa index build --ranking` records in an index and `--ranking` applies to
// one search.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/discovery_flags.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  DiscoveryFlags discovery;
  std::string grid, out_file;
  size_t rounds = 4;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto setup = OpenDiscovery(o.discovery);
  if (!setup.ok()) return Fail(setup.status(), o.out);
  eval::DiscoveryRunner& runner = *setup->runner;
  eval::TuneOptions to;
  to.max_rounds = o.rounds;
  to.discovery.k = o.discovery.k;
  to.discovery.retriever = setup->retriever;
  if (o.grid.empty()) {
    to.grid = eval::DefaultTuneGrid(runner.schema());
  } else {
    auto g = eval::ParseTuneGrid(o.grid);
    if (!g.ok()) return Fail(g.status().WithContext("--grid"), o.out);
    to.grid = *g;
  }
  auto r = eval::TuneRanking(runner, setup->questions, setup->EffectiveRanking(), to);
  if (!r.ok()) return Fail(r.status(), o.out);
  Json j = r->ToJson();
  j["collection"] = o.discovery.collection.Describe();
  j["questions"] = setup->questions.size();
  if (!o.out_file.empty()) {
    if (Status s = WriteFileAtomic(o.out_file, DumpJson(j, 2) + "\n"); !s.ok()) return Fail(s, o.out);
  }
  if (o.out.json) {
    PrintJson(j);
    return 0;
  }
  auto line = [](const char* what, double obj, const eval::DiscoveryMetrics& m) {
    fmt::print("{:<6} objective {:.4f}  P@1 {:.3f}  R@5 {:.3f}  MRR {:.3f}\n", what, obj, m.p_at_1, m.r_at_5,
               m.mrr);
  };
  line("start", r->start_objective, r->start_metrics);
  for (const auto& s : r->improvements) fmt::print("  {} = {} → {:.4f}\n", s.parameter, s.value, s.objective);
  line("best", r->best_objective, r->best_metrics);
  fmt::print("{} evaluations of {} questions in {} rounds\n", r->evaluations, setup->questions.size(),
             r->rounds);
  fmt::print("best ranking: {}\n", DumpJson(r->best.ToJson()));
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "eval", "Evaluate runs and indexes")
          ->add_subcommand("tune", "Choose ranking parameters by grid search on a development collection");
  AddDiscoveryFlags(cmd, o->discovery);
  cmd->add_option(
      "--grid", o->grid,
      "Parameters and values: \"k1=0.6,1.2;title.weight=2,3,5\" (default: k1, proximity, and weight "
      "and b of every text field)");
  cmd->add_option("--rounds", o->rounds, "Most rounds of coordinate ascent")->capture_default_str();
  cmd->add_option("--out", o->out_file, "Write the report (its best ranking is what --ranking reads)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
