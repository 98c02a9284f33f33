// OpenEmbedder (embedder.h): one place that turns a user's choice of embedder into an Embedder.
#include "lakeqa/index/embedder.h"

namespace lakeqa::index {

Result<std::unique_ptr<Embedder>> OpenEmbedder(const EmbedderChoice& c) {
  if (c.use_http) {
    if (c.http.base_url.empty()) return InvalidArgument("no base URL for the embeddings server");
    LAKEQA_ASSIGN_OR_RETURN(auto h, HttpEmbedder::Create(c.http));
    return std::unique_ptr<Embedder>(std::move(h));
  }
  std::string path = c.glove_path.empty() ? DefaultGlovePath(".") : c.glove_path;
  auto g = GloveEmbedder::Open(path);
  if (!g.ok())
    return g.status().WithContext(
        "GloVe vectors (--glove <file> or $LAKEQA_GLOVE, default .deps/glove/glove100.bin, "
        "made by scripts/setup)");
  return std::unique_ptr<Embedder>(std::move(*g));
}

}  // namespace lakeqa::index
