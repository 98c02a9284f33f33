#include "lakeqa/index/retriever.h"

#include <cstdlib>
#include <unordered_map>

#include "index/postings.h"
#include "index/segment.h"
#include "lakeqa/catalog/index_dir.h"

namespace lakeqa::index {

Result<RetrievalMode> ParseRetrievalMode(std::string_view name) {
  if (name == "bm25") return RetrievalMode::kBm25;
  if (name == "vector") return RetrievalMode::kVector;
  if (name == "hybrid") return RetrievalMode::kHybrid;
  return InvalidArgument("mode must be bm25, vector or hybrid, got '" + std::string(name) + "'");
}

std::string_view RetrievalModeName(RetrievalMode mode) {
  switch (mode) {
    case RetrievalMode::kBm25: return "bm25";
    case RetrievalMode::kVector: return "vector";
    case RetrievalMode::kHybrid: return "hybrid";
  }
  return "bm25";
}

Result<std::unique_ptr<Embedder>> OpenQueryEmbedder(const VectorIndex& vi, const RetrieverOptions& o) {
  // The index's manifest names the embedder its vectors came from; the query must be embedded by the same
  // one, so only where to find it (the GloVe file, the server's URL) comes from the options.
  const std::string& name = vi.options().embedder;
  EmbedderChoice choice;
  if (name.rfind("glove", 0) == 0) {
    choice.glove_path = o.glove;
    if (choice.glove_path.empty()) {
      const char* env = std::getenv("LAKEQA_GLOVE");
      if (env == nullptr || !*env)
        return InvalidArgument("the vector index was embedded with " + name +
                               ": pass --glove <glove100.bin> or set LAKEQA_GLOVE");
      choice.glove_path = env;
    }
  } else if (name.rfind("http:", 0) == 0) {
    if (o.embed_url.empty())
      return InvalidArgument("the vector index was embedded with " + name + ": pass --embed-url <base url>");
    choice.use_http = true;
    choice.http.base_url = o.embed_url;
    choice.http.model = name.substr(5);
    choice.http.dim = vi.dim();
  } else {
    return Unsupported("vector index embedded with unknown embedder '" + name + "'");
  }
  LAKEQA_ASSIGN_OR_RETURN(std::unique_ptr<Embedder> e, OpenEmbedder(choice));
  LAKEQA_RETURN_IF_ERROR(vi.CheckEmbedder(*e));
  return e;
}

Result<std::unique_ptr<Retriever>> Retriever::Open(const std::string& index_dir,
                                                   const RetrieverOptions& options) {
  std::unique_ptr<Retriever> r(new Retriever());
  r->options_ = options;
  const catalog::IndexDir dir(index_dir);
  auto reader = IndexReader::Open(dir.Text());
  if (!reader.ok()) {
    if (reader.status().code() == ErrorCode::kNotFound)
      return NotFound("no text index at " + dir.Text() + " (run `lakeqa index build` without --no-text)");
    return reader.status();
  }
  r->reader_ = *reader;
  LAKEQA_ASSIGN_OR_RETURN(r->duplicates_, NearDuplicates::Load(index_dir));
  r->searcher_ = std::make_unique<Searcher>(r->reader_, QueryAnalyzerOptions(options.keep_stop_words));
  if (options.mode != RetrievalMode::kBm25) {
    auto vi = VectorIndex::Load(dir.Vectors());
    if (!vi.ok())
      return vi.status().WithContext(
          "vector index (build it with `lakeqa index build --vectors glove|http:<url>`)");
    r->vectors_ = std::move(*vi);
    LAKEQA_ASSIGN_OR_RETURN(r->embedder_, OpenQueryEmbedder(*r->vectors_, options));
  }
  return r;
}

Result<std::optional<Hit>> Retriever::Lookup(const std::string& id) {
  const Schema& schema = reader_->schema();
  std::string key(1, kIdFieldByte);
  key += id;
  std::string_view stored_id;
  std::vector<std::pair<int, std::string_view>> stored;
  for (size_t s = 0; s < reader_->num_segments(); ++s) {
    const Segment& seg = reader_->segment(s);
    int64_t t = seg.Find(key);
    if (t < 0) continue;
    PostingCursor c;
    for (c.Init(seg, seg.Info(static_cast<uint32_t>(t))); c.doc() != PostingCursor::kEnd; c.Next()) {
      if (reader_->deletes(s).Get(c.doc())) continue;
      LAKEQA_RETURN_IF_ERROR(seg.Stored(c.doc(), &stored_id, &stored));
      Hit h;
      h.id = id;
      for (const auto& [f, v] : stored) {
        if (f >= 0 && static_cast<size_t>(f) < schema.fields().size())
          h.fields.emplace_back(schema.fields()[f].name, std::string(v));
      }
      return std::optional<Hit>(std::move(h));
    }
  }
  return std::optional<Hit>();
}

Result<SearchResult> Retriever::Search(std::string_view query, const SearchOptions& options) {
  std::vector<Correction> corrections;
  LAKEQA_ASSIGN_OR_RETURN(Query q, searcher_->Parse(query, &corrections, options.ranking));
  LAKEQA_ASSIGN_OR_RETURN(SearchResult r, Search(query, q, options));
  r.corrections = std::move(corrections);
  return r;
}

Result<SearchResult> Retriever::Search(std::string_view text, const Query& query,
                                       const SearchOptions& options) {
  if (!options_.collapse || duplicates_.size() == 0) return Ranked(text, query, options);
  return SearchCollapsed(duplicates_, options,
                         [&](const SearchOptions& so) { return Ranked(text, query, so); });
}

Result<SearchResult> Retriever::Ranked(std::string_view text, const Query& query,
                                       const SearchOptions& options) {
  if (options_.mode == RetrievalMode::kBm25) return searcher_->Search(query, options);
  if (!query.filters.empty() || !options.facet_fields.empty())
    return InvalidArgument("filters and facets work with mode bm25 only");
  LAKEQA_ASSIGN_OR_RETURN(auto qv, embedder_->Embed({std::string(text)}));
  size_t want = options.k + options.offset;
  size_t depth = options_.mode == RetrievalMode::kHybrid ? std::max(want, options_.depth) : want;
  LAKEQA_ASSIGN_OR_RETURN(auto vh, vectors_->Search(qv[0], depth));
  SearchResult out;
  std::unordered_map<std::string, Hit> text_hits;
  std::vector<FusedItem> ranked;
  if (options_.mode == RetrievalMode::kVector) {
    for (const auto& h : vh) ranked.push_back({h.id, h.score, {}, {}});
  } else {
    SearchOptions so = options;
    so.k = depth;
    so.offset = 0;
    so.count_total = false;
    LAKEQA_ASSIGN_OR_RETURN(SearchResult tr, searcher_->Search(query, so));
    out.dropped = tr.dropped;
    out.note = tr.note;
    std::vector<RankedItem> t, v;
    for (auto& h : tr.hits) {
      t.push_back({h.id, h.score});
      text_hits.emplace(h.id, std::move(h));
    }
    for (const auto& h : vh) v.push_back({h.id, h.score});
    HybridOptions ho = options_.fusion;
    ho.limit = want;
    LAKEQA_ASSIGN_OR_RETURN(ranked, FuseTextAndVectors(std::move(t), std::move(v), ho));
  }
  for (size_t i = options.offset; i < ranked.size() && i < want; ++i) {
    auto it = text_hits.find(ranked[i].id);
    Hit h;
    if (it != text_hits.end()) {
      h = std::move(it->second);
    } else {
      LAKEQA_ASSIGN_OR_RETURN(auto found, Lookup(ranked[i].id));
      if (!found) continue;  // in the vector index but no longer in the text index: stale vectors
      h = std::move(*found);
    }
    h.score = ranked[i].score;
    out.hits.push_back(std::move(h));
  }
  return out;
}

}  // namespace lakeqa::index
