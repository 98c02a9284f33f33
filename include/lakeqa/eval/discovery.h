// Dataset-discovery evaluation over relevance collections: questions with their relevant datasets, run
// as searches (bm25, vector or hybrid; index/retriever.h) and scored against the gold datasets.
//
// Collections (one loader per kind, all returning DiscoveryQuestion):
//   - CMDBench table-discovery questions: [{"qid", "question", "provenance_table": {"table": "t_1_..."}}]
//     (a table name or a list); a table maps to the dataset id the cmdbench lake builder gives it
//     ("cmdbench/" + NameToFolder(table));
//   - LakeQA tasks (files, folders or JSONL; eval/task.h): the question against the distinct datasets of
//     datasets_used and node sources (GoldDatasets), for any lake that holds them;
//   - TREC topics ("<qid>\t<text>" lines, or <top><num>…<title>…</top> blocks) and qrels
//     ("<qid> <iteration> <docid> <relevance>", relevance > 0 relevant, graded for nDCG).
// Malformed input is an error naming file:line.
//
// Metrics per question (gold set G with grades g(d) >= 1, ranked list r_1..r_n cut at the depth k):
//   P@1 = [r_1 in G];  R@j = |G ∩ {r_1..r_j}| / |G| for j = 1, 3, 5, 10;
//   R-precision = |G ∩ {r_1..r_|G|}| / |G|;  MRR = 1 / (rank of the first gold id), 0 when none is in the
//   top k;  nDCG@10 = DCG / ideal DCG with DCG = sum over i <= min(10, k) of (2^g(r_i) - 1) / log2(i + 1).
// Overall values are means over questions.
// Ties: the searcher orders equal scores by id ascending (deterministic). Because that can favour or
// hurt gold ids by name alone, R@1 is also reported in expectation under random tie-breaking:
//   E[R@1] = (gold ids among the T ids tied at the top score) / T / |G|.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/index/retriever.h"

namespace lakeqa::eval {

struct DiscoveryQuestion {
  std::string qid;
  std::string question;
  std::vector<std::string> gold;     // dataset ids ("cmdbench/t_1_13619135_7"), distinct, in file order
  std::map<std::string, int> grade;  // relevance grade per gold id (1 unless the collection grades)
  std::string where;                 // "file:line" it was read from

  // Adds `id` to the gold once, keeping its highest grade.
  void AddGold(const std::string& id, int grade_of_id);
};

// Every task of the paths (eval::LoadTasks). A task that does not load, or names no dataset, is an error
// unless skip_bad, which drops it and reports it in *skipped ("file:line: message").
Result<std::vector<DiscoveryQuestion>> LoadLakeQaQuestions(const std::vector<std::string>& paths,
                                                           bool skip_bad = false,
                                                           std::vector<std::string>* skipped = nullptr);
// Topics without a qrels line get no gold and are an error; qrels of unknown topics too.
Result<std::vector<DiscoveryQuestion>> LoadTrecQuestions(const std::string& topics_path,
                                                         const std::string& qrels_path);

struct ScoredId {
  std::string id;
  double score = 0;
};

struct DiscoveryMetrics {
  double p_at_1 = 0, r_at_1 = 0, r_at_3 = 0, r_at_5 = 0, r_at_10 = 0, r_precision = 0, mrr = 0,
         ndcg_at_10 = 0;
  double r_at_1_random = 0;  // expected R@1 under random tie-breaking
  Json ToJson() const;
  // The metric by its JSON name ("p@1", "r@5", "mrr", "ndcg@10", ...).
  std::optional<double> Get(std::string_view name) const;
  DiscoveryMetrics& operator+=(const DiscoveryMetrics& o);
  DiscoveryMetrics& operator/=(double n);
};

// `ranked` is best first (as the searcher returns it, ties by id); only its first `k` entries count,
// except that the top tie group is read whole for r_at_1_random. `grade` gives graded relevance for
// nDCG (a gold id it lacks has grade 1).
DiscoveryMetrics ComputeDiscoveryMetrics(const std::vector<ScoredId>& ranked,
                                         const std::vector<std::string>& gold, size_t k,
                                         const std::map<std::string, int>& grade = {});

// Twin-ok: the ranking with every near-duplicate of a gold dataset (index/near_duplicates.h: WikiSQL's
// t_1_X / t_2_X copies of one table) read as that gold dataset, once: a later copy of a gold dataset
// already ranked is a miss, so no question counts a hit twice. `twin_of` gives an id's near-duplicate
// group members (empty when none). Strict metrics stay the headline; these say how much of a miss is a
// copy of the gold.
std::vector<ScoredId> TwinOkRanking(
    const std::vector<ScoredId>& ranked, const std::vector<std::string>& gold,
    const std::function<std::vector<std::string>(const std::string&)>& twins_of);

struct DiscoveryOptions {
  size_t k = 10;            // evaluation depth
  size_t tie_depth = 1000;  // bm25 hits fetched so the top tie group is seen whole
  index::RetrieverOptions retriever;
  std::optional<index::RankingParams> ranking;  // overrides the index manifest's
  bool explain = false;                         // explanations of the top hits and of missed gold datasets
  size_t explain_hits = 3;                      // top hits explained per question
};

struct QuestionResult {
  DiscoveryQuestion question;
  std::vector<ScoredId> top;              // the first k hits
  std::vector<std::string> missing_gold;  // gold ids the index does not hold
  size_t top_ties = 0;                    // ids tied at the top score
  DiscoveryMetrics metrics;
  DiscoveryMetrics twin_ok;          // near-duplicates of the gold count as hits (TwinOkRanking)
  std::vector<std::string> dropped;  // query words left out (stop words, question phrasing)
  std::vector<index::Correction> corrections;
  Json explanations;  // with explain: {"hits": [...], "gold": [...]}
};

struct DiscoveryReport {
  std::string mode;
  std::vector<QuestionResult> questions;
  DiscoveryMetrics overall;
  DiscoveryMetrics overall_twin_ok;
  size_t near_duplicate_groups = 0;  // in the index (0: twin-ok equals strict)
  size_t k = 10;
  // Questions with at least one gold dataset missing from the index (counted in the metrics, as misses).
  std::vector<std::string> questions_with_missing_gold;
  Json ToJson() const;
  // TREC run format: "<qid> Q0 <docid> <rank> <score> <tag>" for the first k hits of every question.
  std::string TrecRun(std::string_view tag) const;
};

// Runs questions against one index; keeps the index and embedder open across runs (the grid search
// runs the same questions many times).
class DiscoveryRunner {
 public:
  static Result<std::unique_ptr<DiscoveryRunner>> Open(const std::string& index_dir,
                                                       const index::RetrieverOptions& options);
  ~DiscoveryRunner();
  Result<DiscoveryReport> Run(const std::vector<DiscoveryQuestion>& questions,
                              const DiscoveryOptions& options);
  const index::RankingParams& index_ranking() const;
  const index::Schema& schema() const;

 private:
  DiscoveryRunner() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// DiscoveryRunner::Open + Run.
Result<DiscoveryReport> RunDiscovery(const std::string& index_dir,
                                     const std::vector<DiscoveryQuestion>& questions,
                                     const DiscoveryOptions& options = {});

// Checked-in expected metrics of a collection ({"tolerance": 0.02, "metrics": {"p@1": 0.81, ...}}, or
// {"tolerance", "modes": {"bm25": {...}, "hybrid": {...}}}): the metrics that fell by more than the
// tolerance, as "p@1 0.742 < expected 0.810 - 0.020". Empty: no regression.
Result<std::vector<std::string>> CheckExpectedMetrics(const Json& expected, std::string_view mode,
                                                      const DiscoveryMetrics& got);

// The grid search that chooses ranking parameters (`lakeqa eval tune`): coordinate ascent over a grid.
// From `start`, each round tries every value of every parameter's grid with the others fixed and keeps a
// value when it raises the objective (P@1 + R@5 + MRR over the questions) by more than 1e-9; rounds
// repeat until one changes nothing or max_rounds is reached.
struct TuneOptions {
  std::vector<std::pair<std::string, std::vector<double>>> grid;  // parameter name → values
  size_t max_rounds = 4;
  DiscoveryOptions discovery;
};
struct TuneStep {
  std::string parameter;
  double value = 0;
  double objective = 0;
  DiscoveryMetrics metrics;
};
struct TuneReport {
  index::RankingParams start, best;
  DiscoveryMetrics start_metrics, best_metrics;
  double start_objective = 0, best_objective = 0;
  size_t evaluations = 0, rounds = 0;
  std::vector<TuneStep> improvements;  // every accepted change, in order
  Json ToJson() const;
};
double TuneObjective(const DiscoveryMetrics& m);

// A suite of relevance collections over one or more indexes (`lakeqa eval suite`), a JSON file:
//   {"collections": [{"name": "kramabench-dev", "split": "dev", "index": "${KB_INDEX}",
//                     "tasks": ["${KRAMABENCH}/workload/legal.json", ...], "skip_bad_tasks": false},
//                    {"name": "cmdbench-examples", "split": "test", "index": "${NBA_INDEX}",
//                     "questions": "${CMDBENCH_NBA}/examples/q_table_examples.json", "namespace":
//                     "cmdbench"},
//                    {"name": ..., "topics": "t.tsv", "qrels": "q.txt", ...}]}
// Strings may name ${VAR}s, taken from `vars` first, then the environment; an unset one is an error.
// Relative paths are relative to the suite file's folder. split is "dev" (tuned on) or "test" (reported
// only). Each collection gives exactly one of questions, tasks, topics + qrels.
struct SuiteCollection {
  std::string name, split, index;
  std::vector<DiscoveryQuestion> questions;
  std::vector<std::string> skipped;  // tasks skip_bad_tasks left out
};
Result<std::vector<SuiteCollection>> LoadDiscoverySuite(const std::string& path,
                                                        const std::map<std::string, std::string>& vars);

// Tuning across collections (`lakeqa eval tune --suite`): the objective is the mean MRR over the
// collections, minus every collection's shortfall below its floor (its MRR under PlainBm25Ranking(), so no
// collection may end below plain BM25) counted ten times. One collection's best is not the aim: defaults
// must hold on collections nobody tuned on (docs/search.md, "Tuning discipline").
struct TuneCollection {
  std::string name;
  DiscoveryRunner* runner = nullptr;  // not owned; several collections may share an index
  std::vector<DiscoveryQuestion> questions;
};
struct SuiteTuneReport {
  TuneReport tune;                                   // objective: the suite's (below)
  std::vector<std::string> names;                    // collections, in suite order
  std::vector<DiscoveryMetrics> floor, start, best;  // per collection
  Json ToJson() const;
};
// Textbook BM25 over every text field: k1 1.2, b 0.75, weight 1, no proximity, no data fields, no fuzzy or
// corrected terms.
index::RankingParams PlainBm25Ranking(const index::Schema& schema);
double SuiteObjective(const std::vector<DiscoveryMetrics>& got, const std::vector<DiscoveryMetrics>& floor);
Result<SuiteTuneReport> TuneRankingAcross(const std::vector<TuneCollection>& collections,
                                          const index::RankingParams& start, const TuneOptions& options);
// The default grid: k1, proximity, and weight and b of every text field of the schema.
std::vector<std::pair<std::string, std::vector<double>>> DefaultTuneGrid(const index::Schema& schema);
// Parses "k1=0.6,0.9,1.2;title.weight=2,3,5" (parameter names: index::RankingParams::Names()).
Result<std::vector<std::pair<std::string, std::vector<double>>>> ParseTuneGrid(std::string_view spec);
Result<TuneReport> TuneRanking(DiscoveryRunner& runner, const std::vector<DiscoveryQuestion>& questions,
                               const index::RankingParams& start, const TuneOptions& options);

}  // namespace lakeqa::eval
