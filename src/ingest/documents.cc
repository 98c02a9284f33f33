#include "ingest/documents.h"

#include <archive.h>
#include <archive_entry.h>
#include <gumbo.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_set>

#include "ingest/subprocess.h"
#include "ingest/value_type.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {

constexpr size_t kMaxEntryBytes = 64u << 20;  // decompressed bytes read from one zip entry
constexpr size_t kMaxZipBytes = 128u << 20;   // decompressed bytes read from one zip in all

void CollectText(GumboNode* node, std::string& out, size_t max_bytes) {
  if (out.size() >= max_bytes) return;
  if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_CDATA) {
    std::string_view t = Trim(node->v.text.text);
    if (!t.empty()) {
      if (!out.empty() && out.back() != '\n') out += ' ';
      out.append(t);
    }
    return;
  }
  if (node->type != GUMBO_NODE_ELEMENT) return;
  GumboTag tag = node->v.element.tag;
  if (tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE || tag == GUMBO_TAG_NOSCRIPT ||
      tag == GUMBO_TAG_TITLE || tag == GUMBO_TAG_TEMPLATE) {
    return;
  }
  const GumboVector& children = node->v.element.children;
  for (unsigned i = 0; i < children.length; ++i)
    CollectText(static_cast<GumboNode*>(children.data[i]), out, max_bytes);
  switch (tag) {
    case GUMBO_TAG_P:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_BR:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
      if (!out.empty() && out.back() != '\n') out += '\n';
      break;
    default: break;
  }
}

// A bump allocator for one gumbo parse. Gumbo allocates and frees many small blocks per token (tag
// names, attribute buffers, vectors it grows by copying); with malloc/free that was a fifth of the
// conversion time. Frees are no-ops and the whole arena is reset after the document, so nothing is
// walked by gumbo_destroy_output either. Only for pages up to kArenaMaxInput: with frees ignored the
// arena holds every block ever allocated, a small multiple of the input.
constexpr size_t kArenaMaxInput = 8u << 20;

class GumboArena {
 public:
  static void* Allocate(void* self, size_t size) { return static_cast<GumboArena*>(self)->Take(size); }
  static void Deallocate(void*, void*) {}

  // Rewinds to the first block. The blocks are kept for the next page (fresh ones would cost page
  // faults on every document) unless they add up to more than kKeepBytes.
  void Reset() {
    if (total_ > kKeepBytes) {
      blocks_.clear();
      total_ = 0;
    }
    current_ = 0;
    used_ = 0;
  }

 private:
  struct Block {
    std::unique_ptr<char[]> data;
    size_t size = 0;
  };
  void* Take(size_t size) {
    size = (size + 15) & ~size_t{15};  // malloc's alignment
    while (current_ < blocks_.size() && used_ + size > blocks_[current_].size) {
      ++current_;
      used_ = 0;
    }
    if (current_ == blocks_.size()) {
      size_t n = std::max(size, kBlock);
      blocks_.push_back(Block{std::unique_ptr<char[]>(new char[n]), n});
      total_ += n;
      used_ = 0;
    }
    void* p = blocks_[current_].data.get() + used_;
    used_ += size;
    return p;
  }
  static constexpr size_t kBlock = 1u << 20, kKeepBytes = 16u << 20;
  std::vector<Block> blocks_;
  size_t current_ = 0;  // block being filled
  size_t used_ = 0;     // bytes used in it
  size_t total_ = 0;
};

GumboNode* FindTag(GumboNode* node, GumboTag tag) {
  if (node->type != GUMBO_NODE_ELEMENT) return nullptr;
  if (node->v.element.tag == tag) return node;
  const GumboVector& children = node->v.element.children;
  for (unsigned i = 0; i < children.length; ++i) {
    if (GumboNode* f = FindTag(static_cast<GumboNode*>(children.data[i]), tag)) return f;
  }
  return nullptr;
}

// Elements <tag ...>text</tag> (tag may carry a namespace prefix, e.g. "w:t"), text decoded.
template <typename F>
void ForEachElement(std::string_view xml, std::string_view tag, F&& f) {
  std::string open = "<" + std::string(tag);
  std::string close = "</" + std::string(tag) + ">";
  size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string_view::npos) {
    size_t after = pos + open.size();
    if (after >= xml.size() || (xml[after] != '>' && xml[after] != ' ' && xml[after] != '/')) {
      pos = after;
      continue;
    }
    size_t gt = xml.find('>', after);
    if (gt == std::string_view::npos) return;
    if (xml[gt - 1] == '/') {  // self-closing
      if (!f(xml.substr(pos, gt + 1 - pos), std::string_view())) return;
      pos = gt + 1;
      continue;
    }
    size_t end = xml.find(close, gt);
    if (end == std::string_view::npos) return;
    if (!f(xml.substr(pos, gt + 1 - pos), xml.substr(gt + 1, end - gt - 1))) return;
    pos = end + close.size();
  }
}

std::string Attr(std::string_view open_tag, std::string_view name) {
  std::string pat = " " + std::string(name) + "=\"";
  size_t p = open_tag.find(pat);
  if (p == std::string_view::npos) return "";
  p += pat.size();
  size_t e = open_tag.find('"', p);
  return e == std::string_view::npos ? "" : std::string(open_tag.substr(p, e - p));
}

}  // namespace

size_t XlsxColumnOf(std::string_view ref) {
  size_t col = 0;
  for (char c : ref) {
    if (c < 'A' || c > 'Z') break;
    col = col * 26 + static_cast<size_t>(c - 'A' + 1);
  }
  return col ? col - 1 : 0;
}

std::string Squeeze(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string HtmlToText(std::string_view html, size_t max_bytes) {
  static thread_local GumboArena arena;
  GumboOptions options = kGumboDefaultOptions;
  bool use_arena = html.size() <= kArenaMaxInput;
  if (use_arena) {
    options.allocator = &GumboArena::Allocate;
    options.deallocator = &GumboArena::Deallocate;
    options.userdata = &arena;
  }
  GumboOutput* doc = gumbo_parse_with_options(&options, html.data(), html.size());
  std::string text;
  if (GumboNode* title = FindTag(doc->root, GUMBO_TAG_TITLE)) {
    if (title->v.element.children.length > 0) {
      auto* t = static_cast<GumboNode*>(title->v.element.children.data[0]);
      if (t->type == GUMBO_NODE_TEXT) text = std::string(Trim(t->v.text.text)) + "\n";
    }
  }
  CollectText(doc->root, text, max_bytes);
  if (use_arena) {
    arena.Reset();
  } else {
    gumbo_destroy_output(&options, doc);
  }
  return SanitizeUtf8(TruncateUtf8(text, max_bytes));
}

std::string StripTags(std::string_view xml, size_t max_bytes) {
  std::string out;
  bool in_tag = false;
  for (char c : xml) {
    if (out.size() >= max_bytes * 2) break;
    if (c == '<') {
      in_tag = true;
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (c == '>') {
      in_tag = false;
    } else if (!in_tag) {
      out += c;
    }
  }
  return SanitizeUtf8(TruncateUtf8(Trim(DecodeXmlEntities(out)), max_bytes));
}

std::vector<std::string> XmlElementPaths(std::string_view xml, size_t max_paths, size_t max_scan) {
  constexpr size_t kMaxDepth = 64;
  constexpr size_t kMaxPath = 300;
  xml = xml.substr(0, max_scan);
  std::vector<std::string> paths;
  std::unordered_set<std::string> seen;
  std::vector<std::string> stack;
  std::string path;
  size_t pos = 0;
  while (paths.size() < max_paths && (pos = xml.find('<', pos)) != std::string_view::npos) {
    std::string_view rest = xml.substr(pos);
    auto skip_to = [&](std::string_view end) {
      size_t e = xml.find(end, pos);
      pos = e == std::string_view::npos ? xml.size() : e + end.size();
    };
    if (StartsWith(rest, "<!--")) {
      skip_to("-->");
      continue;
    }
    if (StartsWith(rest, "<![CDATA[")) {
      skip_to("]]>");
      continue;
    }
    if (StartsWith(rest, "<?") || StartsWith(rest, "<!")) {
      skip_to(">");
      continue;
    }
    size_t gt = xml.find('>', pos);
    if (gt == std::string_view::npos) break;
    bool closing = rest.size() > 1 && rest[1] == '/';
    size_t name_start = pos + (closing ? 2 : 1);
    size_t name_end = xml.find_first_of(" \t\r\n/>", name_start);
    std::string name(xml.substr(name_start, std::min(name_end, gt) - name_start));
    bool self_closing = xml[gt - 1] == '/';
    pos = gt + 1;
    if (name.empty()) continue;
    if (closing) {
      // Pop to the matching open tag; a stray close tag is ignored.
      for (size_t i = stack.size(); i-- > 0;) {
        if (stack[i] == name) {
          stack.resize(i);
          break;
        }
      }
      continue;
    }
    path.clear();
    for (const auto& s : stack) path += s + "/";
    path += name;
    if (path.size() <= kMaxPath && seen.insert(path).second) paths.push_back(SanitizeUtf8(path));
    if (!self_closing && stack.size() < kMaxDepth) stack.push_back(std::move(name));
  }
  return paths;
}

void ProfileDocxPart(std::string_view document, const ProfileOptions& options, FileProfile& out) {
  out.format = Format::kDocx;
  std::string text;
  ForEachElement(document, "w:p", [&](std::string_view, std::string_view para) {
    ForEachElement(para, "w:t", [&](std::string_view, std::string_view t) {
      text += DecodeXmlEntities(t);
      return true;
    });
    text += '\n';
    return text.size() < options.text_sample_bytes * 2;
  });
  out.text_sample = SanitizeUtf8(TruncateUtf8(Trim(text), options.text_sample_bytes));
}

void ProfileXlsxParts(std::string_view workbook, std::string_view shared, std::string_view sheet,
                      const ProfileOptions& options, FileProfile& out) {
  out.format = Format::kXlsx;
  ForEachElement(workbook, "sheet", [&](std::string_view tag, std::string_view) {
    out.json_paths.push_back("sheet:" + DecodeXmlEntities(Attr(tag, "name")));
    return out.json_paths.size() < options.max_json_paths;
  });
  std::vector<std::string> strings;
  ForEachElement(shared, "si", [&](std::string_view, std::string_view si) {
    std::string s;
    ForEachElement(si, "t", [&](std::string_view, std::string_view t) {
      s += DecodeXmlEntities(t);
      return true;
    });
    strings.push_back(std::move(s));
    return strings.size() < 1000000;
  });
  std::vector<ColumnAccumulator> cols;
  uint64_t rows = 0;
  bool header = true;
  ForEachElement(sheet, "row", [&](std::string_view, std::string_view row) {
    std::vector<std::string> cells;
    ForEachElement(row, "c", [&](std::string_view tag, std::string_view cell) {
      std::string ref = Attr(tag, "r");
      size_t col = ref.empty() ? cells.size() : XlsxColumnOf(ref);  // r is optional: then cells are in order
      if (col >= options.max_columns) return true;
      if (cells.size() <= col) cells.resize(col + 1);
      std::string type = Attr(tag, "t");
      std::string v;
      if (type == "inlineStr") {
        ForEachElement(cell, "t", [&](std::string_view, std::string_view t) {
          v += DecodeXmlEntities(t);
          return true;
        });
      } else {
        ForEachElement(cell, "v", [&](std::string_view, std::string_view t) {
          v = DecodeXmlEntities(t);
          return false;
        });
        if (type == "s") {
          size_t idx = std::strtoul(v.c_str(), nullptr, 10);
          v = idx < strings.size() ? strings[idx] : "";
        }
      }
      cells[col] = std::move(v);
      return true;
    });
    if (header) {
      for (size_t i = 0; i < cells.size(); ++i) {
        cols.emplace_back(cells[i].empty() ? "column" + std::to_string(i + 1) : SanitizeUtf8(cells[i]),
                          options.max_samples_per_column, options.max_sample_value_bytes);
      }
      header = false;
    } else {
      ++rows;
      for (size_t i = 0; i < cells.size() && i < cols.size(); ++i) cols[i].Add(cells[i]);
    }
    return true;
  });
  out.has_header = true;
  out.rows = rows;
  for (const auto& c : cols) out.columns.push_back(c.Build());
}

Status ProfileZip(std::string_view data, const ProfileOptions& options, FileProfile& out) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), archive_read_free);
  archive_read_support_format_zip(a.get());
  if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK) {
    return ParseError(std::string("corrupt zip: ") + archive_error_string(a.get()));
  }
  std::string workbook, shared, sheet, document;
  bool is_xlsx = false, is_docx = false, have_sheet1 = false;
  size_t total = 0, entries = 0;
  archive_entry* e;
  for (;;) {
    int r = archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      out.warnings.push_back(std::string("zip read error: ") + archive_error_string(a.get()));
      break;
    }
    ++entries;
    std::string name = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
    std::string* dst = nullptr;
    if (name == "xl/workbook.xml") {
      is_xlsx = true;
      dst = &workbook;
    } else if (name == "xl/sharedStrings.xml") dst = &shared;
    else if (name == "xl/worksheets/sheet1.xml") {
      dst = &sheet;
      sheet.clear();
      have_sheet1 = true;
    } else if (!have_sheet1 && sheet.empty() && StartsWith(name, "xl/worksheets/") &&
               EndsWith(name, ".xml") && name.find('/', 14) == std::string::npos)
      dst = &sheet;  // no sheet1.xml (yet): the first sheet met
    else if (name == "word/document.xml") {
      is_docx = true;
      dst = &document;
    }
    if (out.json_paths.size() < options.max_json_paths) out.json_paths.push_back(name);
    if (!dst) continue;
    char buf[65536];
    for (;;) {
      la_ssize_t n = archive_read_data(a.get(), buf, sizeof buf);
      if (n < 0) {
        out.warnings.push_back(name + ": " + archive_error_string(a.get()));
        break;
      }
      if (n == 0) break;
      total += static_cast<size_t>(n);
      if (dst->size() + static_cast<size_t>(n) > kMaxEntryBytes || total > kMaxZipBytes) {
        out.warnings.push_back(name + ": decompressed size exceeds " + std::to_string(kMaxEntryBytes >> 20) +
                               " MiB; read stopped there (zip bomb?)");
        break;
      }
      dst->append(buf, static_cast<size_t>(n));
    }
  }
  if (entries == 0) return ParseError("zip has no readable entries");
  if (is_docx) {
    out.json_paths.clear();
    ProfileDocxPart(document, options, out);
    return Status::Ok();
  }
  if (!is_xlsx) {
    out.format = Format::kZip;
    return Status::Ok();
  }
  out.json_paths.clear();
  ProfileXlsxParts(workbook, shared, sheet, options, out);
  return Status::Ok();
}

Result<std::string> PdfToText(std::string_view pdf, size_t max_bytes, int timeout_ms) {
  LAKEQA_ASSIGN_OR_RETURN(
      CaptureResult r,
      RunCapture({"pdftotext", "-l", "5", "-enc", "UTF-8", "-q", "-", "-"}, pdf, timeout_ms, max_bytes * 2));
  if (r.timed_out)
    return Status(ErrorCode::kTimeout, "pdftotext took longer than " + std::to_string(timeout_ms) + " ms");
  if (r.exit_code != 0) {
    std::string why = r.exit_code == 3 ? "encrypted PDF (permission error)"
                                       : "pdftotext failed (exit " + std::to_string(r.exit_code) + ")";
    return ParseError(why + (r.err.empty() ? "" : ": " + std::string(Trim(r.err.substr(0, 200)))));
  }
  return SanitizeUtf8(TruncateUtf8(Trim(r.out), max_bytes));
}

}  // namespace lakeqa::ingest
