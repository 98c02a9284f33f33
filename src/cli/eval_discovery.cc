// `lakeqa eval discovery --index <dir> (--questions <cmdbench.json> | --tasks <path>... | --topics <file>
//  --qrels <file>) [--mode bm25|vector|hybrid] [--k 10] [--run-out run.txt] [--explain] [--expect f.json]
//  [ranking flags] [--json]`: dataset-discovery metrics (P@1, R@1/3/5/10, R-precision, MRR, nDCG@10, R@1
// under random tie-breaking) of the index on a relevance collection; `lakeqa eval tune` chooses ranking
// parameters on one.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/discovery_flags.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  DiscoveryFlags discovery;
  std::string run_out, run_tag = "lakeqa", expect;
  bool explain = false;
  OutputOptions out;
};

std::string Row(const std::string& name, const eval::DiscoveryMetrics& m) {
  return fmt::format(
      "{:<16} {:>5.3f} {:>5.3f} {:>5.3f} {:>5.3f} {:>5.3f} {:>6.3f} {:>5.3f} {:>7.3f} {:>9.3f}", name,
      m.p_at_1, m.r_at_1, m.r_at_3, m.r_at_5, m.r_at_10, m.r_precision, m.mrr, m.ndcg_at_10, m.r_at_1_random);
}

void PrintExplanations(const Json& e) {
  for (const auto& h : e["hits"]) {
    fmt::print("      hit {} ({:.3f})\n", h["id"].get<std::string>(), h["score"].get<double>());
    for (const auto& t : h["explanation"]["terms"]) {
      std::string fields;
      for (const auto& f : t["fields"])
        fields += fmt::format(" {} {:.2f}", f["field"].get<std::string>(), f["contribution"].get<double>());
      fmt::print("        {:>7.3f} {}:{}\n", t["score"].get<double>(), t["word"].get<std::string>(), fields);
    }
  }
  for (const auto& g : e["gold"]) {
    fmt::print(
        "      gold {} (rank {}, bm25 {:.3f}); not matched:", g["id"].get<std::string>(),
        g["rank"].is_null() ? std::string("beyond the depth") : std::to_string(g["rank"].get<size_t>()),
        g["bm25_score"].get<double>());
    for (const auto& w : g["explanation"]["unmatched"]) fmt::print(" {}", w.get<std::string>());
    fmt::print("\n");
  }
}

int Run(const Opts& o) {
  Json expected;
  if (!o.expect.empty()) {
    auto text = ReadFile(o.expect);
    if (!text.ok()) return Fail(text.status(), o.out);
    auto j = ParseJson(*text, o.expect);
    if (!j.ok()) return Fail(j.status(), o.out);
    expected = *j;
  }
  auto setup = OpenDiscovery(o.discovery);
  if (!setup.ok()) return Fail(setup.status(), o.out);
  const std::vector<std::string>& skipped = setup->skipped;
  eval::DiscoveryOptions d;
  d.k = o.discovery.k;
  d.retriever = setup->retriever;
  d.explain = o.explain;
  d.ranking = setup->ranking;
  auto r = setup->runner->Run(setup->questions, d);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (!o.run_out.empty()) {
    if (Status s = WriteFileAtomic(o.run_out, r->TrecRun(o.run_tag)); !s.ok()) return Fail(s, o.out);
  }
  std::vector<std::string> regressions;
  if (!expected.is_null()) {
    auto c = eval::CheckExpectedMetrics(expected, r->mode, r->overall);
    if (!c.ok()) return Fail(c.status().WithContext(o.expect), o.out);
    regressions = *c;
  }
  if (o.out.json) {
    Json j = r->ToJson();
    j["index"] = o.discovery.index;
    j["collection"] = o.discovery.collection.Describe();
    j["ranking"] = setup->EffectiveRanking().ToJson();
    if (!skipped.empty()) j["skipped"] = skipped;
    if (!o.expect.empty()) j["regressions"] = regressions;
    PrintJson(j);
  } else {
    fmt::print("{:<16} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>5} {:>7} {:>9}\n", "qid", "P@1", "R@1", "R@3",
               "R@5", "R@10", "R-prec", "MRR", "nDCG@10", "R@1 rand");
    for (const auto& q : r->questions) {
      fmt::print("{}  top: {}{}{}\n", Row(q.question.qid, q.metrics), q.top.empty() ? "-" : q.top[0].id,
                 q.top_ties > 1 ? fmt::format(" ({} tied)", q.top_ties) : "",
                 q.missing_gold.empty() ? "" : " [gold not in index: " + q.missing_gold[0] + "]");
      if (o.explain && q.metrics.p_at_1 < 1 && !q.explanations.is_null()) PrintExplanations(q.explanations);
    }
    fmt::print("{}\n", Row(fmt::format("all ({})", r->questions.size()), r->overall));
    // A near-duplicate of the gold (a copy of the same table) counted as a hit, once.
    if (r->near_duplicate_groups > 0) fmt::print("{}\n", Row("twin-ok", r->overall_twin_ok));
    fmt::print(
        "mode {}, k = {}; ties: equal scores are ordered by dataset id; \"R@1 rand\" is R@1 expected under "
        "random tie-breaking\n",
        r->mode, r->k);
    if (!r->questions_with_missing_gold.empty())
      fmt::print("{} questions have a gold dataset the index does not hold (counted as misses)\n",
                 r->questions_with_missing_gold.size());
    for (const auto& s : skipped) fmt::print("skipped: {}\n", s);
    for (const auto& g : regressions) fmt::print("REGRESSION: {}\n", g);
  }
  if (!regressions.empty()) {
    if (!o.out.json)
      fmt::print(stderr, "lakeqa: {} metric(s) below {} (tolerance {})\n", regressions.size(), o.expect,
                 expected.value("tolerance", 0.0));
    return ExitCodeFor(ErrorCode::kParseError);  // a failed check, like `tasks verify`
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "eval", "Evaluate runs and indexes")
          ->add_subcommand("discovery", "Dataset-discovery metrics of the index on a relevance collection");
  AddDiscoveryFlags(cmd, o->discovery);
  cmd->add_option("--run-out", o->run_out,
                  "Write the ranking as a TREC run file (qid Q0 docid rank score tag)");
  cmd->add_option("--run-tag", o->run_tag, "Tag of the run file's lines")->capture_default_str();
  cmd->add_flag("--explain", o->explain,
                "Per question, what every term and field added for the top hits and for the gold datasets");
  cmd->add_option(
      "--expect", o->expect,
      "Expected metrics ({\"tolerance\", \"metrics\" | \"modes\"}): exit non-zero if one is lower by "
      "more than the tolerance");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
