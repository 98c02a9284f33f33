#include "cli/search_flags.h"

#include <cstdlib>

#include "lakeqa/common/fs.h"

namespace lakeqa::cli {

void AddRetrievalFlags(CLI::App* cmd, RetrievalFlags& f) {
  cmd->add_option("--mode", f.mode, "bm25, vector (<index>/vectors/) or hybrid (both lists fused)")
      ->capture_default_str();
  cmd->add_option("--glove", f.glove, "vector/hybrid: GloVe binary for queries (default $LAKEQA_GLOVE)");
  cmd->add_option("--embed-url", f.embed_url,
                  "vector/hybrid: base URL of the OpenAI-compatible embeddings server");
  cmd->add_option("--fusion", f.fusion,
                  "hybrid: rrf (weighted reciprocal rank fusion) or linear (min-max scores)")
      ->capture_default_str();
  cmd->add_option("--vector-weight", f.vector_weight, "hybrid: weight of the vector list (text gets 1 - it)")
      ->capture_default_str();
  cmd->add_option("--rrf-k", f.rrf_k, "hybrid, rrf: the k of 1 / (k + rank)")->capture_default_str();
  cmd->add_option("--depth", f.depth, "hybrid: hits of each list fused")->capture_default_str();
  cmd->add_flag("--keep-stop-words", f.keep_stop_words,
                "Score stop words and question phrasing in the query too");
}

Result<index::RetrieverOptions> ToRetrieverOptions(const RetrievalFlags& f) {
  index::RetrieverOptions o;
  auto mode = index::ParseRetrievalMode(f.mode);
  if (!mode.ok()) return mode.status().WithContext("--mode");
  o.mode = *mode;
  o.glove = f.glove;
  o.embed_url = f.embed_url;
  o.keep_stop_words = f.keep_stop_words;
  if (f.fusion == "rrf") o.fusion.method = index::FusionMethod::kRrf;
  else if (f.fusion == "linear") o.fusion.method = index::FusionMethod::kLinear;
  else return InvalidArgument("--fusion must be rrf or linear, got '" + f.fusion + "'");
  if (!(f.vector_weight >= 0 && f.vector_weight <= 1))
    return InvalidArgument("--vector-weight must be in [0, 1]");
  if (!(f.rrf_k >= 0)) return InvalidArgument("--rrf-k must be >= 0");
  if (f.depth == 0 || f.depth > 10000) return InvalidArgument("--depth must be in 1..10000");
  o.fusion.vector_weight = f.vector_weight;
  o.fusion.rrf_k = f.rrf_k;
  o.depth = f.depth;
  return o;
}

void AddRankingFlags(CLI::App* cmd, RankingFlags& f) {
  cmd->add_option("--ranking", f.file,
                  "Ranking parameters JSON ({\"k1\", \"proximity\", \"fields\": {...}}) "
                  "instead of the index manifest's");
  cmd->add_option("--k1", f.k1, "BM25F k1");
  cmd->add_option("--proximity", f.proximity, "Weight of the adjacent-words bonus (0: off)");
  cmd->add_option("--field-weight", f.weights, "field=weight, e.g. title=3 (repeatable)");
  cmd->add_option("--field-b", f.bs, "field=b, length normalisation in [0, 1] (repeatable)");
  cmd->add_option("--param", f.params,
                  "name=value for any ranking parameter: data_k1, correction, fuzzy, <field>.data (0/1), ... "
                  "(repeatable)");
}

Result<std::optional<index::RankingParams>> ApplyRankingFlags(const RankingFlags& f,
                                                              const index::Schema& schema,
                                                              const index::RankingParams& base) {
  if (!f.any()) return std::optional<index::RankingParams>();
  index::RankingParams p = base;
  if (!f.file.empty()) {
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(f.file));
    LAKEQA_ASSIGN_OR_RETURN(Json j, ParseJson(text, f.file));
    // `lakeqa eval tune --out` writes its whole report; its "best" ranking is what to use.
    if (j.is_object() && j.contains("best") && j["best"].is_object() && j["best"].contains("ranking"))
      j = j["best"]["ranking"];
    auto read = index::RankingParams::FromJson(j, schema, p);
    if (!read.ok()) return read.status().WithContext(f.file);
    p = std::move(*read);
  }
  if (f.k1) LAKEQA_RETURN_IF_ERROR(p.Set("k1", *f.k1));
  if (f.proximity) LAKEQA_RETURN_IF_ERROR(p.Set("proximity", *f.proximity));
  for (const auto& [flag, list, what] :
       {std::tuple{"--field-weight", &f.weights, ".weight"}, std::tuple{"--field-b", &f.bs, ".b"},
        std::tuple{"--param", &f.params, ""}}) {
    for (const std::string& kv : *list) {
      size_t eq = kv.find('=');
      char* end = nullptr;
      double v = eq == std::string::npos ? 0 : std::strtod(kv.c_str() + eq + 1, &end);
      if (eq == std::string::npos || eq == 0 || end == kv.c_str() + eq + 1 || *end != '\0')
        return InvalidArgument(std::string(flag) + " '" + kv + "': expected field=number");
      LAKEQA_RETURN_IF_ERROR(p.Set(kv.substr(0, eq) + what, v).WithContext(flag));
    }
  }
  LAKEQA_RETURN_IF_ERROR(p.Validate(schema));
  return std::optional<index::RankingParams>(std::move(p));
}

}  // namespace lakeqa::cli
