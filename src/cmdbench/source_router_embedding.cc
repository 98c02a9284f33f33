// The embedding source router (router.h): each source's summary (the index's, at --summary-level, or the
// --summaries file's) is embedded once; a question is embedded and compared with each by cosine similarity
// (the embedders return unit vectors, so the dot product). The sources whose similarity is within the margin
// of the best are chosen. A source this lake lacks (no summary) is never chosen. A question with no
// embeddable word scores 0 everywhere, so every source the lake has is within the margin: no evidence, no
// narrowing.
#include <algorithm>

#include "lakeqa/cmdbench/source_router.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/sources.h"

namespace lakeqa::cmdbench {
namespace {

double Dot(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) d += static_cast<double>(a[i]) * b[i];
  return d;
}

class EmbeddingRouter : public SourceRouter {
 public:
  Status Init(const RouterOptions& o) {
    if (!(o.margin >= 0 && o.margin <= 2))
      return InvalidArgument("--margin must be in [0, 2], got " + std::to_string(o.margin));
    if (o.level != "basic" && o.level != "enhanced")
      return InvalidArgument("--summary-level must be basic or enhanced, got '" + o.level + "'");
    margin_ = o.margin;
    level_ = o.given.empty() ? o.level : "given";
    std::map<std::string, std::string> summaries = o.given;
    if (summaries.empty()) {
      LAKEQA_ASSIGN_OR_RETURN(index::SourceSummaries s, index::LoadSourceSummaries(o.index_dir));
      for (const auto& x : s.sources) summaries[x.name] = o.level == "basic" ? x.basic : x.enhanced;
    }
    LAKEQA_ASSIGN_OR_RETURN(embedder_, index::OpenEmbedder(o.embedder));
    std::vector<std::string> texts;
    for (const char* s : index::kSourceNames) {
      auto it = summaries.find(s);
      if (it == summaries.end() || Trim(it->second).empty()) continue;
      names_.push_back(s);
      texts.push_back(o.embedder.use_http ? std::string(TruncateUtf8(it->second, kHttpSummaryBytes))
                                          : it->second);
    }
    if (names_.empty())
      return InvalidArgument("no source has a summary to embed (index " + o.index_dir + ")");
    auto v = embedder_->Embed(texts);
    if (!v.ok()) return v.status().WithContext("embedding the source summaries with " + embedder_->name());
    vectors_ = std::move(*v);
    return Status::Ok();
  }

  std::string Name() const override {
    return "embedding(" + embedder_->name() + ", " + level_ + ", margin " + FormatMargin() + ")";
  }

  Result<RouteResult> Route(const std::string& question) override {
    auto q = embedder_->Embed({question});
    if (!q.ok()) return q.status().WithContext("embedding a question with " + embedder_->name());
    RouteResult r;
    std::map<std::string, double> sim;
    double best = -2;
    for (size_t i = 0; i < names_.size(); ++i) {
      sim[names_[i]] = Dot((*q)[0], vectors_[i]);
      best = std::max(best, sim[names_[i]]);
    }
    for (const char* s : index::kSourceNames) {
      auto it = sim.find(s);
      if (it == sim.end()) {
        r.detail[s] = nullptr;  // this lake has no such source
        continue;
      }
      r.detail[s] = {{"similarity", it->second}};
      if (it->second >= best - margin_) r.sources.push_back(s);
    }
    r.detail["margin"] = margin_;
    return r;
  }

 private:
  std::string FormatMargin() const {
    std::string m = std::to_string(margin_);
    while (m.size() > 1 && m.back() == '0') m.pop_back();
    if (!m.empty() && m.back() == '.') m.pop_back();
    return m;
  }

  double margin_ = kDefaultEmbeddingMargin;
  std::string level_;
  std::unique_ptr<index::Embedder> embedder_;
  std::vector<std::string> names_;
  std::vector<std::vector<float>> vectors_;
};

}  // namespace

Result<std::unique_ptr<SourceRouter>> MakeEmbeddingRouter(const RouterOptions& options) {
  auto r = std::make_unique<EmbeddingRouter>();
  LAKEQA_RETURN_IF_ERROR(r->Init(options));
  return std::unique_ptr<SourceRouter>(std::move(r));
}

}  // namespace lakeqa::cmdbench
