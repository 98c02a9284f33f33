// Paragraph units of the prose pages of a lake (CMDBench's paragraph discovery, docs/cmdbench.md
// "Documents and paragraphs"): `lakeqa index build` writes <index>/paragraphs/, a text index with one
// document per paragraph of every doc-source dataset (SourceOfDataset), searched with the same Searcher
// and BM25 as the dataset index.
//
// A page's text is its `content.txt` (the layout `lake build --source cmdbench:|enwiki:|dir:` writes for
// Wikipedia pages) or, when it has none, its text files in path order, read as one text. Paragraph id = the
// line's index in that text, as KILT's `text` list: one paragraph per line. Units skip empty lines,
// `Section::::`/`BULLET::::` markers and a first line equal to the page title (KILT's line 0; enwiki's
// content.txt has no title line, so its line 0 is a paragraph), all of them still counted in the numbering.
// HTML, PDF and DOCX pages have no line layout and give no units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/catalog/catalog_fwd.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/schema.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::index {

struct ParagraphOptions {
  size_t max_paragraphs_per_page = 2000;
  size_t max_paragraph_bytes = 8 * 1024;  // a longer paragraph is cut at a UTF-8 boundary
  uint64_t max_page_bytes =
      16ULL << 20;  // bytes read per page; a longer page is read up to its last whole line
};

struct Paragraph {
  int64_t id = 0;  // the line's index in the page text
  std::string text;
};

struct ParagraphCuts {
  uint64_t paragraphs = 0;  // units left out past max_paragraphs_per_page
  uint64_t bytes = 0;       // paragraphs cut to max_paragraph_bytes
};

// The paragraph units of a page text (see above). `title` is the page title ("" when unknown).
std::vector<Paragraph> PageParagraphs(std::string_view text, std::string_view title,
                                      const ParagraphOptions& options = {}, ParagraphCuts* cuts = nullptr);

// Schema of the paragraph index: text (the paragraph), title (the page title; also scored, so a paragraph
// is findable by its page), page (keyword: the dataset id "<namespace>/<dataset>"), paragraph (stored: the
// id).
Schema ParagraphSchema();
// "<namespace>/<dataset>#<paragraph id>".
std::string ParagraphDocId(std::string_view page, int64_t paragraph);

struct ParagraphFileError {
  std::string file;  // the lake key
  std::string message;
};

struct ParagraphBuildReport {
  uint64_t pages = 0;       // doc-source datasets whose text gave at least one unit
  uint64_t paragraphs = 0;  // documents written
  uint64_t no_text = 0;     // doc-source datasets without a text file (HTML, PDF, DOCX only)
  ParagraphCuts cut;
  std::vector<ParagraphFileError> errors;  // pages that could not be read; the build goes on
  bool written = false;  // false: the lake has no doc-source page text, <index>/paragraphs/ removed
  bool rebuilt = false;  // false: kept from the last build (its counts), nothing it is built from changed
  Json ToJson() const;   // {pages, paragraphs, errors, error_files, no_text, cut_paragraphs, cut_bytes,
                         // written, rebuilt}
};

// Rebuilds <index_dir>/paragraphs/ whole from the catalog and the store (written beside and swapped in, so a
// failed build leaves the previous one), unless no doc-source page (id, title, text files' key, size, etag,
// mtime) nor bound changed since the last build and that build read every page: then it is kept. A page that
// cannot be read, or is not text (a NUL byte), is a per-file error in the report. A lake without doc-source
// page text writes none and removes a stale one.
Result<ParagraphBuildReport> BuildParagraphIndex(catalog::Catalog& catalog, lake::Store& store,
                                                 const std::string& index_dir,
                                                 const ParagraphOptions& options = {});

}  // namespace lakeqa::index
