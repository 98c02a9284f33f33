// The `index build` pipeline: catalog → text (and chunk) index → sources, graph, paragraphs → vectors.
#include "lakeqa/graph/index_pipeline.h"
#include "lakeqa/catalog/index_dir.h"

#include <memory>

#include "lakeqa/common/fs.h"
#include "lakeqa/index/embedder.h"
#include "lakeqa/index/schema.h"
#include "lakeqa/index/vector_index.h"

namespace lakeqa::graph {
namespace {

// The document embedder named by options.vectors: "glove" (the GloVe binary) or "http:<base url>".
Result<std::unique_ptr<index::Embedder>> MakeEmbedder(const IndexBuildOptions& o) {
  index::EmbedderChoice c;
  if (o.vectors == "glove") {
    c.glove_path = o.glove;
    return index::OpenEmbedder(c);
  }
  if (o.vectors.rfind("http:", 0) == 0 && o.vectors.size() > 5) {
    c.use_http = true;
    c.http.base_url = o.vectors.substr(5);
    c.http.model = o.embed_model;
    c.http.api_key_env = o.embed_key_env;
    return index::OpenEmbedder(c);
  }
  return InvalidArgument(
      "--vectors must be 'glove' or 'http:<base url>' (e.g. http:http://127.0.0.1:8080), got '" + o.vectors +
      "'");
}

// Whether <index>/vectors/ already embeds exactly the current text index with this embedder: its
// manifest names the embedder and the text build changed nothing. The vector index has no incremental
// update (an HNSW graph does not delete well), so any change re-embeds everything.
bool VectorsUpToDate(const std::string& index_dir, const std::string& embedder,
                     const std::optional<index::TextBuildReport>& text) {
  if (!text || text->added || text->updated || text->deleted) return false;
  const std::string path = catalog::IndexDir(index_dir).VectorsManifest();
  auto raw = ReadFile(path, 1 << 20);
  if (!raw.ok()) return false;
  auto m = ParseJson(*raw, path);
  if (!m.ok() || !m->is_object()) return false;
  auto e = m->find("embedder");
  auto c = m->find("count");
  return e != m->end() && e->is_string() && *e == embedder && c != m->end() && c->is_number_unsigned() &&
         c->get<uint64_t>() == text->datasets;
}

Result<catalog::BuildReport> BuildCatalogStep(lake::Store& store, catalog::ProfileMode mode,
                                              const IndexBuildOptions& o) {
  catalog::BuildOptions bo;
  bo.force_other_lake = o.force_other_lake;
  bo.mode = mode;
  bo.jobs = o.jobs;
  bo.progress = o.progress;
  bo.debug_kill_after_batches = o.debug_kill_after_batches;
  bo.on_estimate = o.on_estimate;
  if (o.chunks) LAKEQA_RETURN_IF_ERROR(o.chunk.Validate());
  LAKEQA_ASSIGN_OR_RETURN(catalog::BuildReport report, catalog::BuildCatalog(store, o.index_dir, bo));
  if (o.on_warning) {
    for (const std::string& w : report.warnings) o.on_warning(w);
  }
  return report;
}

Result<index::TextBuildReport> BuildTextStep(const IndexBuildOptions& o) {
  LAKEQA_ASSIGN_OR_RETURN(auto cat, catalog::Catalog::Open(catalog::IndexDir(o.index_dir).Catalog()));
  index::TextBuildOptions to;
  to.text = o.text;
  to.chunks = o.chunks;
  to.chunk = o.chunk;
  to.progress = o.progress;
  to.rebuild = o.rebuild_text;
  to.ranking = o.ranking;
  auto tr = index::BuildTextIndex(*cat, o.index_dir, to);
  if (!tr.ok()) return tr.status().WithContext("text index of " + o.index_dir);
  return tr;
}

// Sources and summaries (CMDBench's routing), the graph view of Neo4j-import files (docs/cmdbench.md) and
// the paragraph units of the doc-source pages (<index>/paragraphs/, rebuilt whole when a page changed).
Status BuildDerivedSteps(lake::Store& store, const IndexBuildOptions& o, IndexBuildReport& r) {
  const std::string& dir = o.index_dir;
  LAKEQA_ASSIGN_OR_RETURN(auto cat,
                          catalog::Catalog::Open(catalog::IndexDir(dir).Catalog(), /*read_only=*/true));
  auto ss = index::BuildSourceSummaries(*cat, dir);
  if (!ss.ok()) return ss.status().WithContext("source summaries of " + dir);
  r.sources = std::move(*ss);
  auto gr = BuildLakeGraph(*cat, store, catalog::IndexDir(dir).Graph());
  if (!gr.ok()) return gr.status().WithContext("graph of " + dir);
  r.graph = std::move(*gr);
  if (o.text) {
    auto pr = index::BuildParagraphIndex(*cat, store, dir);
    if (!pr.ok()) return pr.status().WithContext("paragraph index of " + dir);
    r.paragraphs = std::move(*pr);
  }
  return Status::Ok();
}

Result<VectorBuildSummary> BuildVectorsStep(index::Embedder& embedder, const IndexBuildOptions& o,
                                            const std::optional<index::TextBuildReport>& text) {
  VectorBuildSummary v;
  v.embedder = embedder.name();
  if (VectorsUpToDate(o.index_dir, v.embedder, text)) {
    v.documents = text->datasets;
    return v;
  }
  if (o.on_note)
    o.on_note("embedding every dataset with " + v.embedder + " (the vector index is rebuilt whole)");
  auto vr = index::BuildDatasetVectors(o.index_dir, embedder);
  if (!vr.ok()) return vr.status().WithContext("vector index of " + o.index_dir);
  v.rebuilt = true;
  v.documents = vr->documents;
  v.empty = vr->empty;
  return v;
}

}  // namespace

Json VectorBuildSummary::ToJson() const {
  Json j = {{"embedder", embedder}, {"rebuilt", rebuilt}, {"documents", documents}};
  if (rebuilt) j["empty"] = empty;
  return j;
}

Json IndexBuildReport::ToJson() const {
  Json j = catalog.ToJson();
  j["index"] = index_dir;
  j["lake"] = lake;
  if (text) j["text"] = text->ToJson();
  if (vectors) j["vectors"] = vectors->ToJson();
  Json src = Json::object();
  for (const auto& x : sources.sources) src[x.name] = x.datasets;
  j["sources"] = src;
  j["graph"] = graph.ToJson();
  if (paragraphs) j["paragraphs"] = paragraphs->ToJson();
  return j;
}

Result<IndexBuildReport> BuildIndex(lake::Store& store, const IndexBuildOptions& o) {
  std::unique_ptr<index::Embedder> embedder;
  if (!o.vectors.empty()) {
    // Before the crawl: a bad `vectors` or a missing GloVe file fails fast, not after the whole build.
    auto e = MakeEmbedder(o);
    if (!e.ok()) return e.status().WithContext("--vectors");
    embedder = std::move(*e);
  }
  std::string profile = o.profile == "auto" ? (store.IsRemote() ? "head" : "full") : o.profile;
  LAKEQA_ASSIGN_OR_RETURN(catalog::ProfileMode mode, catalog::ParseProfileMode(profile));
  catalog::FirstBuildCleanup cleanup(o.index_dir);
  IndexBuildReport r;
  r.index_dir = o.index_dir;
  r.lake = store.Uri();
  LAKEQA_ASSIGN_OR_RETURN(r.catalog, BuildCatalogStep(store, mode, o));
  if (o.text || o.chunks) {
    LAKEQA_ASSIGN_OR_RETURN(index::TextBuildReport text, BuildTextStep(o));
    r.text = std::move(text);
  }
  LAKEQA_RETURN_IF_ERROR(BuildDerivedSteps(store, o, r));
  if (embedder) {
    LAKEQA_ASSIGN_OR_RETURN(VectorBuildSummary v, BuildVectorsStep(*embedder, o, r.text));
    r.vectors = std::move(v);
  }
  cleanup.Succeeded();
  return r;
}

}  // namespace lakeqa::graph
