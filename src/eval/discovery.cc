#include "lakeqa/eval/discovery.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/index/near_duplicates.h"

namespace lakeqa::eval {
namespace {

struct NamedMetric {
  const char* name;
  double DiscoveryMetrics::*field;
};
constexpr NamedMetric kMetrics[] = {
    {"p@1", &DiscoveryMetrics::p_at_1},
    {"r@1", &DiscoveryMetrics::r_at_1},
    {"r@3", &DiscoveryMetrics::r_at_3},
    {"r@5", &DiscoveryMetrics::r_at_5},
    {"r@10", &DiscoveryMetrics::r_at_10},
    {"r_precision", &DiscoveryMetrics::r_precision},
    {"mrr", &DiscoveryMetrics::mrr},
    {"ndcg@10", &DiscoveryMetrics::ndcg_at_10},
    {"r@1_random_ties", &DiscoveryMetrics::r_at_1_random},
};

}  // namespace

Json DiscoveryMetrics::ToJson() const {
  Json j = Json::object();
  for (const auto& m : kMetrics) j[m.name] = this->*m.field;
  return j;
}

std::optional<double> DiscoveryMetrics::Get(std::string_view name) const {
  for (const auto& m : kMetrics) {
    if (name == m.name) return this->*m.field;
  }
  return std::nullopt;
}

DiscoveryMetrics& DiscoveryMetrics::operator+=(const DiscoveryMetrics& o) {
  for (const auto& m : kMetrics) this->*m.field += o.*m.field;
  return *this;
}

DiscoveryMetrics& DiscoveryMetrics::operator/=(double n) {
  for (const auto& m : kMetrics) this->*m.field /= n;
  return *this;
}

DiscoveryMetrics ComputeDiscoveryMetrics(const std::vector<ScoredId>& ranked,
                                         const std::vector<std::string>& gold_list, size_t k,
                                         const std::map<std::string, int>& grade) {
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
  auto gain = [&](const std::string& id) {
    auto it = grade.find(id);
    return std::pow(2.0, it == grade.end() ? 1 : it->second) - 1.0;
  };
  double dcg = 0, ideal = 0;
  for (size_t i = 0; i < std::min<size_t>(n, 10); ++i) {
    if (gold.count(ranked[i].id)) dcg += gain(ranked[i].id) / std::log2(static_cast<double>(i) + 2.0);
  }
  std::vector<double> gains;
  for (const auto& id : gold) gains.push_back(gain(id));
  std::sort(gains.rbegin(), gains.rend());
  for (size_t i = 0; i < std::min<size_t>({gains.size(), k, 10}); ++i)
    ideal += gains[i] / std::log2(static_cast<double>(i) + 2.0);
  m.ndcg_at_10 = ideal > 0 ? dcg / ideal : 0;
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

std::vector<ScoredId> TwinOkRanking(
    const std::vector<ScoredId>& ranked, const std::vector<std::string>& gold,
    const std::function<std::vector<std::string>(const std::string&)>& twins_of) {
  std::set<std::string> golds(gold.begin(), gold.end()), seen;
  std::vector<ScoredId> out;
  out.reserve(ranked.size());
  for (const ScoredId& r : ranked) {
    std::string id = r.id;
    if (!golds.count(id)) {
      for (const std::string& t : twins_of(id)) {
        if (golds.count(t)) {
          id = t;
          break;
        }
      }
    }
    // A second copy of a gold dataset already ranked: a miss, under an id no gold set holds.
    if (golds.count(id) && !seen.insert(id).second) id = "\x01copy of " + id;
    out.push_back({id, r.score});
  }
  return out;
}

Json DiscoveryReport::ToJson() const {
  Json qs = Json::array();
  for (const auto& q : questions) {
    Json top = Json::array();
    for (const auto& t : q.top) top.push_back({{"id", t.id}, {"score", t.score}});
    Json j = {{"qid", q.question.qid},         {"question", q.question.question}, {"gold", q.question.gold},
              {"metrics", q.metrics.ToJson()}, {"top_ties", q.top_ties},          {"top", top}};
    if (near_duplicate_groups > 0) j["twin_ok"] = q.twin_ok.ToJson();
    if (!q.question.where.empty()) j["where"] = q.question.where;
    if (!q.missing_gold.empty()) j["missing_gold"] = q.missing_gold;
    if (!q.dropped.empty()) j["dropped"] = q.dropped;
    if (!q.corrections.empty()) {
      Json c = Json::array();
      for (const auto& x : q.corrections) c.push_back({{"word", x.word}, {"term", x.term}});
      j["corrections"] = c;
    }
    if (!q.explanations.is_null()) j["explanations"] = q.explanations;
    qs.push_back(std::move(j));
  }
  return {{"k", k},
          {"mode", mode},
          {"questions", questions.size()},
          {"questions_with_missing_gold", questions_with_missing_gold},
          {"tie_break",
           "equal scores ordered by dataset id ascending; r@1_random_ties is R@1 in expectation "
           "under uniformly random ordering of ties"},
          {"overall", overall.ToJson()},
          {"overall_twin_ok", overall_twin_ok.ToJson()},
          {"near_duplicate_groups", near_duplicate_groups},
          {"per_question", qs}};
}

std::string DiscoveryReport::TrecRun(std::string_view tag) const {
  std::string out;
  for (const auto& q : questions) {
    for (size_t i = 0; i < q.top.size(); ++i)
      out += fmt::format("{} Q0 {} {} {:.6f} {}\n", q.question.qid, q.top[i].id, i + 1, q.top[i].score, tag);
  }
  return out;
}

struct DiscoveryRunner::Impl {
  std::unique_ptr<index::Retriever> retriever;
  std::unique_ptr<catalog::Catalog> catalog;
  index::NearDuplicates twins;
};

DiscoveryRunner::~DiscoveryRunner() = default;

Result<std::unique_ptr<DiscoveryRunner>> DiscoveryRunner::Open(const std::string& index_dir,
                                                               const index::RetrieverOptions& options) {
  std::unique_ptr<DiscoveryRunner> r(new DiscoveryRunner());
  r->impl_ = std::make_unique<Impl>();
  LAKEQA_ASSIGN_OR_RETURN(r->impl_->retriever, index::Retriever::Open(index_dir, options));
  auto cat = catalog::Catalog::Open(catalog::IndexDir(index_dir).Catalog(), /*read_only=*/true);
  if (cat.ok()) r->impl_->catalog = std::move(*cat);
  LAKEQA_ASSIGN_OR_RETURN(r->impl_->twins, index::NearDuplicates::Load(index_dir));
  return r;
}

const index::RankingParams& DiscoveryRunner::index_ranking() const {
  return impl_->retriever->searcher().reader().ranking();
}

const index::Schema& DiscoveryRunner::schema() const {
  return impl_->retriever->searcher().reader().schema();
}

Result<DiscoveryReport> DiscoveryRunner::Run(const std::vector<DiscoveryQuestion>& questions,
                                             const DiscoveryOptions& o) {
  if (o.k == 0) return InvalidArgument("discovery evaluation depth k must be at least 1");
  index::Retriever& retriever = *impl_->retriever;
  DiscoveryReport report;
  report.k = o.k;
  report.mode = std::string(index::RetrievalModeName(retriever.options().mode));
  index::SearchOptions so;
  so.k = retriever.options().mode == index::RetrievalMode::kBm25 ? std::max(o.k, o.tie_depth) : o.k;
  so.snippets = false;
  so.matches = false;
  so.stored = false;
  if (o.ranking) so.ranking = &*o.ranking;
  for (const auto& q : questions) {
    QuestionResult qr;
    qr.question = q;
    // Questions are natural language: field:value, quotes and wildcards in them are text, not syntax.
    std::string text = q.question;
    for (char& c : text) {
      if (c == ':' || c == '"' || c == '*') c = ' ';
    }
    LAKEQA_ASSIGN_OR_RETURN(index::Query query,
                            retriever.searcher().Parse(text, &qr.corrections, so.ranking));
    qr.dropped = query.dropped;
    LAKEQA_ASSIGN_OR_RETURN(index::SearchResult r, retriever.Search(text, query, so));
    std::vector<ScoredId> ranked;
    ranked.reserve(r.hits.size());
    for (const auto& h : r.hits) ranked.push_back({h.id, h.score});
    // A gold id absent from the catalog is a mapping or lake problem, not a ranking one: say so.
    if (impl_->catalog) {
      for (const auto& g : q.gold) {
        if (!impl_->catalog->GetDataset(g).ok()) qr.missing_gold.push_back(g);
      }
    }
    if (!qr.missing_gold.empty()) report.questions_with_missing_gold.push_back(q.qid);
    qr.metrics = ComputeDiscoveryMetrics(ranked, q.gold, o.k, q.grade);
    auto twins_of = [this](const std::string& id) {
      std::vector<std::string> out;
      if (const index::NearDuplicateGroup* g = impl_->twins.GroupOf(id)) {
        for (const auto& m : g->members) out.push_back(m.id);
      }
      return out;
    };
    qr.twin_ok = ComputeDiscoveryMetrics(TwinOkRanking(ranked, q.gold, twins_of), q.gold, o.k, q.grade);
    for (const auto& s : ranked) {
      if (s.score != ranked[0].score) break;
      ++qr.top_ties;
    }
    if (o.explain) {
      // The top hits and every gold dataset (with its rank, null beyond the depth searched).
      index::SearchOptions eo = so;
      eo.stored = true;
      eo.k = std::min(o.explain_hits, o.k);
      eo.explain = true;
      eo.explain_ids = q.gold;
      LAKEQA_ASSIGN_OR_RETURN(index::SearchResult e, retriever.searcher().Search(query, eo));
      Json hits = Json::array(), gold = Json::array();
      for (const auto& h : e.hits) {
        if (h.explanation)
          hits.push_back({{"id", h.id}, {"score", h.score}, {"explanation", h.explanation->ToJson()}});
      }
      for (const auto& h : e.explained) {
        Json rank = nullptr;
        for (size_t i = 0; i < ranked.size(); ++i) {
          if (ranked[i].id == h.id) rank = i + 1;
        }
        gold.push_back({{"id", h.id},
                        {"rank", rank},
                        {"bm25_score", h.score},
                        {"explanation", h.explanation->ToJson()}});
      }
      qr.explanations = {{"hits", hits}, {"gold", gold}};
    }
    ranked.resize(std::min(ranked.size(), o.k));
    qr.top = std::move(ranked);
    report.overall += qr.metrics;
    report.overall_twin_ok += qr.twin_ok;
    report.questions.push_back(std::move(qr));
  }
  if (!questions.empty()) {
    report.overall /= static_cast<double>(questions.size());
    report.overall_twin_ok /= static_cast<double>(questions.size());
  }
  report.near_duplicate_groups = impl_->twins.size();
  return report;
}

Result<DiscoveryReport> RunDiscovery(const std::string& index_dir,
                                     const std::vector<DiscoveryQuestion>& questions,
                                     const DiscoveryOptions& options) {
  LAKEQA_ASSIGN_OR_RETURN(auto runner, DiscoveryRunner::Open(index_dir, options.retriever));
  return runner->Run(questions, options);
}

Result<std::vector<std::string>> CheckExpectedMetrics(const Json& expected, std::string_view mode,
                                                      const DiscoveryMetrics& got) {
  if (!expected.is_object())
    return InvalidArgument("expected metrics: a JSON object {\"tolerance\", \"metrics\"}");
  double tolerance = expected.value("tolerance", 0.0);
  if (!(tolerance >= 0)) return InvalidArgument("expected metrics: tolerance must be >= 0");
  const Json* metrics = nullptr;
  if (auto m = expected.find("modes"); m != expected.end()) {
    auto it = m->find(std::string(mode));
    if (it == m->end()) return InvalidArgument("expected metrics: no entry for mode " + std::string(mode));
    metrics = &*it;
  } else if (auto m = expected.find("metrics"); m != expected.end()) {
    metrics = &*m;
  }
  if (metrics == nullptr || !metrics->is_object())
    return InvalidArgument("expected metrics: need \"metrics\": {name: value} or \"modes\": {mode: {...}}");
  std::vector<std::string> out;
  for (const auto& [name, value] : metrics->items()) {
    auto g = got.Get(name);
    if (!g) return InvalidArgument("expected metrics: unknown metric '" + name + "'");
    if (!value.is_number()) return InvalidArgument("expected metrics: " + name + " must be a number");
    double want = value.get<double>();
    if (*g < want - tolerance - 1e-12)
      out.push_back(fmt::format("{} {:.3f} < expected {:.3f} - {:.3f}", name, *g, want, tolerance));
  }
  return out;
}

}  // namespace lakeqa::eval
