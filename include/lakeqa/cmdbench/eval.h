// `lakeqa eval cmdbench`: runs a discovery method on a CMDBench question file over an index and scores it
// with CMDBench's metrics (cmdbench/cmdbench.h, eval/discovery.h). Tasks and methods:
//   source     a router (router.h) per question → per-class and macro P/R/F1 (CMDBench Table 3); the
//              questions may come from several files of any kind (a doc file's questions need doc, ...)
//   table      the text index's ranking of datasets (eval::RunDiscovery) → P@1, R@k, R-precision (Table 4)
//   doc        the text index restricted to doc-source datasets, gold = the pages of the gold paragraphs
//   paragraph  the paragraph index (<index>/paragraphs/, index/paragraphs.h): scope gold-pages = BM25 over
//   the
//              gold pages' paragraphs (as CMDBench's BM25 baseline: its candidates are the gold documents'
//              paragraphs), scope all = every paragraph of the lake; gold = "<page>#<paragraph id>" (Table 6)
//   graph      the gold node/edge sets are the identities the provenance Cypher matches (graph_query);
//              methods: lexical (node names in the question, their edges of the relationship types the
//              question words name) or llm (CMDBench's NL2Cypher prompt through the llm module) (Table 5)
#pragma once

#include <string>
#include <vector>

#include "lakeqa/cmdbench/source_router.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::cmdbench {

struct CmdbenchEvalOptions {
  std::string task;  // source|table|doc|paragraph|graph
  // The CMDBench question file; source also takes several files, of any kind
  // (LoadCmdbenchRoutingQuestions: a doc, graph or table file's questions are labelled with that
  // modality).
  std::vector<std::string> questions;
  std::string index_dir;
  std::string paragraph_scope = "gold-pages";  // paragraph: gold-pages|all
  RouterOptions router;                        // source
  std::string graph_method = "lexical";        // lexical|llm
  eval::JudgeSpec model;                       // graph --graph-method llm
  size_t k = 10;
  std::string ns = "cmdbench";  // table: the namespace of the WikiSQL tables
};

// The report: {"task", "questions", "method", "metrics", "per_question": [...]}.
Result<Json> RunCmdbenchEval(const CmdbenchEvalOptions& options);

}  // namespace lakeqa::cmdbench
