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
#include "lakeqa/eval/discovery.h"
#include "lakeqa/eval/score.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::ingest {
class BuildContext;  // ingest/build_context.h
}  // namespace lakeqa::ingest

namespace lakeqa::cmdbench {

// Task::format of CMDBench's questions, and the key of their kind in report.json ("by_" + it: the slices).
inline constexpr std::string_view kFormat = "cmdbench";
inline constexpr std::string_view kKindKey = "cmdbench_kind";

enum class CmdbenchKind { kSource, kTable, kDoc, kGraph };
std::string_view CmdbenchKindName(CmdbenchKind k);  // "source", ...
// The provenance key a file of that kind carries ("provenance_sources", ...).
std::string_view CmdbenchProvenanceKey(CmdbenchKind k);

struct CmdbenchParagraph {
  std::string title;
  int64_t paragraph_id = -1;  // -1: not given
  std::string text;
};

// One question as given; a task read from a question file carries it as its extension (task.h).
struct CmdbenchQuestion : eval::TaskExtension {
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

  // A source question asks where to look: no hop graph, no lake file, its gold is a modality.
  bool HasHopGraph() const override { return kind != CmdbenchKind::kSource; }
  std::string OracleNotApplicable() const override;
  std::string NoLakeFileReason() const override;
  std::string GroundingCypher() const override { return kind == CmdbenchKind::kGraph ? cypher : ""; }
  std::string Kind() const override { return std::string(CmdbenchKindName(kind)); }
  const std::vector<std::string>* GoldLabels() const override;
  std::string LabelOf(std::string_view dataset) const override;
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

// --- the task format, the lake source, discovery questions, the report section -----------------------

// The task's CMDBench question, or nullptr when it is not one.
const CmdbenchQuestion* Of(const eval::Task& task);
// Whether a task object is a CMDBench question: a "qid" and no "question_id".
bool IsCmdbenchQuestionObject(const Json& j);
// One CMDBench question ({"qid", "question", "answer", "provenance_table": {"table", "column"}, ...}) as a
// Task. Each gold file of its provenance (CmdbenchGoldFiles) becomes a node; a source-routing question has
// none (its gold is a modality, Of(task)->sources).
Result<eval::Task> TaskFromCmdBenchJson(const Json& j, std::string_view where);

// The `cmdbench:<folder>` source kind (source.cc): the CMDBench NBA lake (tables, graph, pages).
Status BuildCmdbench(ingest::BuildContext& ctx, const std::string& path);

// The dataset id the cmdbench lake builder gives a WikiSQL table.
std::string CmdbenchTableDatasetId(std::string_view table, std::string_view ns = "cmdbench");
// CMDBench table-discovery questions (a JSON array file, or a folder of such files) as a relevance
// collection: [{"qid", "question", "provenance_table": {"table": "t_1_..."}}] (a table name or a list); a
// table maps to the dataset id the cmdbench lake builder gives it ("cmdbench/" + NameToFolder(table)).
Result<std::vector<eval::DiscoveryQuestion>> LoadCmdbenchQuestions(const std::string& path,
                                                                   std::string_view ns = "cmdbench");

// report.html's CMDBench section: the questions apart by kind, with the setting (provenance given or not).
std::string CmdbenchHtmlSection(const eval::RunScore& score, const eval::RunData& run);

// Registers CMDBench with the core: the `cmdbench:` source kind, the question-file task format (with its
// gold contents for --provide-provenance and its table-discovery questions) and the report section. Called
// once from src/cli/benchmarks.cc (and by the tests); a second call is harmless.
void Register();

}  // namespace lakeqa::cmdbench
