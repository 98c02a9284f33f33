// The lexical source router (router.h). Per source s, three pieces of evidence in [0, 1]:
//   vocabulary  the share of the question's known words (stemmed, stop words dropped) that s's summary
//               holds, each word weighted by how few sources hold it (idf over the three summaries); the
//               words of a graph node the question names are left out (a name is not a kind of source);
//   index       the best BM25 score among s's datasets in the text index, over the best of any source;
//   entity      graph only: 1 when the question names a graph node (a node name of two or more words).
// score(s) = mean of the pieces s has (doc and table: vocabulary, index; graph: all three). A source is
// chosen when its score reaches its threshold; the best-scoring source is always chosen.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <unordered_set>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/cmdbench/source_router.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/words.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/searcher.h"
#include "lakeqa/index/sources.h"
#include "lakeqa/text/analyzer.h"

#include "cmdbench/routing_text.h"

namespace lakeqa::cmdbench {
namespace {

using internal::JoinWords;
using internal::PlainQuery;
using internal::SplitSchemaName;

class Lexical : public LexicalRouter {
 public:
  Status Init(const RouterOptions& o) {
    params_ = o.lexical;
    text::AnalyzerOptions ao;
    ao.stop_words = true;
    analyzer_ = std::make_unique<text::Analyzer>(ao);
    std::map<std::string, std::string> texts;
    const catalog::IndexDir dir(o.index_dir);
    if (PathExists(dir.Sources())) {
      LAKEQA_ASSIGN_OR_RETURN(index::SourceSummaries s, index::LoadSourceSummaries(o.index_dir));
      for (const auto& x : s.sources) texts[x.name] = SplitSchemaName(x.enhanced);
    }
    for (const auto& [k, v] : o.given) texts[k] += "\n" + v;
    for (const char* s : index::kSourceNames) {
      for (const auto& t : analyzer_->Analyze(texts[s])) vocab_[s].insert(std::string(analyzer_->Term(t)));
    }
    for (const char* s : index::kSourceNames) {
      for (const auto& t : vocab_[s]) ++df_[t];
    }
    if (PathExists(dir.Text() + "/" + std::string(index::kManifestName))) {
      LAKEQA_ASSIGN_OR_RETURN(auto reader, index::IndexReader::Open(dir.Text()));
      reader_ = reader;
      searcher_ = std::make_unique<index::Searcher>(reader_, ao);
      LAKEQA_ASSIGN_OR_RETURN(catalog_, catalog::Catalog::Open(dir.Catalog(), true));
    }
    if (PathExists(dir.GraphSchema())) {
      LAKEQA_ASSIGN_OR_RETURN(auto g, graph::Graph::Open(dir.Graph()));
      for (const auto& n : g->schema().nodes) {
        LAKEQA_ASSIGN_OR_RETURN(auto all, g->FindNodes("", n.label, "", 1000000));
        for (const auto& m : all) {
          auto w = LowerWords(m.name);
          if (w.size() >= 2) names_.insert(JoinWords(w, 0, w.size()));
          max_name_words_ = std::max(max_name_words_, w.size());
        }
      }
    }
    return Status::Ok();
  }

  std::string Name() const override { return "lexical"; }
  void SetParams(const LexicalParams& p) override { params_ = p; }

  std::map<std::string, double> Scores(const std::string& question) override {
    detail_ = Json::object();
    std::map<std::string, double> vocab, idx, out;
    // A graph node named in the question.
    double entity = 0;
    std::set<std::string> entity_terms;
    auto w = LowerWords(question);
    for (size_t n = std::min(max_name_words_, w.size()); n >= 2 && entity == 0; --n) {
      for (size_t i = 0; i + n <= w.size(); ++i) {
        if (names_.count(JoinWords(w, i, n))) {
          entity = 1;
          detail_["node"] = JoinWords(w, i, n);
          for (const auto& t : analyzer_->Analyze(JoinWords(w, i, n)))
            entity_terms.insert(std::string(analyzer_->Term(t)));
          break;
        }
      }
    }
    // Vocabulary share.
    double total = 0;
    std::set<std::string> terms;
    for (const auto& t : analyzer_->Analyze(question)) terms.insert(std::string(analyzer_->Term(t)));
    // A named entity's words say which thing is asked about, not which kind of source holds the answer
    // (every WikiSQL title names teams and players): the vocabulary counts the other words.
    for (const auto& t : entity_terms) terms.erase(t);
    for (const auto& t : terms) {
      auto it = df_.find(t);
      if (it == df_.end()) continue;
      double w = std::log(1.0 + 3.0 / static_cast<double>(it->second));
      total += w;
      for (const char* s : index::kSourceNames) {
        if (vocab_[s].count(t)) vocab[s] += w;
      }
    }
    for (const char* s : index::kSourceNames) vocab[s] = total > 0 ? vocab[s] / total : 0;
    // Best BM25 hit per source.
    if (searcher_) {
      std::string q = PlainQuery(question);
      index::SearchOptions so;
      so.k = 30;
      so.snippets = false;
      auto r = searcher_->Search(q, so);
      double best = 0;
      if (r.ok()) {
        for (const auto& h : r->hits) {
          std::string src = SourceOf(h.id);
          if (src.empty() || idx.count(src)) continue;
          idx[src] = h.score;
          best = std::max(best, h.score);
        }
      }
      for (const char* s : index::kSourceNames) idx[s] = best > 0 ? idx[s] / best : 0;
    }
    for (const char* s : index::kSourceNames) {
      double sum = vocab[s] + idx[s];
      double parts = 2;
      if (std::string_view(s) == "graph") sum += entity, parts = 3;
      out[s] = sum / parts;
      detail_[s] = {{"score", out[s]}, {"vocabulary", vocab[s]}, {"index", idx[s]}};
    }
    detail_["graph"]["entity"] = entity;
    return out;
  }

  Result<RouteResult> Route(const std::string& question) override {
    auto s = Scores(question);
    RouteResult r;
    std::string best;
    for (const char* x : index::kSourceNames) {
      if (best.empty() || s[x] > s[best]) best = x;
    }
    const std::map<std::string, double> th = {
        {"doc", params_.doc}, {"table", params_.table}, {"graph", params_.graph}};
    for (const char* x : index::kSourceNames) {
      if (x == best || s[x] >= th.at(x)) r.sources.push_back(x);
    }
    r.detail = detail_;
    return r;
  }

 private:
  std::string SourceOf(const std::string& id) {
    auto it = source_of_.find(id);
    if (it != source_of_.end()) return it->second;
    std::string src;
    if (catalog_) {
      auto d = catalog_->GetDataset(id);
      auto f = catalog_->ListFiles(id);
      if (d.ok() && f.ok()) src = index::SourceOfDataset(*d, *f);
    }
    return source_of_[id] = src;
  }

  LexicalParams params_;
  std::unique_ptr<text::Analyzer> analyzer_;
  std::map<std::string, std::unordered_set<std::string>> vocab_;
  std::map<std::string, int> df_;
  std::shared_ptr<const index::IndexReader> reader_;
  std::unique_ptr<index::Searcher> searcher_;
  std::unique_ptr<catalog::Catalog> catalog_;
  std::map<std::string, std::string> source_of_;
  std::unordered_set<std::string> names_;
  size_t max_name_words_ = 0;
  Json detail_;
};

}  // namespace

Result<std::unique_ptr<LexicalRouter>> MakeLexicalRouter(const RouterOptions& options) {
  auto r = std::make_unique<Lexical>();
  LAKEQA_RETURN_IF_ERROR(r->Init(options));
  return std::unique_ptr<LexicalRouter>(std::move(r));
}

}  // namespace lakeqa::cmdbench
