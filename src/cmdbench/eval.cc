#include "lakeqa/cmdbench/eval.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/discovery.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/paragraphs.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/index/sources.h"
#include "lakeqa/text/analyzer.h"
#include "lakeqa/text/normalize.h"

#include "cmdbench/routing_text.h"

namespace lakeqa::cmdbench {
namespace {

using internal::LowerWordText;
using internal::PlainQuery;
using internal::SplitSchemaName;

size_t TopTies(const std::vector<eval::ScoredId>& ranked) {
  size_t n = 0;
  for (const auto& r : ranked) {
    if (r.score != ranked[0].score) break;
    ++n;
  }
  return n;
}

Json RankedJson(const std::vector<eval::ScoredId>& ranked, size_t k) {
  Json a = Json::array();
  for (size_t i = 0; i < ranked.size() && i < k; ++i)
    a.push_back({{"id", ranked[i].id}, {"score", ranked[i].score}});
  return a;
}

eval::DiscoveryMetrics Mean(eval::DiscoveryMetrics s, size_t n) {
  if (n > 0) s /= static_cast<double>(n);
  return s;
}

// ---- source ----
Result<Json> RunSource(const CmdbenchEvalOptions& o) {
  size_t duplicates = 0;
  LAKEQA_ASSIGN_OR_RETURN(auto qs, LoadCmdbenchRoutingQuestions(o.questions, &duplicates));
  RouterOptions ro = o.router;
  ro.index_dir = o.index_dir;
  LAKEQA_ASSIGN_OR_RETURN(auto router, MakeRouter(ro));
  std::vector<std::vector<std::string>> gold, pred;
  Json rows = Json::array();
  for (const auto& q : qs) {
    LAKEQA_ASSIGN_OR_RETURN(RouteResult r, router->Route(q.question));
    gold.push_back(q.sources);
    pred.push_back(r.sources);
    std::set<std::string> g(q.sources.begin(), q.sources.end()), p(r.sources.begin(), r.sources.end());
    rows.push_back({{"qid", q.qid},
                    {"question", q.question},
                    {"gold", q.sources},
                    {"gold_from", std::string(CmdbenchProvenanceKey(q.kind))},
                    {"predicted", r.sources},
                    {"exact", g == p},
                    {"detail", r.detail}});
  }
  auto s = ScoreSourceSelection(gold, pred);
  return Json{{"method", router->Name()},
              {"metrics", s.ToJson()},
              {"per_question", rows},
              {"duplicate_questions", duplicates}};
}

// ---- table ----
Result<Json> RunTable(const CmdbenchEvalOptions& o) {
  // Checks the kind first (a clear refusal), then reuses the discovery evaluation as it is.
  LAKEQA_RETURN_IF_ERROR(LoadCmdbenchQuestionFile(o.questions[0], CmdbenchKind::kTable).status());
  LAKEQA_ASSIGN_OR_RETURN(auto qs, LoadCmdbenchQuestions(o.questions[0], o.ns));
  eval::DiscoveryOptions d;
  d.k = o.k;
  LAKEQA_ASSIGN_OR_RETURN(eval::DiscoveryReport r, eval::RunDiscovery(o.index_dir, qs, d));
  Json j = r.ToJson();
  return Json{{"method", "bm25 (text index)"},
              {"metrics", j["overall"]},
              {"tie_break", j["tie_break"]},
              {"per_question", j["per_question"]}};
}

// ---- doc ----
Result<Json> RunDoc(const CmdbenchEvalOptions& o) {
  LAKEQA_ASSIGN_OR_RETURN(auto qs, LoadCmdbenchQuestionFile(o.questions[0], CmdbenchKind::kDoc));
  LAKEQA_ASSIGN_OR_RETURN(auto reader, index::IndexReader::Open(catalog::IndexDir(o.index_dir).Text()));
  LAKEQA_ASSIGN_OR_RETURN(auto cat, catalog::Catalog::Open(catalog::IndexDir(o.index_dir).Catalog(), true));
  text::AnalyzerOptions ao;
  ao.stop_words = true;
  index::Searcher searcher(reader, ao);
  std::map<std::string, bool> is_doc;
  auto doc_source = [&](const std::string& id) {
    auto it = is_doc.find(id);
    if (it != is_doc.end()) return it->second;
    auto d = cat->GetDataset(id);
    auto f = cat->ListFiles(id);
    bool yes = d.ok() && f.ok() && index::SourceOfDataset(*d, *f) == "doc";
    return is_doc[id] = yes;
  };
  eval::DiscoveryMetrics sum;
  Json rows = Json::array();
  for (const auto& q : qs) {
    std::vector<std::string> gold, missing;
    for (const auto& t : q.DocTitles()) {
      std::string id = CmdbenchPageDataset(t);
      gold.push_back(id);
      if (!cat->GetDataset(id).ok()) missing.push_back(id);
    }
    index::SearchOptions so;
    so.k = 1000;
    so.snippets = false;
    LAKEQA_ASSIGN_OR_RETURN(index::SearchResult r, searcher.Search(PlainQuery(q.question), so));
    std::vector<eval::ScoredId> ranked;
    for (const auto& h : r.hits) {
      if (doc_source(h.id)) ranked.push_back({h.id, h.score});
    }
    auto m = eval::ComputeDiscoveryMetrics(ranked, gold, o.k);
    sum += m;
    Json row = {{"qid", q.qid},
                {"question", q.question},
                {"gold", gold},
                {"metrics", m.ToJson()},
                {"top_ties", ranked.empty() ? 0 : TopTies(ranked)},
                {"top", RankedJson(ranked, o.k)}};
    if (!missing.empty()) row["missing_gold"] = missing;
    rows.push_back(std::move(row));
  }
  return Json{{"method", "bm25 (text index, doc sources)"},
              {"metrics", Mean(sum, qs.size()).ToJson()},
              {"per_question", rows}};
}

// ---- paragraph ----

// Paragraph discovery over <index>/paragraphs/ (index/paragraphs.h), with the dataset index's searcher.
// gold-pages: CMDBench's BM25 baseline, whose candidates are the gold documents' paragraphs: the question's
// terms scored on the paragraph text only, every paragraph of the gold pages a candidate (one that holds no
// query word scores 0), ties in page order then paragraph order. all: every paragraph of the lake, scored on
// its text and its page title (paragraph discovery without being told the page), ties by id.
Result<Json> RunParagraph(const CmdbenchEvalOptions& o) {
  LAKEQA_ASSIGN_OR_RETURN(auto qs, LoadCmdbenchQuestionFile(o.questions[0], CmdbenchKind::kDoc));
  const bool gold_pages = o.paragraph_scope == "gold-pages";
  if (!gold_pages && o.paragraph_scope != "all")
    return InvalidArgument("--paragraph-scope must be gold-pages or all, got '" + o.paragraph_scope + "'");
  const std::string dir = catalog::IndexDir(o.index_dir).Paragraphs();
  if (!PathExists(dir + "/" + std::string(index::kManifestName)))
    return NotFound(dir +
                    ": no paragraph index (the index was built before paragraphs were indexed, or the lake "
                    "has no doc-source pages): rebuild it with `lakeqa index build --lake <lake> --index " +
                    o.index_dir + "`");
  LAKEQA_ASSIGN_OR_RETURN(auto reader, index::IndexReader::Open(dir));
  index::Searcher searcher(reader);
  const int text_field = reader->schema().Find("text"), page_field = reader->schema().Find("page");
  if (text_field < 0 || page_field < 0)
    return Corrupt(dir + ": not a paragraph index (no text or page field)");
  eval::DiscoveryMetrics sum;
  Json rows = Json::array();
  for (const auto& q : qs) {
    std::vector<std::string> gold, pages, missing;
    for (const auto& p : q.paragraphs)
      gold.push_back(index::ParagraphDocId(CmdbenchPageDataset(p.title), p.paragraph_id));
    for (const auto& t : q.DocTitles()) pages.push_back(CmdbenchPageDataset(t));
    LAKEQA_ASSIGN_OR_RETURN(index::Query query,
                            index::ParseQuery(PlainQuery(q.question), reader->schema(), searcher.analyzer()));
    index::SearchOptions so;
    so.k = 1000;
    so.stored = so.snippets = so.matches = false;
    std::vector<eval::ScoredId> ranked;
    size_t candidates = 0;
    if (gold_pages) {
      index::FilterClause in_pages{page_field, {}};
      for (const auto& p : pages) in_pages.values.push_back(text::FoldKeyword(p));
      for (auto& t : query.terms) t.field = text_field;
      query.filters = {in_pages};
      so.k = 100000;  // the most a search returns; the gold pages hold at most 2000 paragraphs each
      LAKEQA_ASSIGN_OR_RETURN(index::SearchResult scored, searcher.Search(query, so));
      index::Query all_of_pages;
      all_of_pages.filters = {in_pages};
      LAKEQA_ASSIGN_OR_RETURN(index::SearchResult every, searcher.Search(all_of_pages, so));
      std::map<std::string, double> score;
      for (const auto& h : scored.hits) score[h.id] = h.score;
      auto order = [&](const std::string& id) {
        size_t hash = id.rfind('#');
        std::string page = id.substr(0, hash);
        size_t pi = std::find(pages.begin(), pages.end(), page) - pages.begin();
        return std::make_pair(pi, std::strtoll(id.c_str() + hash + 1, nullptr, 10));
      };
      for (const auto& h : every.hits) ranked.push_back({h.id, score.count(h.id) ? score[h.id] : 0.0});
      std::sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
        if (a.score != b.score) return a.score > b.score;
        return order(a.id) < order(b.id);
      });
      candidates = ranked.size();
      std::set<std::string> seen;
      for (const auto& r : ranked) seen.insert(r.id.substr(0, r.id.rfind('#')));
      for (const auto& p : pages) {
        if (!seen.count(p)) missing.push_back(p);
      }
    } else {
      LAKEQA_ASSIGN_OR_RETURN(index::SearchResult r, searcher.Search(query, so));
      for (const auto& h : r.hits) ranked.push_back({h.id, h.score});
      candidates = reader->num_docs();
    }
    auto m = eval::ComputeDiscoveryMetrics(ranked, gold, o.k);
    sum += m;
    Json row = {{"qid", q.qid},
                {"question", q.question},
                {"gold", gold},
                {"candidates", candidates},
                {"metrics", m.ToJson()},
                {"top_ties", ranked.empty() ? 0 : TopTies(ranked)},
                {"top", RankedJson(ranked, o.k)}};
    if (!missing.empty()) row["missing_pages"] = missing;
    rows.push_back(std::move(row));
  }
  std::string method = gold_pages
                           ? "bm25 (paragraph index) over the gold pages' paragraphs (ties: page order)"
                           : "bm25f (paragraph index: text and page title) over every paragraph (ties: id)";
  return Json{{"method", method},
              {"scope", o.paragraph_scope},
              {"metrics", Mean(sum, qs.size()).ToJson()},
              {"per_question", rows}};
}

// ---- graph ----

class LexicalGraphRetriever {
 public:
  explicit LexicalGraphRetriever(graph::Graph& g) : g_(g) {
    text::AnalyzerOptions ao;
    ao.stop_words = true;
    an_ = std::make_unique<text::Analyzer>(ao);
  }
  Status Init() {
    for (const auto& n : g_.schema().nodes) {
      LAKEQA_ASSIGN_OR_RETURN(auto all, g_.FindNodes("", n.label, "", 1000000));
      for (const auto& m : all) {
        std::string name = LowerWordText(m.name);
        if (!name.empty()) names_[name].push_back(m.key);
        max_words_ = std::max<size_t>(max_words_, Split(name, ' ').size());
      }
    }
    static const std::set<std::string> kGeneric = {"by", "for", "of", "has", "is", "as", "part"};
    for (const auto& r : g_.schema().relations) {
      std::string words = r.type;
      for (const auto& p : r.properties) words += " " + p;
      for (const auto& t : an_->Analyze(SplitSchemaName(words))) {
        std::string term(an_->Term(t));
        if (!kGeneric.count(term)) cues_[r.type].insert(term);
      }
    }
    return Status::Ok();
  }
  struct Out {
    std::vector<std::string> nodes, edges;
    Json detail;
  };
  Result<Out> Retrieve(const std::string& question) {
    Out out;
    // Linked nodes: the longest node names in the question, left to right, without overlaps.
    const std::string normal = LowerWordText(question);  // Split returns views into it
    auto w = Split(normal, ' ');
    std::vector<std::string> linked;
    Json names = Json::array();
    for (size_t i = 0; i < w.size();) {
      size_t took = 0;
      for (size_t n = std::min(max_words_, w.size() - i); n >= 1; --n) {
        std::string cand;
        for (size_t k = i; k < i + n; ++k) cand += (k > i ? " " : "") + std::string(w[k]);
        auto it = names_.find(cand);
        // One-word names ("Centre", "Heat") are too ambiguous unless they are the whole name of a team-like
        // node.
        if (it != names_.end() && (n >= 2 || it->second.size() == 1) && it->second.size() <= 3) {
          for (const auto& k : it->second) linked.push_back(k);
          names.push_back(cand);
          took = n;
          break;
        }
      }
      i += took ? took : 1;
    }
    std::set<std::string> terms;
    for (const auto& t : an_->Analyze(question)) terms.insert(std::string(an_->Term(t)));
    std::set<std::string> cued;
    for (const auto& [type, cs] : cues_) {
      for (const auto& c : cs) {
        if (terms.count(c)) cued.insert(type);
      }
    }
    std::set<std::string> nodes(linked.begin(), linked.end()), edges;
    std::set<std::string> linked_set(linked.begin(), linked.end());
    for (const auto& n : linked) {
      uint64_t total = 0;
      auto nb = g_.Neighbors(n, "", "both", 500, &total);
      if (!nb.ok()) continue;
      for (const auto& e : *nb) {
        bool between = linked_set.count(e.node_key) > 0;
        bool cue = cued.count(e.type) > 0 && linked.size() == 1;
        if (between || cue) {
          edges.insert(e.edge_key);
          nodes.insert(e.node_key);
        }
      }
    }
    out.nodes.assign(nodes.begin(), nodes.end());
    out.edges.assign(edges.begin(), edges.end());
    out.detail = {{"linked", names},
                  {"cued_types", Json(std::vector<std::string>(cued.begin(), cued.end()))}};
    return out;
  }

 private:
  graph::Graph& g_;
  std::unique_ptr<text::Analyzer> an_;
  std::map<std::string, std::vector<std::string>> names_;
  std::map<std::string, std::set<std::string>> cues_;
  size_t max_words_ = 1;
};

std::string Nl2CypherPrompt(const std::string& question, const std::string& schema) {
  // CMDBench's NL2Cypher prompt (tasks/run_nl2cypher.py), with lakeqa's schema description.
  return "Given a question and the schema of a Neo4j knowledge graph, create a Cypher query that retrieve "
         "either the "
         "answer or information that can be used to infer the answer.\n\nHere are the requirements:\n- The "
         "Cypher "
         "query should be compatible with the graph schema. In the graph schema you will be provided with "
         "the node "
         "properties for each type of node in the graph, the relationship properties for each type of "
         "relationship, "
         "as well as all unique relationship schemas.\n- The Cypher query should NOT use the path syntax "
         "(e.g., "
         "`MATCH path = ()-[*1..2]-() RETURN path`).\n- Always do case-insensitive matching in the Cypher "
         "query.\n- "
         "All nodes and relationships in the MATCH clause should be assigned a variable even if the variable "
         "is not "
         "used in the RETURN clause (e.g. use `[r:playsFor]` instead of `[:playsFor]`).\n- Output the Cyper "
         "query "
         "directly without ```. Do not generate explanation or other additional output.\n\nQuestion: " +
         question + "\n\nGraph Schema: " + schema;
}

Result<Json> RunGraph(const CmdbenchEvalOptions& o) {
  LAKEQA_ASSIGN_OR_RETURN(auto qs, LoadCmdbenchQuestionFile(o.questions[0], CmdbenchKind::kGraph));
  LAKEQA_ASSIGN_OR_RETURN(auto g, graph::Graph::Open(catalog::IndexDir(o.index_dir).Graph()));
  std::unique_ptr<LexicalGraphRetriever> lex;
  std::unique_ptr<eval::JudgeClient> llm;
  if (o.graph_method == "lexical") {
    lex = std::make_unique<LexicalGraphRetriever>(*g);
    LAKEQA_RETURN_IF_ERROR(lex->Init());
  } else if (o.graph_method == "llm") {
    LAKEQA_ASSIGN_OR_RETURN(llm, eval::MakeJudgeClient(o.model));
  } else {
    return InvalidArgument("--graph-method must be lexical or llm, got '" + o.graph_method + "'");
  }
  std::vector<GraphQuestionScore> scores;
  Json rows = Json::array();
  for (const auto& q : qs) {
    Json row = {{"qid", q.qid}, {"question", q.question}, {"type", q.graph_type}};
    auto gold = g->Query(q.cypher);
    if (!gold.ok()) {
      // A provenance query lakeqa cannot run: no gold set, so the question is listed and left out.
      row["error"] = "provenance cypher: " + gold.status().message();
      rows.push_back(std::move(row));
      continue;
    }
    std::vector<std::string> pn, pe;
    if (lex) {
      LAKEQA_ASSIGN_OR_RETURN(auto r, lex->Retrieve(q.question));
      pn = r.nodes;
      pe = r.edges;
      row["detail"] = r.detail;
    } else {
      auto c = llm->Complete("", Nl2CypherPrompt(q.question, g->schema().Describe()));
      if (!c.ok()) return c.status().WithContext("NL2Cypher for " + q.qid);
      std::string cypher = c->text;
      if (size_t a = cypher.find("```"); a != std::string::npos) {
        size_t s = cypher.find('\n', a);
        size_t e = cypher.find("```", s == std::string::npos ? a + 3 : s);
        cypher = cypher.substr(s == std::string::npos ? a + 3 : s + 1,
                               e == std::string::npos ? std::string::npos : e - s - 1);
      }
      row["cypher"] = cypher;
      auto r = g->Query(cypher);
      if (r.ok()) {
        pn = r->nodes;
        pe = r->edges;
      } else {
        row["cypher_error"] = r.status().message();
      }
    }
    GraphQuestionScore s{q.graph_type, ScoreSet(pn, gold->nodes), ScoreSet(pe, gold->edges)};
    scores.push_back(s);
    row["gold_nodes"] = gold->nodes;
    row["gold_edges"] = gold->edges.size();
    row["predicted_nodes"] = pn;
    row["predicted_edges"] = pe.size();
    row["node_p"] = s.nodes.p;
    row["node_r"] = s.nodes.r;
    row["edge_p"] = s.edges.p;
    row["edge_r"] = s.edges.r;
    rows.push_back(std::move(row));
  }
  auto agg = AggregateGraphScores(scores);
  Json m = agg.ToJson();
  m["questions_without_gold"] = qs.size() - scores.size();
  return Json{{"method", o.graph_method}, {"metrics", m}, {"per_question", rows}};
}

}  // namespace

Result<Json> RunCmdbenchEval(const CmdbenchEvalOptions& o) {
  if (o.questions.empty()) return InvalidArgument("--questions: no question file given");
  if (o.task != "source" && o.questions.size() > 1)
    return InvalidArgument("--questions: --task " + o.task + " takes one question file, got " +
                           std::to_string(o.questions.size()) + " (only --task source takes several)");
  Result<Json> r =
      InvalidArgument("--task must be source, table, doc, paragraph or graph, got '" + o.task + "'");
  if (o.task == "source") r = RunSource(o);
  else if (o.task == "table") r = RunTable(o);
  else if (o.task == "doc") r = RunDoc(o);
  else if (o.task == "paragraph") r = RunParagraph(o);
  else if (o.task == "graph") r = RunGraph(o);
  if (!r.ok()) return r;
  Json j = std::move(*r);
  j["task"] = o.task;
  std::string files;
  for (const auto& f : o.questions) files += (files.empty() ? "" : ", ") + f;
  j["questions_file"] = files;
  j["questions"] = j["per_question"].size();
  return j;
}

}  // namespace lakeqa::cmdbench
