#include "lakeqa/index/paragraphs.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "lakeqa/catalog/catalog.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/catalog_docs.h"
#include "lakeqa/index/index.h"
#include "lakeqa/index/sources.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {

std::vector<Paragraph> PageParagraphs(std::string_view text, std::string_view title,
                                      const ParagraphOptions& o, ParagraphCuts* cuts) {
  std::vector<Paragraph> out;
  const std::string folded_title = text::FoldKeyword(title);
  int64_t i = 0;
  for (auto line : Split(text, '\n')) {
    std::string_view l = Trim(line);
    bool unit = !l.empty() && !StartsWith(l, "Section::::") && !StartsWith(l, "BULLET::::") &&
                !(i == 0 && !folded_title.empty() && text::FoldKeyword(l) == folded_title);
    if (unit) {
      if (out.size() >= o.max_paragraphs_per_page) {
        if (cuts != nullptr) ++cuts->paragraphs;
      } else {
        std::string_view kept = TruncateUtf8(l, o.max_paragraph_bytes);
        if (kept.size() < l.size() && cuts != nullptr) ++cuts->bytes;
        out.push_back({i, std::string(kept)});
      }
    }
    ++i;
  }
  return out;
}

Schema ParagraphSchema() {
  return Schema({
      {.name = "text", .text = true, .keyword = false, .weight = 1.0, .stored = true, .b = 0.75},
      {.name = "title", .text = true, .keyword = false, .weight = 1.0, .stored = true, .b = 0.75},
      {.name = "page", .text = false, .keyword = true, .weight = 1.0, .stored = true, .b = 0.75},
      {.name = "paragraph", .text = false, .keyword = false, .weight = 1.0, .stored = true, .b = 0.75},
  });
}

std::string ParagraphDocId(std::string_view page, int64_t paragraph) {
  return std::string(page) + "#" + std::to_string(paragraph);
}

Json ParagraphBuildReport::ToJson() const {
  Json files = Json::array();
  for (const auto& e : errors) files.push_back({{"file", e.file}, {"error", e.message}});
  return {{"pages", pages},         {"paragraphs", paragraphs}, {"errors", errors.size()},
          {"error_files", files},   {"no_text", no_text},       {"cut_paragraphs", cut.paragraphs},
          {"cut_bytes", cut.bytes}, {"written", written},       {"rebuilt", rebuilt}};
}

namespace {

// The files holding a page's text: its content.txt, else its text files in path order.
std::vector<const catalog::FileRecord*> PageFiles(const std::vector<catalog::FileRecord>& files) {
  std::vector<const catalog::FileRecord*> out;
  for (const auto& f : files) {
    if (f.path == "content.txt") return {&f};
  }
  for (const auto& f : files) {
    if (!f.is_metadata && f.format == "text") out.push_back(&f);
  }
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->path < b->path; });
  return out;
}

// Reads up to `budget` bytes of the file; a file longer than that ends at its last whole line.
Result<std::string> ReadPageText(lake::Store& store, const catalog::FileRecord& f, uint64_t budget) {
  LAKEQA_ASSIGN_OR_RETURN(std::string text, store.ReadRange(f.key, 0, budget + 1));
  if (text.size() > budget) {
    size_t nl = text.rfind('\n', budget);
    text.resize(nl == std::string::npos ? 0 : nl + 1);
  }
  if (size_t nul = text.find('\0'); nul != std::string::npos)
    return Corrupt("not a text file (NUL byte at offset " + std::to_string(nul) + ")");
  return text;
}

// What the paragraph index is built from: every doc-source page's id, title and text files (key, size, etag,
// mtime) and the bounds. Equal to the last build's: the index is kept as it is.
Result<uint64_t> PagesFingerprint(catalog::Catalog& catalog, const ParagraphOptions& o) {
  uint64_t h = Fingerprint(
      Document{"bounds",
               {{std::to_string(o.max_paragraphs_per_page), std::to_string(o.max_paragraph_bytes)},
                {std::to_string(o.max_page_bytes), ""}}});
  Status s = catalog.ForEachDataset(
      [&](const catalog::DatasetRecord& d, const std::vector<catalog::FileRecord>& files) {
        if (SourceOfDataset(d, files) != "doc") return Status::Ok();
        Document page{d.FullId(), {{"title", d.metadata.title}}};
        for (const auto* f : PageFiles(files))
          page.Add(f->key, std::to_string(f->size) + " " + f->etag + " " + std::to_string(f->mtime_ms));
        h = (h ^ Fingerprint(page)) * 1099511628211ull;
        return Status::Ok();
      });
  LAKEQA_RETURN_IF_ERROR(s);
  return h;
}

constexpr const char* kStateFile = "build.json";  // {"fingerprint": hex, "report": the build report}

}  // namespace

Result<ParagraphBuildReport> BuildParagraphIndex(catalog::Catalog& catalog, lake::Store& store,
                                                 const std::string& index_dir, const ParagraphOptions& o) {
  ParagraphBuildReport r;
  const std::string dir = catalog::IndexDir(index_dir).Paragraphs();
  const std::string tmp = dir + ".tmp";
  LAKEQA_ASSIGN_OR_RETURN(uint64_t fp, PagesFingerprint(catalog, o));
  const std::string fp_hex = fmt::format("{:016x}", fp);
  // Kept when nothing it is built from changed and the last build read every page (a page that failed to
  // read, perhaps for a passing reason, is tried again).
  if (auto raw = ReadFile(dir + "/" + kStateFile, 1 << 20);
      raw.ok() && PathExists(dir + "/" + std::string(kManifestName))) {
    auto st = ParseJson(*raw, kStateFile);
    if (st.ok() && st->is_object() && st->value("fingerprint", "") == fp_hex && st->contains("report")) {
      const Json& last = (*st)["report"];
      if (last.value("errors", uint64_t{1}) == 0) {
        r.pages = last.value("pages", uint64_t{0});
        r.paragraphs = last.value("paragraphs", uint64_t{0});
        r.no_text = last.value("no_text", uint64_t{0});
        r.cut.paragraphs = last.value("cut_paragraphs", uint64_t{0});
        r.cut.bytes = last.value("cut_bytes", uint64_t{0});
        r.written = true;
        return r;
      }
    }
  }
  if (PathExists(tmp)) LAKEQA_RETURN_IF_ERROR(RemoveAll(tmp));
  std::unique_ptr<IndexWriter> writer;  // opened at the first unit: a lake without pages writes nothing
  Status s = catalog.ForEachDataset([&](const catalog::DatasetRecord& d,
                                        const std::vector<catalog::FileRecord>& files) {
    if (SourceOfDataset(d, files) != "doc") return Status::Ok();
    auto page_files = PageFiles(files);
    if (page_files.empty()) {
      ++r.no_text;
      return Status::Ok();
    }
    std::string text;
    for (const auto* f : page_files) {
      uint64_t left = o.max_page_bytes > text.size() ? o.max_page_bytes - text.size() : 0;
      if (left == 0) break;
      auto t = ReadPageText(store, *f, left);
      if (!t.ok()) {
        r.errors.push_back({f->key, t.status().message()});
        return Status::Ok();
      }
      if (!text.empty() && text.back() != '\n') text += '\n';
      text += *t;
    }
    const std::string page = d.FullId();
    const std::string& title = d.metadata.title.empty() ? d.dataset_id : d.metadata.title;
    auto units = PageParagraphs(text, title, o, &r.cut);
    if (units.empty()) return Status::Ok();
    if (!writer) {
      LAKEQA_RETURN_IF_ERROR(MakeDirs(tmp));
      LAKEQA_ASSIGN_OR_RETURN(writer, IndexWriter::Open(tmp, ParagraphSchema()));
    }
    ++r.pages;
    for (const auto& p : units) {
      Document doc;
      doc.id = ParagraphDocId(page, p.id);
      doc.Add("text", p.text).Add("title", title).Add("page", page).Add("paragraph", std::to_string(p.id));
      LAKEQA_RETURN_IF_ERROR(writer->Add(doc).WithContext(doc.id));
      ++r.paragraphs;
    }
    return Status::Ok();
  });
  LAKEQA_RETURN_IF_ERROR(s.WithContext("paragraph index"));
  if (PathExists(dir)) LAKEQA_RETURN_IF_ERROR(RemoveAll(dir));
  if (!writer) return r;
  LAKEQA_RETURN_IF_ERROR(writer->Merge().WithContext(tmp));  // commits, then one segment
  writer.reset();                                            // releases write.lock
  r.written = r.rebuilt = true;
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(
      tmp + "/" + kStateFile, DumpJson(Json{{"fingerprint", fp_hex}, {"report", r.ToJson()}}, 2) + "\n"));
  std::error_code ec;
  std::filesystem::rename(tmp, dir, ec);
  if (ec) return IoError("renaming " + tmp + " to " + dir + ": " + ec.message());
  return r;
}

}  // namespace lakeqa::index
