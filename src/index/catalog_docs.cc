#include "lakeqa/index/catalog_docs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "index/coverage.h"
#include "index/manifest.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/index.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

constexpr std::string_view kStateName = "datasets.state";

// Formats whose text sample is prose (content), as opposed to tables whose columns and values are
// indexed on their own.
bool IsProseFormat(std::string_view f) {
  return f == "text" || f == "html" || f == "pdf" || f == "docx" || f == "xml" || f == "unknown";
}

void AppendBounded(std::string& out, std::string_view s, size_t cap) {
  if (out.size() >= cap || s.empty()) return;
  if (!out.empty()) out += "\n";
  out.append(TruncateUtf8(s, cap - std::min(cap, out.size())));
}

// The string value of "key": "..." in a JSON text that may be cut short (profile text samples are
// bounded), or "" when the key is absent or its value is not a complete string.
std::string JsonStringValue(std::string_view text, std::string_view key) {
  std::string needle = "\"" + std::string(key) + "\"";
  size_t p = text.find(needle);
  while (p != std::string_view::npos) {
    size_t i = p + needle.size();
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    if (i < text.size() && text[i] == ':') {
      ++i;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
      if (i >= text.size() || text[i] != '"') return "";
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      if (j >= text.size()) return "";
      auto v = ParseJson(text.substr(i, j - i + 1), "metadata sample");
      return v.ok() && v->is_string() ? v->get<std::string>() : "";
    }
    p = text.find(needle, p + 1);
  }
  return "";
}

// Title and description from a JSON metadata file the catalog could not read as a dataset record
// (e.g. CMDBench's {"page_title", "section_title", "caption"}): its profile keeps the start of the text.
void FallbackMetadata(const std::vector<catalog::FileRecord>& files, std::string& title,
                      std::string& description) {
  for (const auto& f : files) {
    if (!f.is_metadata || f.metadata || !f.profile) continue;
    auto it = f.profile->find("text_sample");
    if (it == f.profile->end() || !it->is_string()) continue;
    const std::string& sample = it->get_ref<const std::string&>();
    if (title.empty()) {
      for (const char* k : {"title", "name", "page_title", "label", "relation"}) {
        title = JsonStringValue(sample, k);
        if (!title.empty()) break;
      }
      std::string section = JsonStringValue(sample, "section_title");
      if (!section.empty()) title += (title.empty() ? "" : ": ") + section;
    }
    if (description.empty()) {
      for (const char* k : {"description", "notes", "caption"}) {
        description = JsonStringValue(sample, k);
        if (!description.empty()) break;
      }
    }
  }
}

// Folded text for comparing metadata values: "Game log" and "game  log" are the same.
std::string Folded(std::string_view s) { return text::FoldKeyword(s); }

// The title and the parts it was made of ("1999–2000 Toronto Raptors season — Game log" →
// the whole, "1999–2000 Toronto Raptors season", "Game log"), folded.
std::set<std::string> TitleParts(const std::string& title) {
  std::set<std::string> out = {Folded(title)};
  for (std::string_view sep : {" \xE2\x80\x94 ", ": ", " - "}) {
    size_t p = title.find(sep);
    if (p == std::string::npos) continue;
    out.insert(Folded(title.substr(0, p)));
    out.insert(Folded(title.substr(p + sep.size())));
  }
  return out;
}

bool IsDateColumn(const Json& column) {
  std::string name = Folded(column.value("name", ""));
  std::string type = column.value("type", "");
  return type == "date" || type == "datetime" || name.find("date") != std::string::npos ||
         name.find("month") != std::string::npos;
}

}  // namespace

Document DatasetDocument(const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files,
                         const DocOptions& o) {
  Document doc;
  doc.id = d.FullId();
  const ingest::DatasetMetadata& m = d.metadata;
  std::string title = m.title, description = m.description;
  FallbackMetadata(files, title, description);
  // A value that repeats the title (CMDBench's caption is its section title) would count twice.
  std::set<std::string> title_parts = title.empty() ? std::set<std::string>{} : TitleParts(title);
  auto repeats_title = [&](std::string_view v) { return title_parts.count(Folded(v)) > 0; };
  Coverage coverage;
  if (!title.empty()) {
    doc.Add("title", title);
    coverage.AddYears(title);
  }
  if (!description.empty() && !repeats_title(description)) {
    std::string_view desc = TruncateUtf8(description, o.max_description_bytes);
    doc.Add("description", std::string(desc));
    coverage.AddDates(desc, /*numeric_only=*/true);
  }
  for (const auto& t : m.tags) {
    if (!repeats_title(t)) doc.Add("tags", t);
  }
  for (const auto& t : m.themes) {
    if (!repeats_title(t)) doc.Add("theme", t);
  }
  if (!d.category.empty()) doc.Add("category", d.category);
  if (!m.publisher.empty()) doc.Add("publisher", m.publisher);
  doc.Add("namespace", d.ns);

  std::set<std::string> formats;
  size_t names = 0;
  for (const auto& f : files) {
    if (!f.is_metadata && !f.format.empty()) formats.insert(f.format);
    if (names < o.max_files) {
      doc.Add("file_names", f.path);
      ++names;
    }
  }
  for (const auto& f : formats) doc.Add("format", f);

  size_t ncols = std::min(d.columns.size(), o.max_columns);
  for (size_t i = 0; i < ncols; ++i) doc.Add("columns", d.columns[i]);

  // Sampled cell values, one field value per column, round-robin-free: files in key order, columns in
  // order, until the byte budget is spent (the first columns of the first data files matter most).
  size_t value_bytes = 0;
  std::string content;
  uint64_t rows = 0;
  bool rows_known = false, rows_exact = true;
  for (const auto& f : files) {
    if (f.is_metadata || !f.profile) continue;
    const Json& p = *f.profile;
    if (auto cols = p.find("columns"); cols != p.end() && cols->is_array()) {
      if (auto r = p.find("rows"); r != p.end() && r->is_number_unsigned() && !cols->empty()) {
        rows += r->get<uint64_t>();
        rows_known = true;
        rows_exact = rows_exact && p.value("rows_exact", true);
      }
      for (const auto& c : *cols) {
        auto s = c.find("samples");
        if (s == c.end() || !s->is_array()) continue;
        bool dates = IsDateColumn(c);
        std::string joined;
        size_t n = 0;
        for (const auto& v : *s) {
          if (!v.is_string() || n >= o.max_values_per_column) continue;
          if (dates) coverage.AddDates(v.get_ref<const std::string&>(), /*numeric_only=*/false);
          if (!joined.empty()) joined += "; ";
          joined += v.get<std::string>();
          ++n;
        }
        if (joined.empty() || value_bytes >= o.max_values_bytes) continue;
        joined = std::string(TruncateUtf8(joined, o.max_values_bytes - value_bytes));
        value_bytes += joined.size();
        doc.Add("values", std::move(joined));
      }
    }
    if (IsProseFormat(f.format)) {
      if (auto t = p.find("text_sample"); t != p.end() && t->is_string())
        AppendBounded(content, t->get_ref<const std::string&>(), o.max_content_bytes);
    }
  }
  if (!m.temporal.empty()) {
    AppendBounded(content, "temporal coverage: " + m.temporal, o.max_content_bytes);
    coverage.AddYears(m.temporal);
    coverage.AddDates(m.temporal, /*numeric_only=*/false);
  }
  if (!m.spatial.empty() && m.spatial.size() < 200)
    AppendBounded(content, "spatial coverage: " + m.spatial, o.max_content_bytes);
  if (!content.empty()) doc.Add("content", std::move(content));
  if (!coverage.empty()) doc.Add("coverage", coverage.Text());
  if (rows_known) doc.Add("rows", (rows_exact ? "" : ">=") + std::to_string(rows));
  return doc;
}

uint64_t Fingerprint(const Document& doc) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;  // separator no string byte sequence can fake at a boundary position
    h *= 1099511628211ull;
  };
  mix(doc.id);
  for (const auto& [k, v] : doc.fields) {
    mix(k);
    mix(v);
  }
  return h;
}

Status ChunkOptions::Validate() const {
  if (window == 0) return InvalidArgument("chunk window must be at least 1 word");
  if (overlap >= window) return InvalidArgument("chunk overlap must be smaller than the window");
  if (max_words == 0) return InvalidArgument("chunk max words must be at least 1");
  return Status::Ok();
}

Schema ChunkSchema() {
  return Schema({FieldSpec{"dataset", false, true, 1.0, true}, FieldSpec{"namespace", false, true, 1.0, true},
                 FieldSpec{"title", true, false, 2.0, true}, FieldSpec{"text", true, false, 1.0, true}});
}

std::vector<Document> ChunkDocuments(const catalog::DatasetRecord& d,
                                     const std::vector<catalog::FileRecord>& files, const ChunkOptions& co,
                                     const DocOptions& o) {
  Document full = DatasetDocument(d, files, o);
  std::string title;
  auto split = [](std::string_view v, std::vector<std::string_view>& words, size_t cap) {
    size_t i = 0;
    while (i < v.size() && words.size() < cap) {
      while (i < v.size() && (v[i] == ' ' || v[i] == '\n' || v[i] == '\t' || v[i] == '\r')) ++i;
      size_t j = i;
      while (j < v.size() && !(v[j] == ' ' || v[j] == '\n' || v[j] == '\t' || v[j] == '\r')) ++j;
      if (j > i) words.push_back(v.substr(i, j - i));
      i = j;
    }
  };
  // The description is often the lead of the content sample (Wikipedia): chunk that text once.
  std::vector<std::string_view> desc, content;
  for (const auto& [k, v] : full.fields) {
    if (k == "description") split(v, desc, 64);
    if (k == "content") split(v, content, co.max_words);
  }
  bool skip_description =
      !desc.empty() && std::search(content.begin(), content.end(), desc.begin(), desc.end()) != content.end();
  // The dataset's readable text in reading order: metadata first, then columns, values and content.
  std::vector<std::string_view> words;
  for (const char* field : {"title", "description", "tags", "theme", "columns", "values", "content"}) {
    if (skip_description && std::string_view(field) == "description") continue;
    for (const auto& [k, v] : full.fields) {
      if (k != field) continue;
      if (k == "title" && title.empty()) title = v;
      split(v, words, co.max_words);
    }
  }
  std::vector<Document> out;
  size_t step = co.window - co.overlap;
  for (size_t start = 0; start < words.size(); start += step) {
    size_t end = std::min(words.size(), start + co.window);
    std::string text;
    for (size_t i = start; i < end; ++i) {
      if (i > start) text += ' ';
      text.append(words[i]);
    }
    Document c;
    c.id = d.FullId() + "#" + std::to_string(out.size());
    c.Add("dataset", d.FullId()).Add("namespace", d.ns);
    if (!title.empty()) c.Add("title", title);
    c.Add("text", std::move(text));
    out.push_back(std::move(c));
    if (end == words.size()) break;
  }
  return out;
}

Json TextBuildReport::ToJson() const {
  return {{"datasets", datasets},   {"added", added},     {"updated", updated},
          {"unchanged", unchanged}, {"deleted", deleted}, {"chunks", chunks},
          {"merged", merged},       {"seconds", seconds}, {"near_duplicates", near_duplicates.ToJson()}};
}

namespace {

struct StateEntry {
  uint64_t fingerprint = 0;
  uint32_t docs = 0;  // documents this dataset has in the index (1, or its chunk count)
};
using State = std::unordered_map<std::string, StateEntry>;

// "<fingerprint hex>\t<docs>\t<id>\n" per dataset. Ids never hold tabs or newlines (lake keys from the
// builders); a line that does not parse makes the whole index start over rather than guess.
Result<State> ReadState(const std::string& path) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  State st;
  size_t line = 0;
  for (std::string_view l : Split(text, '\n')) {
    ++line;
    if (l.empty()) continue;
    auto parts = Split(l, '\t');
    if (parts.size() != 3)
      return Corrupt(path + ":" + std::to_string(line) + ": expected fingerprint, count, id");
    StateEntry e;
    e.fingerprint = std::strtoull(std::string(parts[0]).c_str(), nullptr, 16);
    e.docs = static_cast<uint32_t>(std::strtoul(std::string(parts[1]).c_str(), nullptr, 10));
    st[std::string(parts[2])] = e;
  }
  return st;
}

Status WriteState(const std::string& path, const State& st) {
  std::vector<const std::pair<const std::string, StateEntry>*> rows;
  rows.reserve(st.size());
  for (const auto& e : st) rows.push_back(&e);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string text;
  char buf[32];
  for (const auto* r : rows) {
    std::snprintf(buf, sizeof buf, "%016llx\t", static_cast<unsigned long long>(r->second.fingerprint));
    text += buf;
    text += std::to_string(r->second.docs);
    text += '\t';
    text += r->first;
    text += '\n';
  }
  return WriteFileAtomic(path, text);
}

// One incrementally maintained index (text or chunks).
class Target {
 public:
  Target(std::string dir, Schema schema, bool chunks)
      : dir_(std::move(dir)), schema_(std::move(schema)), chunks_(chunks) {}

  Status Open(bool rebuild) {
    std::string state_path = dir_ + "/" + std::string(kStateName);
    bool exists = PathExists(dir_ + "/" + std::string(kManifestName));
    bool start_over = rebuild;
    if (exists && !start_over) {
      auto m = ReadManifest(dir_);
      if (!m.ok() || !m->schema.SameLayout(schema_) || m->analysis != kAnalysisVersion) {
        LAKEQA_LOG_WARN("{}: built with another schema or analyzer (or unreadable); rebuilding it", dir_);
        start_over = true;
      } else if (!PathExists(state_path)) {
        LAKEQA_LOG_WARN("{}: no {}; rebuilding it", dir_, kStateName);
        start_over = true;
      } else {
        auto st = ReadState(state_path);
        if (!st.ok()) {
          LAKEQA_LOG_WARN("{}; rebuilding the index", st.status().message());
          start_over = true;
        } else {
          state_ = std::move(*st);
        }
      }
    }
    if (start_over && PathExists(dir_)) LAKEQA_RETURN_IF_ERROR(RemoveAll(dir_));
    LAKEQA_RETURN_IF_ERROR(MakeDirs(dir_));
    LAKEQA_ASSIGN_OR_RETURN(writer_, IndexWriter::Open(dir_, schema_));
    return Status::Ok();
  }

  Status DeleteDocs(const std::string& id, uint32_t docs) {
    if (!chunks_) return writer_->Delete(id).status();
    for (uint32_t i = 0; i < docs; ++i)
      LAKEQA_RETURN_IF_ERROR(writer_->Delete(id + "#" + std::to_string(i)).status());
    return Status::Ok();
  }

  // Adds, replaces or keeps the dataset; `make` builds its documents only when needed.
  Status Visit(const std::string& id, uint64_t fp, const std::function<std::vector<Document>()>& make,
               TextBuildReport& r) {
    seen_.insert(id);
    auto it = state_.find(id);
    if (it != state_.end() && it->second.fingerprint == fp) {
      if (!chunks_) ++r.unchanged;
      return Status::Ok();
    }
    // Delete before every add: after a crash between commit and state write, the index may already
    // hold this id although the state does not know it.
    LAKEQA_RETURN_IF_ERROR(DeleteDocs(id, it != state_.end() ? it->second.docs : (chunks_ ? 0 : 1)));
    std::vector<Document> docs = make();
    for (const auto& d : docs) LAKEQA_RETURN_IF_ERROR(writer_->Add(d).WithContext(id));
    if (chunks_) r.chunks += docs.size();
    else if (it != state_.end()) ++r.updated;
    else ++r.added;
    state_[id] = {fp, static_cast<uint32_t>(docs.size())};
    return Status::Ok();
  }

  Status SetRanking(const RankingParams& ranking) { return writer_->SetRanking(ranking); }

  Status Finish(TextBuildReport& r, size_t max_segments) {
    std::vector<std::string> gone;
    for (const auto& [id, e] : state_) {
      if (!seen_.count(id)) gone.push_back(id);
    }
    for (const auto& id : gone) {
      LAKEQA_RETURN_IF_ERROR(DeleteDocs(id, state_[id].docs));
      state_.erase(id);
      if (!chunks_) ++r.deleted;
    }
    LAKEQA_RETURN_IF_ERROR(writer_->Commit().WithContext(dir_));
    if (max_segments > 0 && writer_->segments().size() > max_segments) {
      LAKEQA_LOG_INFO("{}: merging {} segments into one", dir_, writer_->segments().size());
      LAKEQA_RETURN_IF_ERROR(writer_->Merge().WithContext(dir_));
      ++r.merged;
    }
    writer_.reset();  // releases write.lock
    return WriteState(dir_ + "/" + std::string(kStateName), state_);
  }

 private:
  std::string dir_;
  Schema schema_;
  bool chunks_;
  State state_;
  std::set<std::string> seen_;
  std::unique_ptr<IndexWriter> writer_;
};

}  // namespace

RankingParams DatasetRanking() {
  // `lakeqa eval tune --rounds 2` on tests/data/relevance/nba/dev.json (docs/search.md has the grid and
  // each accepted step): dev P@1 0.626 -> 0.721, MRR 0.767 -> 0.827. Fields the NBA lake leaves empty
  // (tags, theme, category, publisher, file names, content) keep the schema's hand-set values.
  RankingParams p = RankingParams::FromSchema(Schema::Datasets());
  p.k1 = 0.6;
  p.proximity = 1.0;
  p.fields["title"].b = 1.0;
  p.fields["description"].weight = 0.5;
  p.fields["columns"].weight = 0.5;
  p.fields["values"].b = 1.0;
  p.fields["coverage"].weight = 2.0;
  return p;
}

Result<TextBuildReport> BuildTextIndex(catalog::Catalog& catalog, const std::string& index_dir,
                                       const TextBuildOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  if (o.chunks) LAKEQA_RETURN_IF_ERROR(o.chunk.Validate());
  TextBuildReport r;
  std::unique_ptr<Target> text, chunks;
  if (o.text) {
    text = std::make_unique<Target>(catalog::IndexDir(index_dir).Text(), Schema::Datasets(), false);
    LAKEQA_RETURN_IF_ERROR(text->Open(o.rebuild));
    LAKEQA_RETURN_IF_ERROR(
        text->SetRanking(o.ranking ? *o.ranking : DatasetRanking()).WithContext("--ranking"));
  }
  if (o.chunks) {
    chunks = std::make_unique<Target>(catalog::IndexDir(index_dir).Chunks(), ChunkSchema(), true);
    LAKEQA_RETURN_IF_ERROR(chunks->Open(o.rebuild));
  }
  auto stats = catalog.Stats();
  ProgressBar bar("text index", stats.ok() ? stats->datasets : 0, "datasets", o.progress);
  // The chunk fingerprint also covers the window settings, so changing them re-chunks everything.
  uint64_t chunk_salt =
      (o.chunk.window * 1000003ull) ^ (o.chunk.overlap * 7919ull) ^ (o.chunk.max_words << 20);
  Status s = catalog.ForEachDataset(
      [&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
        ++r.datasets;
        bar.Add();
        Document doc = DatasetDocument(d, files, o.docs);
        uint64_t fp = Fingerprint(doc);
        if (text)
          LAKEQA_RETURN_IF_ERROR(text->Visit(
              doc.id, fp, [&] { return std::vector<Document>{doc}; }, r));
        if (chunks) {
          LAKEQA_RETURN_IF_ERROR(chunks->Visit(
              doc.id, fp ^ chunk_salt, [&] { return ChunkDocuments(d, files, o.chunk, o.docs); }, r));
        }
        return Status::Ok();
      });
  bar.Finish();
  LAKEQA_RETURN_IF_ERROR(s.WithContext("reading the catalog"));
  if (text) {
    LAKEQA_RETURN_IF_ERROR(text->Finish(r, o.max_segments));
    LAKEQA_ASSIGN_OR_RETURN(r.near_duplicates, BuildNearDuplicates(catalog, index_dir));
  }
  if (chunks) LAKEQA_RETURN_IF_ERROR(chunks->Finish(r, o.max_segments));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace lakeqa::index
