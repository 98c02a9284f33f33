// HTML tables as profile columns: every <table> is listed in json_paths ("table[2] <caption>: 387 rows x 9
// columns"), and the one with the most rows gives the profile its columns, types, samples and row count,
// as a spreadsheet's first sheet does. Header cells are the first row's (th or td); a table nested inside
// a cell is a table of its own, not part of its parent's cells.
#include <gumbo.h>

#include <algorithm>

#include "ingest/documents.h"
#include "ingest/value_type.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxCellBytes = 4096;

void CellText(const GumboNode* node, std::string& out) {
  if (out.size() >= kMaxCellBytes) return;
  if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_CDATA ||
      node->type == GUMBO_NODE_WHITESPACE) {
    out.append(node->v.text.text);
    return;
  }
  if (node->type != GUMBO_NODE_ELEMENT) return;
  GumboTag tag = node->v.element.tag;
  if (tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE || tag == GUMBO_TAG_TABLE) return;
  if (tag == GUMBO_TAG_BR) out += ' ';
  const GumboVector& ch = node->v.element.children;
  for (unsigned i = 0; i < ch.length; ++i) CellText(static_cast<const GumboNode*>(ch.data[i]), out);
}

// A cell's text: whitespace runs → one space, bounded, valid UTF-8.
std::string CellValue(std::string_view s) { return SanitizeUtf8(TruncateUtf8(Squeeze(s), kMaxCellBytes)); }

struct Table {
  std::string caption;
  std::vector<std::vector<std::string>> rows;
  bool header_th = false;  // the first row is all <th>
};

void CollectRows(const GumboNode* node, Table& t) {
  const GumboVector& ch = node->v.element.children;
  for (unsigned i = 0; i < ch.length; ++i) {
    auto* c = static_cast<const GumboNode*>(ch.data[i]);
    if (c->type != GUMBO_NODE_ELEMENT) continue;
    GumboTag tag = c->v.element.tag;
    if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
      CollectRows(c, t);
    } else if (tag == GUMBO_TAG_CAPTION) {
      std::string text;
      CellText(c, text);
      t.caption = CellValue(text);
    } else if (tag == GUMBO_TAG_TR) {
      std::vector<std::string> cells;
      bool all_th = true;
      const GumboVector& cc = c->v.element.children;
      for (unsigned j = 0; j < cc.length; ++j) {
        auto* cell = static_cast<const GumboNode*>(cc.data[j]);
        if (cell->type != GUMBO_NODE_ELEMENT) continue;
        GumboTag ct = cell->v.element.tag;
        if (ct != GUMBO_TAG_TD && ct != GUMBO_TAG_TH) continue;
        all_th = all_th && ct == GUMBO_TAG_TH;
        std::string text;
        CellText(cell, text);
        cells.push_back(CellValue(text));
      }
      if (cells.empty()) continue;
      if (t.rows.empty()) t.header_th = all_th;
      t.rows.push_back(std::move(cells));
    }
  }
}

void FindTables(const GumboNode* node, std::vector<Table>& out, size_t max_tables) {
  if (node->type != GUMBO_NODE_ELEMENT || out.size() >= max_tables) return;
  if (node->v.element.tag == GUMBO_TAG_TABLE) {
    Table t;
    CollectRows(node, t);
    out.push_back(std::move(t));
  }
  const GumboVector& ch = node->v.element.children;
  for (unsigned i = 0; i < ch.length; ++i)
    FindTables(static_cast<const GumboNode*>(ch.data[i]), out, max_tables);
}

}  // namespace

void ProfileHtmlTables(std::string_view html, const ProfileOptions& options, FileProfile& out) {
  GumboOutput* doc = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  std::vector<Table> tables;
  FindTables(doc->root, tables, 10000);
  gumbo_destroy_output(&kGumboDefaultOptions, doc);
  if (tables.empty()) return;
  size_t best = 0;
  for (size_t i = 0; i < tables.size(); ++i) {
    size_t width = 0;
    for (const auto& r : tables[i].rows) width = std::max(width, r.size());
    if (out.json_paths.size() < options.max_json_paths) {
      std::string label = "table[" + std::to_string(i) + "]";
      if (!tables[i].caption.empty()) label += " " + std::string(TruncateUtf8(tables[i].caption, 200));
      label += ": " + std::to_string(tables[i].rows.size()) + " rows x " + std::to_string(width) + " columns";
      out.json_paths.push_back(std::move(label));
    }
    if (tables[i].rows.size() > tables[best].rows.size()) best = i;
  }
  const Table& t = tables[best];
  if (t.rows.empty()) return;
  std::vector<ColumnAccumulator> cols;
  const auto& head = t.rows[0];
  for (size_t i = 0; i < head.size() && i < options.max_columns; ++i) {
    cols.emplace_back(head[i].empty() ? "column" + std::to_string(i + 1) : head[i],
                      options.max_samples_per_column, options.max_sample_value_bytes);
  }
  uint64_t rows = 0;
  for (size_t r = 1; r < t.rows.size(); ++r) {
    ++rows;
    for (size_t i = 0; i < t.rows[r].size() && i < cols.size(); ++i) cols[i].Add(t.rows[r][i]);
  }
  out.has_header = true;
  out.rows = rows;
  for (const auto& c : cols) out.columns.push_back(c.Build());
  if (tables.size() > 1) {
    out.warnings.push_back("HTML with " + std::to_string(tables.size()) +
                           " tables: columns are those of table[" + std::to_string(best) +
                           "] (the most rows); json_paths lists them all");
  }
}

}  // namespace lakeqa::ingest
