#include "lakeqa/eval/discovery.h"

#include <algorithm>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::eval {

std::string CmdbenchTableDatasetId(std::string_view table, std::string_view ns) {
  return std::string(ns) + "/" + ingest::NameToFolder(table);
}

Result<std::vector<DiscoveryQuestion>> LoadCmdbenchQuestions(const std::string& path, std::string_view ns) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  if (!j.is_array()) return ParseError(path + ": expected a JSON array of questions");
  std::vector<DiscoveryQuestion> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const Json& item = j[i];
    std::string where = path + ": item " + std::to_string(i);
    if (!item.is_object()) return ParseError(where + ": expected an object");
    DiscoveryQuestion q;
    if (auto it = item.find("qid"); it != item.end()) q.qid = it->is_string() ? it->get<std::string>() : it->dump();
    if (q.qid.empty()) q.qid = std::to_string(i);
    auto qt = item.find("question");
    if (qt == item.end() || !qt->is_string() || qt->get<std::string>().empty())
      return ParseError(where + " (" + q.qid + "): no \"question\" string");
    q.question = qt->get<std::string>();
    auto pt = item.find("provenance_table");
    if (pt == item.end() || !pt->is_object() || !pt->contains("table"))
      return ParseError(where + " (" + q.qid + "): no \"provenance_table\": {\"table\": ...}");
    const Json& t = (*pt)["table"];
    std::vector<std::string> tables;
    if (t.is_string()) tables.push_back(t.get<std::string>());
    else if (t.is_array()) {
      for (const auto& e : t) {
        if (e.is_string()) tables.push_back(e.get<std::string>());
      }
    }
    for (const auto& name : tables) {
      if (name.empty()) continue;
      std::string id = CmdbenchTableDatasetId(name, ns);
      if (std::find(q.gold.begin(), q.gold.end(), id) == q.gold.end()) q.gold.push_back(id);
    }
    if (q.gold.empty()) return ParseError(where + " (" + q.qid + "): provenance_table.table names no table");
    out.push_back(std::move(q));
  }
  return out;
}

Json DiscoveryMetrics::ToJson() const {
  return {{"p@1", p_at_1},   {"r@1", r_at_1},   {"r@3", r_at_3},          {"r@5", r_at_5},
          {"r@10", r_at_10}, {"r_precision", r_precision}, {"mrr", mrr}, {"r@1_random_ties", r_at_1_random}};
}

DiscoveryMetrics ComputeDiscoveryMetrics(const std::vector<ScoredId>& ranked, const std::vector<std::string>& gold_list,
                                         size_t k) {
  DiscoveryMetrics m;
  std::set<std::string> gold(gold_list.begin(), gold_list.end());
  if (gold.empty()) return m;
  double g = static_cast<double>(gold.size());
  size_t n = std::min(ranked.size(), k);
  auto recall_at = [&](size_t j) {
    size_t hits = 0;
    for (size_t i = 0; i < std::min(n, j); ++i) hits += gold.count(ranked[i].id);
    return static_cast<double>(hits) / g;
  };
  m.p_at_1 = n > 0 && gold.count(ranked[0].id) ? 1.0 : 0.0;
  m.r_at_1 = recall_at(1);
  m.r_at_3 = recall_at(3);
  m.r_at_5 = recall_at(5);
  m.r_at_10 = recall_at(10);
  m.r_precision = recall_at(gold.size());
  for (size_t i = 0; i < n; ++i) {
    if (gold.count(ranked[i].id)) {
      m.mrr = 1.0 / static_cast<double>(i + 1);
      break;
    }
  }
  if (n > 0) {
    size_t tied = 0, tied_gold = 0;
    for (const auto& r : ranked) {
      if (r.score != ranked[0].score) break;
      ++tied;
      tied_gold += gold.count(r.id);
    }
    m.r_at_1_random = static_cast<double>(tied_gold) / static_cast<double>(tied) / g;
  }
  return m;
}

Json DiscoveryReport::ToJson() const {
  Json qs = Json::array();
  for (const auto& q : questions) {
    Json top = Json::array();
    for (const auto& t : q.top) top.push_back({{"id", t.id}, {"score", t.score}});
    Json j = {{"qid", q.question.qid}, {"question", q.question.question}, {"gold", q.question.gold},
              {"metrics", q.metrics.ToJson()}, {"top_ties", q.top_ties}, {"top", top}};
    if (!q.missing_gold.empty()) j["missing_gold"] = q.missing_gold;
    qs.push_back(std::move(j));
  }
  return {{"k", k},
          {"questions", questions.size()},
          {"tie_break", "equal scores ordered by dataset id ascending; r@1_random_ties is R@1 in expectation "
                        "under uniformly random ordering of ties"},
          {"overall", overall.ToJson()},
          {"per_question", qs}};
}

Result<DiscoveryReport> RunDiscovery(const std::string& index_dir, const std::vector<DiscoveryQuestion>& questions,
                                     const DiscoveryOptions& o) {
  if (o.k == 0) return InvalidArgument("discovery evaluation depth k must be at least 1");
  LAKEQA_ASSIGN_OR_RETURN(auto reader, index::IndexReader::Open(index_dir + "/text"));
  text::AnalyzerOptions ao;
  ao.stop_words = o.drop_stop_words;
  index::Searcher searcher(reader, ao);
  text::Analyzer analyzer(ao);
  auto cat = catalog::Catalog::Open(index_dir + "/catalog.sqlite", /*read_only=*/true);
  DiscoveryReport report;
  report.k = o.k;
  index::SearchOptions so;
  so.k = std::max(o.k, o.tie_depth);
  so.snippets = false;
  DiscoveryMetrics sum;
  for (const auto& q : questions) {
    QuestionResult qr;
    qr.question = q;
    // Questions are natural language: field:value and quotes in them are text, not syntax.
    std::string text = q.question;
    for (char& c : text) {
      if (c == ':' || c == '"' || c == '*') c = ' ';
    }
    LAKEQA_ASSIGN_OR_RETURN(index::Query query, index::ParseQuery(text, reader->schema(), analyzer));
    LAKEQA_ASSIGN_OR_RETURN(index::SearchResult r, searcher.Search(query, so));
    std::vector<ScoredId> ranked;
    ranked.reserve(r.hits.size());
    for (const auto& h : r.hits) ranked.push_back({h.id, h.score});
    // A gold id absent from the catalog is a mapping or lake problem, not a ranking one: say so.
    if (cat) {
      for (const auto& g : q.gold) {
        if (!(*cat)->GetDataset(g).ok()) qr.missing_gold.push_back(g);
      }
    }
    qr.metrics = ComputeDiscoveryMetrics(ranked, q.gold, o.k);
    for (const auto& s : ranked) {
      if (s.score != ranked[0].score) break;
      ++qr.top_ties;
    }
    ranked.resize(std::min(ranked.size(), o.k));
    qr.top = std::move(ranked);
    sum.p_at_1 += qr.metrics.p_at_1;
    sum.r_at_1 += qr.metrics.r_at_1;
    sum.r_at_3 += qr.metrics.r_at_3;
    sum.r_at_5 += qr.metrics.r_at_5;
    sum.r_at_10 += qr.metrics.r_at_10;
    sum.r_precision += qr.metrics.r_precision;
    sum.mrr += qr.metrics.mrr;
    sum.r_at_1_random += qr.metrics.r_at_1_random;
    report.questions.push_back(std::move(qr));
  }
  if (!questions.empty()) {
    double n = static_cast<double>(questions.size());
    report.overall = {sum.p_at_1 / n, sum.r_at_1 / n, sum.r_at_3 / n, sum.r_at_5 / n, sum.r_at_10 / n,
                      sum.r_precision / n, sum.mrr / n, sum.r_at_1_random / n};
  }
  return report;
}

}  // namespace lakeqa::eval
