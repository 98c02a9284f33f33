// `lakeqa eval discovery --index <dir> --questions <file> [--k 10] [--json]`: dataset-discovery metrics
// (P@1, R@1/3/5/10, R-precision, MRR, R@1 under random tie-breaking) of the text index on CMDBench-format
// table-discovery questions.
#include <fmt/format.h>

#include "cli/command.h"
#include "lakeqa/eval/discovery.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index, questions, ns = "cmdbench";
  size_t k = 10;
  bool keep_stop_words = false;
  OutputOptions out;
};

std::string Row(const std::string& name, const eval::DiscoveryMetrics& m) {
  return fmt::format("{:<10} {:>5.3f} {:>5.3f} {:>5.3f} {:>5.3f} {:>5.3f} {:>6.3f} {:>5.3f} {:>9.3f}", name, m.p_at_1,
                     m.r_at_1, m.r_at_3, m.r_at_5, m.r_at_10, m.r_precision, m.mrr, m.r_at_1_random);
}

int Run(const Opts& o) {
  auto qs = eval::LoadCmdbenchQuestions(o.questions, o.ns);
  if (!qs.ok()) return Fail(qs.status(), o.out);
  eval::DiscoveryOptions d;
  d.k = o.k;
  d.drop_stop_words = !o.keep_stop_words;
  auto r = eval::RunDiscovery(o.index, *qs, d);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (o.out.json) {
    Json j = r->ToJson();
    j["index"] = o.index;
    j["questions_file"] = o.questions;
    PrintJson(j);
    return 0;
  }
  fmt::print("{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>5} {:>9}\n", "qid", "P@1", "R@1", "R@3", "R@5", "R@10",
             "R-prec", "MRR", "R@1 rand");
  for (const auto& q : r->questions) {
    fmt::print("{}  top: {}{}{}\n", Row(q.question.qid, q.metrics), q.top.empty() ? "-" : q.top[0].id,
               q.top_ties > 1 ? fmt::format(" ({} tied)", q.top_ties) : "",
               q.missing_gold.empty() ? "" : " [gold not in index: " + q.missing_gold[0] + "]");
  }
  fmt::print("{}\n", Row(fmt::format("all ({})", r->questions.size()), r->overall));
  fmt::print("k = {}; ties: equal scores are ordered by dataset id; \"R@1 rand\" is R@1 expected under random "
             "tie-breaking\n",
             r->k);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "eval", "Evaluate runs and indexes")
                      ->add_subcommand("discovery", "Dataset-discovery metrics of the text index on CMDBench questions");
  cmd->add_option("--index", o->index, "Index directory (from `lakeqa index build`)")->required();
  cmd->add_option("--questions", o->questions, "CMDBench table-discovery questions (JSON array)")->required();
  cmd->add_option("--k", o->k, "Evaluation depth")->capture_default_str();
  cmd->add_option("--namespace", o->ns, "Namespace of the cmdbench lake")->capture_default_str();
  cmd->add_flag("--keep-stop-words", o->keep_stop_words, "Score English stop words in questions too");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
