// `lakeqa eval cmdbench --task source|table|doc|paragraph|graph --questions <file>... --index <dir>
//  [--router select-doc|select-table|select-graph|select-all|random|lexical|embedding|llm] [--seed N]
//  [--glove <bin>] [--embed-url <base url>] [--embed-model M] [--margin X]
//  [--summaries <file>] [--summary-level basic|enhanced] [--model provider:model] [--router-cache <dir>]
//  [--graph-method lexical|llm] [--paragraph-scope gold-pages|all] [--k 10] [--html <file>] [--json]`:
//  CMDBench's discovery metrics
// (docs/cmdbench.md) with one row per question.
#include <fmt/format.h>

#include "cli/command.h"
#include "lakeqa/cmdbench/eval.h"
#include "lakeqa/cmdbench/report_page.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/sources.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  cmdbench::CmdbenchEvalOptions e;
  std::string summaries, model, html, embed_url;
  double th_doc = -1, th_table = -1, th_graph = -1;
  OutputOptions out;
};

int Run(Opts& o) {
  if (!o.summaries.empty()) {
    auto g = index::LoadGivenSummaries(o.summaries);
    if (!g.ok()) return Fail(g.status(), o.out);
    o.e.router.given = *g;
  }
  if (!o.embed_url.empty()) {
    o.e.router.embedder.use_http = true;
    o.e.router.embedder.http.base_url = o.embed_url;
  }
  if (o.th_doc >= 0) o.e.router.lexical.doc = o.th_doc;
  if (o.th_table >= 0) o.e.router.lexical.table = o.th_table;
  if (o.th_graph >= 0) o.e.router.lexical.graph = o.th_graph;
  if (!o.model.empty()) {
    auto spec = eval::ParseJudgeSpec(o.model);
    if (!spec.ok()) return Fail(spec.status().WithContext("--model"), o.out);
    o.e.router.model = *spec;
    o.e.model = *spec;
  } else if (o.e.router.kind == "llm" || (o.e.task == "graph" && o.e.graph_method == "llm")) {
    return Fail(InvalidArgument("an llm method needs --model provider:model (e.g. openai:gpt-4-turbo)"),
                o.out);
  }
  auto r = cmdbench::RunCmdbenchEval(o.e);
  if (!r.ok()) return Fail(r.status(), o.out);
  if (!o.html.empty()) {
    Status w = WriteFileAtomic(o.html, cmdbench::RenderCmdbenchHtml(*r));
    if (!w.ok()) return Fail(w.WithContext("--html"), o.out);
  }
  if (o.out.json) {
    PrintJson(*r);
    return 0;
  }
  const Json& m = (*r)["metrics"];
  fmt::print("CMDBench {} discovery: {} questions from {}, method {}\n", o.e.task,
             (*r)["questions"].get<size_t>(), (*r)["questions_file"].get<std::string>(),
             (*r)["method"].get<std::string>());
  if (o.e.task == "source") {
    fmt::print("{:<6} {:>6} {:>6} {:>6} {:>8} {:>10}\n", "class", "P", "R", "F1", "support", "predicted");
    for (const char* c : {"graph", "doc", "table"}) {
      const Json& x = m["per_class"][c];
      fmt::print("{:<6} {:>6.2f} {:>6.2f} {:>6.2f} {:>8} {:>10}\n", c, 100 * x["p"].get<double>(),
                 100 * x["r"].get<double>(), 100 * x["f1"].get<double>(), x["support"].get<uint64_t>(),
                 x["predicted"].get<uint64_t>());
    }
    fmt::print("macro  {:>6.2f} {:>6.2f} {:>6.2f}   accuracy {:.2f}\n", 100 * m["macro_p"].get<double>(),
               100 * m["macro_r"].get<double>(), 100 * m["macro_f1"].get<double>(),
               100 * m["accuracy"].get<double>());
  } else if (o.e.task == "graph") {
    fmt::print("node P {:.2f} R {:.2f} F1 {:.2f}; edge P {:.2f} R {:.2f} F1 {:.2f}\n",
               100 * m["node_p"].get<double>(), 100 * m["node_r"].get<double>(),
               100 * m["node_f1"].get<double>(), 100 * m["edge_p"].get<double>(),
               100 * m["edge_r"].get<double>(), 100 * m["edge_f1"].get<double>());
    for (const auto& [t, v] : m["by_type"].items())
      fmt::print("  {:<10} node P {:.2f} R {:.2f} F1 {:.2f} ({} questions)\n", t,
                 100 * v["node_p"].get<double>(), 100 * v["node_r"].get<double>(),
                 100 * v["node_f1"].get<double>(), v["questions"].get<uint64_t>());
    if (m["questions_without_gold"].get<uint64_t>() > 0)
      fmt::print("{} questions left out: their provenance Cypher did not run (see --json)\n",
                 m["questions_without_gold"].get<uint64_t>());
  } else {
    fmt::print(
        "P@1 {:.2f}  R@1 {:.2f}  R@3 {:.2f}  R@5 {:.2f}  R@10 {:.2f}  R-precision {:.2f}  MRR {:.3f}  "
        "(R@1 under random tie-breaking {:.2f})\n",
        100 * m["p@1"].get<double>(), 100 * m["r@1"].get<double>(), 100 * m["r@3"].get<double>(),
        100 * m["r@5"].get<double>(), 100 * m["r@10"].get<double>(), 100 * m["r_precision"].get<double>(),
        m["mrr"].get<double>(), 100 * m["r@1_random_ties"].get<double>());
    size_t tied = 0;
    for (const auto& q : (*r)["per_question"]) tied += q.value("top_ties", size_t{0}) > 1;
    fmt::print("{} questions have ties at the top score (--json lists them)\n", tied);
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "eval", "Evaluate runs and indexes")
          ->add_subcommand("cmdbench",
                           "CMDBench discovery metrics: source routing, table, doc, paragraph, graph");
  cmd->add_option("--task", o->e.task, "source, table, doc, paragraph or graph")->required();
  cmd->add_option(
         "--questions", o->e.questions,
         "CMDBench question file of that kind; --task source also takes several files of any kind (a doc, "
         "graph or table file's questions need that source)")
      ->required();
  cmd->add_option("--index", o->e.index_dir, "Index directory (from `lakeqa index build`)")->required();
  cmd->add_option("--router", o->e.router.kind,
                  "select-doc, select-table, select-graph, select-all, random, lexical, embedding, llm")
      ->capture_default_str();
  cmd->add_option("--seed", o->e.router.seed, "Seed of the random router")->capture_default_str();
  cmd->add_option(
      "--summaries", o->summaries,
      "CMDBench modality summary JSON (replaces the index's for llm and embedding; adds words for lexical)");
  cmd->add_option("--summary-level", o->e.router.level, "basic or enhanced (the index's summaries)")
      ->capture_default_str();
  cmd->add_option("--model", o->model, "provider:model for --router llm / --graph-method llm");
  cmd->add_option("--router-cache", o->e.router.cache_dir, "Folder caching the llm router's answers");
  cmd->add_option("--threshold-doc", o->th_doc, "Lexical router threshold for doc");
  cmd->add_option("--threshold-table", o->th_table, "Lexical router threshold for table");
  cmd->add_option("--threshold-graph", o->th_graph, "Lexical router threshold for graph");
  cmd->add_option(
      "--glove", o->e.router.embedder.glove_path,
      "--router embedding: GloVe binary (default $LAKEQA_GLOVE, else ./.deps/glove/glove100.bin)");
  cmd->add_option(
      "--embed-url", o->embed_url,
      "--router embedding: base URL of an OpenAI-compatible embeddings server (POST <url>/v1/embeddings) "
      "instead of GloVe");
  cmd->add_option("--embed-model", o->e.router.embedder.http.model,
                  "--router embedding with --embed-url: the model")
      ->capture_default_str();
  cmd->add_option("--embed-key-env", o->e.router.embedder.http.api_key_env,
                  "--router embedding with --embed-url: environment variable holding the API key")
      ->capture_default_str();
  cmd->add_option("--margin", o->e.router.margin,
                  "--router embedding: choose the sources whose similarity is within this of the best")
      ->capture_default_str();
  cmd->add_option("--graph-method", o->e.graph_method, "lexical or llm")->capture_default_str();
  cmd->add_option("--paragraph-scope", o->e.paragraph_scope,
                  "paragraph: gold-pages (rank the gold pages' paragraphs, CMDBench's baseline) or all "
                  "(every paragraph)")
      ->capture_default_str();
  cmd->add_option("--html", o->html, "Also write the report as an offline HTML page (the CMDBench page)");
  cmd->add_option("--k", o->e.k, "Evaluation depth")->capture_default_str();
  cmd->add_option("--namespace", o->e.ns, "Namespace of the cmdbench tables")->capture_default_str();
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
