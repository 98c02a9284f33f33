// Source routers (CMDBench's source selection): each returns the set of sources — "doc", "table", "graph" —
// a question needs.
//   select-doc | select-table | select-graph | select-all   CMDBench's fixed baselines
//   random     one source uniformly at random, from a seeded generator (reproducible per seed and order)
//   lexical    no model: the question's words scored against each source's summary vocabulary, the best
//              BM25 hit among the source's datasets in the text index, and graph node names found in the
//              question; a source is chosen when its score reaches its threshold (the best one always)
//   embedding  cosine similarity between the question's embedding and each source's summary's (GloVe offline,
//              or an OpenAI-compatible /v1/embeddings server); the sources within `margin` of the best
//   llm        a model through the llm module with CMDBench's prompt (pinned as kRouterPromptVersion) and
//              the basic or enhanced summaries; answers cached like the judge's verdicts
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/judge.h"
#include "lakeqa/index/embedder.h"

namespace lakeqa::cmdbench {

inline constexpr const char* kRouterPromptVersion = "lakeqa-router-v1";

struct RouteResult {
  std::vector<std::string> sources;  // in the order doc, table, graph
  Json detail;                       // per-source scores (lexical), the raw reply (llm)
};

class SourceRouter {
 public:
  virtual ~SourceRouter() = default;
  virtual Result<RouteResult> Route(const std::string& question) = 0;
  virtual std::string Name() const = 0;
};

// Thresholds of the lexical router, on scores in [0, 1] (see docs/cmdbench.md for how they were tuned).
struct LexicalParams {
  double doc = 0.05, table = 0.0, graph = 0.1;
  Json ToJson() const { return {{"doc", doc}, {"table", table}, {"graph", graph}}; }
};

// The embedding router's rule: a source is chosen when its similarity is at least the best one's minus the
// margin (docs/cmdbench.md says how the default was chosen).
inline constexpr double kDefaultEmbeddingMargin = 0.175;
// An http embedder gets each summary's first bytes only: hosted models take a few thousand tokens.
inline constexpr size_t kHttpSummaryBytes = 16384;

struct RouterOptions {
  std::string kind =
      "lexical";  // select-doc|select-table|select-graph|select-all|random|lexical|embedding|llm
  uint64_t seed = 0;
  std::string index_dir;
  std::string level = "enhanced";            // basic|enhanced: the index's summaries
  std::map<std::string, std::string> given;  // summaries from a file (--summaries): replace the index's
  LexicalParams lexical;
  // embedding
  index::EmbedderChoice embedder;  // GloVe (default) or an http embeddings server
  double margin = kDefaultEmbeddingMargin;
  // llm
  eval::JudgeSpec model;
  std::string cache_dir;  // answers cached in <cache_dir>/<model>.jsonl
};

Result<std::unique_ptr<SourceRouter>> MakeRouter(const RouterOptions& options);
// The embedding router alone (MakeRouter's "embedding"; router_embedding.cc).
Result<std::unique_ptr<SourceRouter>> MakeEmbeddingRouter(const RouterOptions& options);

// The pinned prompt (CMDBench's source-selection prompt, with the three summaries).
std::string RouterPrompt(const std::string& question, const std::map<std::string, std::string>& summaries);
// A reply → sources: a JSON list of "graph"/"doc"/"table" (possibly in a ``` fence); anything else → error.
Result<std::vector<std::string>> ParseRouterReply(const std::string& reply);

// The lexical router's scores for a question, without thresholds (for tuning).
class LexicalRouter;
Result<std::unique_ptr<LexicalRouter>> MakeLexicalRouter(const RouterOptions& options);
class LexicalRouter : public SourceRouter {
 public:
  virtual std::map<std::string, double> Scores(const std::string& question) = 0;
  virtual void SetParams(const LexicalParams& p) = 0;
};

}  // namespace lakeqa::cmdbench
