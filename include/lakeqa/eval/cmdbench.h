// CMDBench's question files and its metrics, computed as its own scripts compute them
// (tasks/run_source_selection.py, run_nl2cypher.py, run_doc_discovery.py, run_paragraph_discovery.py):
//
//   source     multi-label over {graph, doc, table}: per class P = TP/(TP+FP), R = TP/(TP+FN),
//              F1 = 2TP/(2TP+FP+FN) (each 0 when its denominator is 0, as scikit-learn's zero_division);
//              macro = the unweighted mean over the three classes; accuracy = exact set match.
//   graph      per question P = |pred ∩ gold| / |pred| (0 when nothing is predicted), R = |pred ∩ gold| /
//              |gold| (0 when the gold set is empty — CMDBench counts that 0 too); P and R are averaged over
//              questions and F1 is the harmonic mean of the averages (not the mean of per-question F1s);
//              the same for edges, and for nodes per provenance type (point, path, sub-graph).
//   table/doc/paragraph  ranked-list metrics (discovery.h): P@1, R@1/3/5/10, R-precision, MRR.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"

namespace lakeqa::eval {

enum class CmdbenchKind { kSource, kTable, kDoc, kGraph };
std::string_view CmdbenchKindName(CmdbenchKind k);  // "source", ...
// The provenance key a file of that kind carries ("provenance_sources", ...).
std::string_view CmdbenchProvenanceKey(CmdbenchKind k);

struct CmdbenchParagraph {
  std::string title;
  int64_t paragraph_id = -1;  // -1: not given
  std::string text;
};

struct CmdbenchQuestion {
  std::string qid, question;
  Json answer;  // as written (a string for most; absent → null)
  CmdbenchKind kind = CmdbenchKind::kSource;
  std::vector<std::string> sources;           // source: provenance_sources
  std::string original_source;                // source: original_source, when given
  std::vector<std::string> tables;            // table: table names
  std::vector<std::string> columns;           // table: columns, when given
  std::vector<CmdbenchParagraph> paragraphs;  // doc
  std::string cypher, graph_type;             // graph: the provenance query and point|path|sub-graph
  std::vector<int64_t> neo4j_node_ids,
      neo4j_edge_ids;                          // graph: CMDBench's (Neo4j-internal) ids, kept as given
  std::string AnswerText() const;              // the answer as text ("" when absent)
  std::vector<std::string> DocTitles() const;  // distinct gold titles in order
};

// Reads a CMDBench question file (a JSON array) of the expected kind. A file whose items carry another
// kind's provenance is refused with what was expected and what was found ("expected provenance_graph (a
// CMDBench graph question file), item 0 has provenance_sources"); a malformed item is an error naming the
// file and the item.
Result<std::vector<CmdbenchQuestion>> LoadCmdbenchQuestionFile(const std::string& path,
                                                               CmdbenchKind expected);

// Source-routing questions from one or more CMDBench question files (the shared examples hold four source
// questions and, in the doc, graph and table files, questions whose answer is in that modality): an item with
// provenance_sources keeps its label; an item of a doc, graph or table file is labelled with that modality.
// A qid given in several files is kept once, a provenance_sources label preferred over a modality label, and
// counted in *duplicates. `kind` of each question stays the kind of the item it was read from. A file that is
// not a JSON array, an item of no CMDBench kind, or a malformed item is an error naming the file and item.
Result<std::vector<CmdbenchQuestion>> LoadCmdbenchRoutingQuestions(const std::vector<std::string>& paths,
                                                                   size_t* duplicates = nullptr);

// One item of a question file, of a known kind; `where` names it in errors ("q.json: item 3").
Result<CmdbenchQuestion> ParseCmdbenchQuestion(const Json& item, const std::string& where, CmdbenchKind kind);

// The kind of an item: the first provenance_* key it carries (non-null); nullopt when none.
std::optional<CmdbenchKind> CmdbenchKindOf(const Json& item);

// --- gold in lakeqa's cmdbench lake (docs/cmdbench.md, "Agents on CMDBench questions") ---

// The labels and relationship types a Cypher query's patterns name: `(p:Player)` → Player,
// `-[r:playsFor|draftedBy]->` → playsFor, draftedBy; in first-seen order, each once. Text in string
// literals and comments is skipped; a label the query leaves to be inferred is not named.
struct CypherNames {
  std::vector<std::string> labels, types;
};
CypherNames CypherPatternNames(std::string_view cypher);

// The lake files a question's provenance names, as `lake build --source cmdbench:` (and the demo's or an
// enwiki dump's pages) lays them out:
//   table  cmdbench/<table>/<table>.csv, one per table
//   doc    wikipedia/<TitleToFolder(title)>/content.txt, one per distinct page
//   graph  cmdbench/graph_nodes_<Label>/<Label>.csv per label and
//          cmdbench/graph_relation_<type>/relation_<type>.csv per relationship type its Cypher names
//   source none: its gold is a modality, not a dataset
std::vector<std::string> CmdbenchGoldFiles(const CmdbenchQuestion& q);

// A gold page's dataset in that layout, "wikipedia/<TitleToFolder(title)>", and its text file
// (CmdbenchPageDataset(title) + "/content.txt", one KILT paragraph per line).
std::string CmdbenchPageDataset(std::string_view title);
std::string CmdbenchPageFile(std::string_view title);

// The modality of a dataset ("<namespace>/<id>") of that layout: "doc" for the wikipedia namespace, "graph"
// for cmdbench/graph_nodes_* and cmdbench/graph_relation_*, "table" otherwise. A source question's
// D_ret/D_acc compare these modalities of the datasets an agent touched with its gold sources.
std::string CmdbenchModalityOf(std::string_view dataset);

// --- source selection ---
struct ClassScores {
  double p = 0, r = 0, f1 = 0;
  uint64_t support = 0, predicted = 0, true_positives = 0;
};
struct SourceSelectionScores {
  std::map<std::string, ClassScores> per_class;  // graph, doc, table
  double macro_p = 0, macro_r = 0, macro_f1 = 0, accuracy = 0;
  uint64_t questions = 0;
  Json ToJson() const;
};
SourceSelectionScores ScoreSourceSelection(const std::vector<std::vector<std::string>>& gold,
                                           const std::vector<std::vector<std::string>>& predicted);

// --- graph nodes and edges ---
struct SetScore {
  double p = 0, r = 0;
};
SetScore ScoreSet(const std::vector<std::string>& predicted, const std::vector<std::string>& gold);

struct GraphScores {
  double node_p = 0, node_r = 0, node_f1 = 0, edge_p = 0, edge_r = 0, edge_f1 = 0;
  std::map<std::string, SetScore> node_by_type;  // point, path, sub-graph: averaged P and R
  std::map<std::string, uint64_t> questions_by_type;
  uint64_t questions = 0;
  Json ToJson() const;
};
// One entry per question: the question's provenance type and its node and edge scores.
struct GraphQuestionScore {
  std::string type;
  SetScore nodes, edges;
};
GraphScores AggregateGraphScores(const std::vector<GraphQuestionScore>& per_question);

double HarmonicMean(double p, double r);

}  // namespace lakeqa::eval
