// MediaWiki XML export reader. Page boundaries are found by searching for "<page>" and "</page>": inside
// a page all '<' of the wikitext are escaped as &lt;, so those strings only occur as markup. Each page is
// then parsed by a small tag scanner that checks nesting, so broken XML costs one page, not the dump.
#include <algorithm>
#include <charconv>

#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
namespace {

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Finds "<page>" or "<page " at or after `from`.
size_t FindPageStart(std::string_view s, size_t from) {
  while (true) {
    size_t p = s.find("<page", from);
    if (p == std::string_view::npos || p + 5 >= s.size()) return p;
    char c = s[p + 5];
    if (c == '>' || IsXmlSpace(c)) return p;
    from = p + 5;
  }
}

std::string AttributeValue(std::string_view tag, std::string_view attr) {
  size_t pos = 0;
  while ((pos = tag.find(attr, pos)) != std::string_view::npos) {
    size_t after = pos + attr.size();
    bool starts_word = pos > 0 && IsXmlSpace(tag[pos - 1]);
    size_t eq = after;
    while (eq < tag.size() && IsXmlSpace(tag[eq])) ++eq;
    if (starts_word && eq < tag.size() && tag[eq] == '=') {
      size_t q = eq + 1;
      while (q < tag.size() && IsXmlSpace(tag[q])) ++q;
      if (q < tag.size() && (tag[q] == '"' || tag[q] == '\'')) {
        size_t end = tag.find(tag[q], q + 1);
        if (end != std::string_view::npos) return DecodeXmlEntities(tag.substr(q + 1, end - q - 1));
      }
    }
    pos = after;
  }
  return "";
}

bool ParseUint(std::string_view s, uint64_t& out) {
  s = Trim(s);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

Result<WikiPage> ParseWikiPage(std::string_view s) {
  WikiPage page;
  std::vector<std::string_view> stack;
  std::string text;
  bool in_revision = false;
  bool have_id = false, have_ns = false;
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '<') {
      size_t lt = s.find('<', i);
      if (lt == std::string_view::npos) lt = s.size();
      if (!stack.empty()) text.append(s.substr(i, lt - i));
      i = lt;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      size_t e = s.find("-->", i + 4);
      if (e == std::string_view::npos) return ParseError("unterminated XML comment");
      i = e + 3;
      continue;
    }
    if (s.compare(i, 9, "<![CDATA[") == 0) {
      size_t e = s.find("]]>", i + 9);
      if (e == std::string_view::npos) return ParseError("unterminated CDATA section");
      text.append(s.substr(i + 9, e - i - 9));
      i = e + 3;
      continue;
    }
    size_t gt = s.find('>', i + 1);
    size_t next_lt = s.find('<', i + 1);
    if (gt == std::string_view::npos || (next_lt != std::string_view::npos && next_lt < gt)) {
      return ParseError("unterminated tag at page byte " + std::to_string(i));
    }
    std::string_view tag = s.substr(i + 1, gt - i - 1);
    i = gt + 1;
    if (tag.empty()) return ParseError("empty tag '<>'");
    if (tag[0] == '?' || tag[0] == '!') continue;
    bool closing = tag[0] == '/';
    bool self_closing = !closing && tag.back() == '/';
    std::string_view body = closing ? tag.substr(1) : self_closing ? tag.substr(0, tag.size() - 1) : tag;
    size_t name_end = 0;
    while (name_end < body.size() && !IsXmlSpace(body[name_end])) ++name_end;
    std::string_view name = body.substr(0, name_end);
    if (name.empty()) return ParseError("tag without a name at page byte " + std::to_string(i));
    if (!closing) {
      if (stack.empty() && name != "page")
        return ParseError("expected <page>, found <" + std::string(name) + ">");
      if (name == "redirect" && stack.size() == 1) page.redirect = AttributeValue(body, "title");
      if (name == "revision" && stack.size() == 1) in_revision = true;
      stack.push_back(name);
      text.clear();
      if (!self_closing) continue;
    } else if (stack.empty() || stack.back() != name) {
      return ParseError("mismatched </" + std::string(name) + ">" +
                        (stack.empty() ? std::string(" outside any element")
                                       : ", expected </" + std::string(stack.back()) + ">"));
    }
    // An element ends: store the fields the builder needs.
    size_t depth = stack.size();
    if (depth == 2) {
      if (name == "title") {
        page.title = DecodeXmlEntities(text);
      } else if (name == "ns") {
        uint64_t ns = 0;
        if (!ParseUint(text, ns) && Trim(text) != "") {
          // Negative namespaces (-1 Special, -2 Media) never appear in dumps; anything else is malformed.
          return ParseError("<ns> is not a namespace number: '" + std::string(TruncateUtf8(text, 40)) + "'");
        }
        page.ns = static_cast<int>(ns);
        have_ns = true;
      } else if (name == "id") {
        if (!ParseUint(text, page.id))
          return ParseError("<id> is not a number: '" + std::string(TruncateUtf8(text, 40)) + "'");
        have_id = true;
      } else if (name == "revision") {
        in_revision = false;
      }
    } else if (depth == 3 && in_revision) {
      if (name == "id") {
        if (!ParseUint(text, page.revision_id)) return ParseError("revision <id> is not a number");
      } else if (name == "timestamp") {
        page.timestamp = std::string(Trim(text));
      } else if (name == "text") {
        page.text = DecodeXmlEntities(text);
      }
    }
    stack.pop_back();
    text.clear();
  }
  if (!stack.empty()) return ParseError("unclosed <" + std::string(stack.back()) + ">");
  if (page.title.empty()) return ParseError("page without a <title>");
  if (!have_id) return ParseError("page '" + page.title + "' without an <id>");
  if (!have_ns) page.ns = 0;  // very old exports have no <ns>; the title prefix decides there
  return page;
}

WikiXmlReader::WikiXmlReader(PageSink on_page, ErrorSink on_error, size_t max_page_bytes)
    : on_page_(std::move(on_page)), on_error_(std::move(on_error)), max_page_bytes_(max_page_bytes) {}

Status WikiXmlReader::Feed(std::string_view chunk) {
  if (!saw_markup_) {
    size_t first = chunk.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first != std::string_view::npos) {
      if (chunk[first] != '<') {
        return ParseError("not XML: input starts with byte 0x" +
                          std::to_string(static_cast<unsigned char>(chunk[first])) + " at offset " +
                          std::to_string(buffer_offset_ + buffer_.size() + first));
      }
      saw_markup_ = true;
    }
  }
  buffer_.append(chunk);
  return Drain();
}

Status WikiXmlReader::Drain() {
  size_t pos = 0;
  auto keep_tail = [&](size_t keep) {
    if (buffer_.size() - pos > keep) pos = buffer_.size() - keep;
  };
  while (true) {
    std::string_view view(buffer_);
    if (skipping_) {
      size_t end = view.find("</page>", pos);
      if (end == std::string_view::npos) {
        keep_tail(6);
        break;
      }
      pos = end + 7;
      skipping_ = false;
      continue;
    }
    size_t start = FindPageStart(view, pos);
    if (start == std::string_view::npos) {
      keep_tail(5);
      break;
    }
    pos = start;
    // A large page arrives over many chunks: resume the search where the last one stopped.
    size_t end = view.find("</page>", start == 0 ? resume_ : start);
    if (end == std::string_view::npos) {
      resume_ = buffer_.size() - start > 6 ? buffer_.size() - start - 6 : 0;
      if (buffer_.size() - start > max_page_bytes_) {
        on_error_(
            ResourceExhausted("page larger than " + std::to_string(max_page_bytes_) + " bytes; skipped"),
            buffer_offset_ + start);
        skipping_ = true;
        resume_ = 0;
        skip_start_ = buffer_offset_ + start;
        pos = start + 1;
        continue;
      }
      break;
    }
    resume_ = 0;
    uint64_t offset = buffer_offset_ + start;
    auto page = ParseWikiPage(view.substr(start, end + 7 - start));
    pos = end + 7;
    if (!page.ok()) {
      on_error_(page.status(), offset);
      continue;
    }
    page->offset = offset;
    ++pages_;
    Status s = on_page_(std::move(*page));
    if (!s.ok()) {
      buffer_.erase(0, pos);
      buffer_offset_ += pos;
      return s;
    }
  }
  buffer_.erase(0, pos);
  buffer_offset_ += pos;
  return Status::Ok();
}

Status WikiXmlReader::Finish() {
  if (skipping_) {
    return ParseError("input ended inside the over-long page at offset " + std::to_string(skip_start_));
  }
  size_t start = FindPageStart(buffer_, 0);
  if (start != std::string::npos) {
    return ParseError("input ended inside <page> at offset " + std::to_string(buffer_offset_ + start) +
                      " (truncated dump?); that page was not written");
  }
  return Status::Ok();
}

}  // namespace lakeqa::ingest
