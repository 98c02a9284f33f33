// Wikitext → plain text. Not a MediaWiki parser: a few linear passes that remove what a reader of the
// rendered page would not see (templates, references, files, comments), keep what they would (link
// text, headings, list items, table cells), and never lose the rest of a page to one broken construct.
// Brace and bracket pairs are matched with a stack in one pass, so hostile input stays O(n).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>
#include <vector>

#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/convert.h"

namespace lakeqa::ingest {
namespace {

bool IStartsWith(std::string_view s, size_t at, std::string_view prefix) {
  if (at + prefix.size() > s.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char a = s[at + i];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (a != prefix[i]) return false;
  }
  return true;
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// <!-- ... -->; an unclosed comment loses only its opener.
std::string StripComments(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t open = s.find("<!--", i);
    if (open == std::string_view::npos) break;
    out.append(s.substr(i, open - i));
    size_t close = s.find("-->", open + 4);
    i = close == std::string_view::npos ? open + 4 : close + 3;
  }
  if (i < s.size()) out.append(s.substr(i));
  return out;
}

// Elements whose content a reader does not see as running text.
const std::vector<std::string_view>& DroppedElements() {
  static const std::vector<std::string_view> kTags = {
      "ref",   "references", "gallery",      "timeline",       "imagemap",        "score",  "templatedata",
      "graph", "mapframe",   "maplink",      "templatestyles", "syntaxhighlight", "source", "chem",
      "ce",    "hiero",      "categorytree", "inputbox",       "charinsert"};
  return kTags;
}

// Removes <tag ...>...</tag> and <tag .../> for the dropped elements; an unclosed one loses its opening
// tag only.
std::string StripElements(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t lt = s.find('<', i);
    if (lt == std::string_view::npos) break;
    out.append(s.substr(i, lt - i));
    size_t name_end = lt + 1;
    while (name_end < s.size() && IsNameChar(s[name_end])) ++name_end;
    std::string name = ToLowerAscii(s.substr(lt + 1, name_end - lt - 1));
    bool dropped = !name.empty() && std::find(DroppedElements().begin(), DroppedElements().end(), name) !=
                                        DroppedElements().end();
    size_t gt = dropped ? s.find('>', name_end) : std::string_view::npos;
    if (!dropped || gt == std::string_view::npos ||
        (name_end < s.size() && s[name_end] != '>' && s[name_end] != '/' && s[name_end] != ' ' &&
         s[name_end] != '\t' && s[name_end] != '\n')) {
      out += '<';
      i = lt + 1;
      continue;
    }
    if (s[gt - 1] == '/') {  // <ref name="x" />
      i = gt + 1;
      continue;
    }
    // Find the matching </name>, case-insensitively.
    size_t close = gt + 1, end = std::string_view::npos;
    while ((close = s.find("</", close)) != std::string_view::npos) {
      if (IStartsWith(s, close + 2, name) &&
          (close + 2 + name.size() >= s.size() || !IsNameChar(s[close + 2 + name.size()]))) {
        size_t e = s.find('>', close + 2 + name.size());
        if (e != std::string_view::npos) end = e + 1;
        break;
      }
      close += 2;
    }
    i = end == std::string_view::npos ? gt + 1 : end;
  }
  if (i < s.size()) out.append(s.substr(i));
  return out;
}

// Opener → closer offsets of matched pairs, sorted by opener (a binary search per lookup: no hash map,
// no per-character lookups).
class PairMap {
 public:
  void Add(size_t opener, size_t closer) { pairs_.emplace_back(opener, closer); }
  void Sort() { std::sort(pairs_.begin(), pairs_.end()); }
  // The closer matching the opener at `opener`, or npos.
  size_t Find(size_t opener) const {
    auto it = std::lower_bound(pairs_.begin(), pairs_.end(), std::make_pair(opener, size_t{0}));
    return it != pairs_.end() && it->first == opener ? it->second : std::string_view::npos;
  }

 private:
  std::vector<std::pair<size_t, size_t>> pairs_;
};

// Sorted offsets (stray closers), looked up by binary search.
bool Contains(const std::vector<size_t>& sorted, size_t at) {
  return std::binary_search(sorted.begin(), sorted.end(), at);
}

// Matches two-character openers with closers ("{{"/"}}", "[["/"]]") with a stack. Unmatched openers
// and closers are absent from the map (callers drop them); stray closers are appended in offset order.
PairMap MatchPairs(std::string_view s, char open, char close, std::vector<size_t>* stray_closers) {
  PairMap match;
  std::vector<size_t> stack;
  const char* d = s.data();
  // Next occurrence of each character at or after i, found by memchr and cached so that each is
  // searched for once per occurrence (linear even when one of the two never appears).
  auto find = [&](char ch, size_t from) {
    const void* p = from < s.size() ? std::memchr(d + from, ch, s.size() - from) : nullptr;
    return p ? static_cast<size_t>(static_cast<const char*>(p) - d) : s.size();
  };
  size_t next_open = find(open, 0), next_close = find(close, 0);
  for (size_t i = 0; i + 1 < s.size();) {
    if (next_open < i) next_open = find(open, i);
    if (next_close < i) next_close = find(close, i);
    size_t next = std::min(next_open, next_close);
    if (next + 1 >= s.size()) break;
    i = next;
    if (s[i] == open && s[i + 1] == open) {
      stack.push_back(i);
      i += 2;
    } else if (s[i] == close && s[i + 1] == close) {
      if (stack.empty()) {
        if (stray_closers) stray_closers->push_back(i);
      } else {
        match.Add(stack.back(), i);
        stack.pop_back();
      }
      i += 2;
    } else {
      ++i;
    }
  }
  match.Sort();
  return match;
}

// Removes {{templates}} (nested, parser functions, {{{parameters}}}); unmatched braces are dropped.
std::string StripTemplates(std::string_view s) {
  std::vector<size_t> stray;
  PairMap match = MatchPairs(s, '{', '}', &stray);
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    // Copy up to the next brace in one piece.
    size_t brace = s.find_first_of("{}", i);
    if (brace == std::string_view::npos) brace = s.size();
    out.append(s.substr(i, brace - i));
    i = brace;
    if (i >= s.size()) break;
    if (i + 1 < s.size() && s[i] == '{' && s[i + 1] == '{') {
      size_t closer = match.Find(i);
      i = closer == std::string_view::npos ? i + 2 : closer + 2;
      continue;
    }
    if (s[i] == '}' && i + 1 < s.size() && s[i + 1] == '}' && Contains(stray, i)) {
      i += 2;
      continue;
    }
    out += s[i++];
  }
  return out;
}

bool IsLanguageCode(std::string_view prefix) {
  // Interlanguage links: "de", "fr", "zh-yue", "simple", "be-tarask"...: a 2-3 letter code, optionally
  // followed by '-' subtags. Any lowercase word is not enough: "wikipedia", "help", "portal", "template" are
  // namespaces whose links keep their text ([[Wikipedia:Manual|manual]] shows "manual").
  if (prefix == "simple") return true;
  if (prefix == "wp" || prefix == "wt") return false;  // shortcut aliases of the Wikipedia namespace
  size_t segment = 0, index = 0;
  for (char c : prefix) {
    if (c == '-') {
      if ((index == 0 && (segment < 2 || segment > 3)) || (index > 0 && segment < 2)) return false;
      segment = 0;
      ++index;
      continue;
    }
    if (c < 'a' || c > 'z') return false;
    if (++segment > 8) return false;
  }
  if (index == 0) return segment >= 2 && segment <= 3;
  return segment >= 2;
}

class LinkRenderer {
 public:
  LinkRenderer(std::string_view s, std::vector<std::string>& categories) : s_(s), categories_(categories) {
    match_ = MatchPairs(s, '[', ']', &stray_);
  }

  std::string Render() {
    std::string out;
    out.reserve(s_.size());
    RenderRange(0, s_.size(), out);
    return out;
  }

 private:
  void RenderRange(size_t begin, size_t end, std::string& out) {
    for (size_t i = begin; i < end;) {
      // Copy up to the next bracket in one piece.
      size_t bracket = s_.find_first_of("[]", i);
      if (bracket == std::string_view::npos || bracket > end) bracket = end;
      out.append(s_.substr(i, bracket - i));
      i = bracket;
      if (i >= end) break;
      if (i + 1 < end && s_[i] == '[' && s_[i + 1] == '[') {
        size_t closer = match_.Find(i);
        if (closer == std::string_view::npos || closer + 2 > end) {
          i += 2;  // broken link: drop the opener, keep the text
          continue;
        }
        RenderLink(i + 2, closer, out);
        i = closer + 2;
        continue;
      }
      if (i + 1 < end && s_[i] == ']' && s_[i + 1] == ']' && Contains(stray_, i)) {
        i += 2;
        continue;
      }
      if (s_[i] == '[' && IsExternalLinkStart(i + 1)) {
        size_t close = s_.find_first_of("]\n", i + 1);
        if (close != std::string_view::npos && close < end && s_[close] == ']') {
          std::string_view inner = s_.substr(i + 1, close - i - 1);
          size_t space = inner.find(' ');
          if (space != std::string_view::npos) out.append(Trim(inner.substr(space + 1)));
          i = close + 1;
          continue;
        }
      }
      out += s_[i++];
    }
  }

  bool IsExternalLinkStart(size_t at) const {
    return IStartsWith(s_, at, "http://") || IStartsWith(s_, at, "https://") ||
           IStartsWith(s_, at, "ftp://") || IStartsWith(s_, at, "//") || IStartsWith(s_, at, "mailto:");
  }

  // First '|' in [begin, end) outside nested [[...]].
  size_t TopLevelPipe(size_t begin, size_t end, bool last) const {
    size_t found = std::string_view::npos;
    for (size_t i = begin; i < end; ++i) {
      if (i + 1 < end && s_[i] == '[' && s_[i + 1] == '[') {
        size_t closer = match_.Find(i);
        if (closer != std::string_view::npos && closer < end) {
          i = closer + 1;
          continue;
        }
      }
      if (s_[i] == '|') {
        found = i;
        if (!last) return found;
      }
    }
    return found;
  }

  void RenderLink(size_t begin, size_t end, std::string& out) {
    size_t pipe = TopLevelPipe(begin, end, false);
    std::string_view target = Trim(s_.substr(begin, (pipe == std::string_view::npos ? end : pipe) - begin));
    bool leading_colon = !target.empty() && target[0] == ':';
    if (leading_colon) target = Trim(target.substr(1));
    size_t colon = target.find(':');
    std::string ns = colon == std::string_view::npos ? "" : ToLowerAscii(Trim(target.substr(0, colon)));
    if (!leading_colon) {
      if (ns == "file" || ns == "image" || ns == "media") return;
      if (ns == "category") {
        std::string name(Trim(target.substr(colon + 1)));
        std::replace(name.begin(), name.end(), '_', ' ');
        if (!name.empty() && std::find(categories_.begin(), categories_.end(), name) == categories_.end()) {
          categories_.push_back(std::move(name));
        }
        return;
      }
      if (IsLanguageCode(ns)) return;
    }
    if (pipe != std::string_view::npos) {
      size_t label_begin = pipe + 1;
      if (Trim(s_.substr(label_begin, end - label_begin)).empty()) {
        // Pipe trick: [[Foo (bar)|]] shows "Foo".
        std::string_view t = colon == std::string_view::npos ? target : target.substr(colon + 1);
        size_t paren = t.find(" (");
        out.append(Trim(t.substr(0, paren)));
        return;
      }
      RenderRange(label_begin, end, out);
      return;
    }
    if (!target.empty() && target[0] == '#') target.remove_prefix(1);
    out.append(target);
  }

  std::string_view s_;
  std::vector<std::string>& categories_;
  PairMap match_;
  std::vector<size_t> stray_;
};

// Strips HTML tags from a line: "<br>" becomes a space, other tags vanish; a '<' that does not start a
// tag stays ("a < b").
std::string StripInlineTags(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '<' && i + 1 < s.size() &&
        (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '/' || s[i + 1] == '!')) {
      size_t gt = s.find('>', i + 1);
      size_t next_lt = s.find('<', i + 1);
      if (gt != std::string_view::npos && (next_lt == std::string_view::npos || gt < next_lt)) {
        if (IStartsWith(s, i + 1, "br")) out += ' ';
        i = gt + 1;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// Removes runs of two or more apostrophes (bold/italic) and __MAGIC_WORDS__.
std::string StripQuotesAndMagic(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
      while (i < s.size() && s[i] == '\'') ++i;
      continue;
    }
    if (s[i] == '_' && i + 1 < s.size() && s[i + 1] == '_') {
      size_t j = i + 2;
      while (j < s.size() && s[j] >= 'A' && s[j] <= 'Z') ++j;
      if (j > i + 2 && j + 1 < s.size() && s[j] == '_' && s[j + 1] == '_') {
        i = j + 2;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// Final cleanup of one output line: tags, quotes, entities, collapsed whitespace.
std::string CleanLine(std::string_view line) {
  std::string s = DecodeHtmlEntities(StripQuotesAndMagic(StripInlineTags(line)));
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // U+00A0 (no-break space, from &nbsp;) counts as a space.
    bool is_space = c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
      is_space = true;
      ++i;
    }
    if (is_space) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(c);
  }
  return out;
}

// A table cell's content: "style="x" | text" → "text" (the part before a single '|' is attributes).
std::string_view CellContent(std::string_view cell) {
  size_t pipe = cell.find('|');
  if (pipe != std::string_view::npos && (pipe + 1 >= cell.size() || cell[pipe + 1] != '|')) {
    std::string_view attrs = cell.substr(0, pipe);
    if (attrs.find('=') != std::string_view::npos || Trim(attrs).empty()) return cell.substr(pipe + 1);
  }
  return cell;
}

std::vector<std::string_view> SplitOn(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> parts;
  size_t start = 0, pos;
  while ((pos = s.find(sep, start)) != std::string_view::npos) {
    parts.push_back(s.substr(start, pos - start));
    start = pos + sep.size();
  }
  parts.push_back(s.substr(start));
  return parts;
}

class LineWriter {
 public:
  void Emit(std::string_view raw) { EmitClean(CleanLine(raw)); }
  void EmitClean(const std::string& line) {
    if (line.empty()) {
      Blank();
      return;
    }
    if (pending_blank_ && !out_.empty()) out_ += '\n';
    pending_blank_ = false;
    out_ += line;
    out_ += '\n';
  }
  void EmitIndented(std::string_view prefix, std::string_view raw) {
    std::string line = CleanLine(raw);
    if (line.empty()) return;
    EmitClean(std::string(prefix) + line);
  }
  void Blank() { pending_blank_ = true; }
  std::string Take() {
    while (!out_.empty() && out_.back() == '\n') out_.pop_back();
    return std::move(out_);
  }

 private:
  std::string out_;
  bool pending_blank_ = false;
};

class TableState {
 public:
  explicit TableState(LineWriter& w) : w_(w) {}
  bool active() const { return depth_ > 0; }
  void Open() {
    if (depth_ == 0) w_.Blank();
    FlushRow();
    ++depth_;
  }
  void Close() {
    FlushRow();
    if (--depth_ == 0) w_.Blank();
  }
  void NewRow() { FlushRow(); }
  void Caption(std::string_view text) {
    FlushRow();
    w_.Emit(CellContent(text));
  }
  void Cells(std::string_view line, bool header) {
    auto parts = SplitOn(line, header ? "!!" : "||");
    for (auto part : parts) {
      if (header) {
        // Header rows may also use "||" between cells.
        for (auto p : SplitOn(part, "||")) cells_.push_back(CleanLine(CellContent(p)));
      } else {
        cells_.push_back(CleanLine(CellContent(part)));
      }
    }
  }
  void Continue(std::string_view text) {
    std::string t = CleanLine(text);
    if (t.empty()) return;
    if (cells_.empty()) {
      cells_.push_back(t);
    } else {
      if (!cells_.back().empty()) cells_.back() += ' ';
      cells_.back() += t;
    }
  }
  void FlushRow() {
    bool any = false;
    for (auto& c : cells_) any = any || !c.empty();
    if (any) {
      std::string row;
      for (size_t i = 0; i < cells_.size(); ++i) {
        if (i) row += " | ";
        row += cells_[i];
      }
      w_.Emit(row);
    }
    cells_.clear();
  }

 private:
  LineWriter& w_;
  int depth_ = 0;
  std::vector<std::string> cells_;
};

void ConvertLines(std::string_view s, LineWriter& w) {
  TableState table(w);
  size_t start = 0;
  while (start <= s.size()) {
    size_t nl = s.find('\n', start);
    std::string_view line =
        s.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? s.size() + 1 : nl + 1;
    std::string_view t = Trim(line);
    // A table may start after indentation colons (":{|").
    std::string_view table_line = t;
    while (!table_line.empty() && table_line[0] == ':') table_line.remove_prefix(1);
    table_line = Trim(table_line);
    if (StartsWith(table_line, "{|")) {
      table.Open();
      continue;
    }
    if (table.active()) {
      if (StartsWith(t, "|}")) {
        table.Close();
      } else if (StartsWith(t, "|-")) {
        table.NewRow();
      } else if (StartsWith(t, "|+")) {
        table.Caption(t.substr(2));
      } else if (StartsWith(t, "!")) {
        table.Cells(t.substr(1), true);
      } else if (StartsWith(t, "|")) {
        table.Cells(t.substr(1), false);
      } else {
        table.Continue(t);
      }
      continue;
    }
    if (t.empty()) {
      w.Blank();
      continue;
    }
    if (t.size() >= 2 && t.front() == '=' && t.back() == '=') {
      size_t lead = t.find_first_not_of('=');
      size_t trail = t.size() - 1 - t.find_last_not_of('=');
      if (lead != std::string_view::npos) {
        size_t level = std::min(lead, trail);
        std::string_view heading = Trim(t.substr(level, t.size() - 2 * level));
        w.Blank();
        w.Emit(heading);
        w.Blank();
        continue;
      }
    }
    if (t.find_first_not_of('-') == std::string_view::npos && t.size() >= 4) continue;  // ---- rule
    if (t[0] == '*' || t[0] == '#' || t[0] == ':' || t[0] == ';') {
      size_t depth = t.find_first_not_of("*#:;");
      std::string_view marks = t.substr(0, depth == std::string_view::npos ? t.size() : depth);
      std::string_view body = depth == std::string_view::npos ? std::string_view() : t.substr(depth);
      bool item = marks.find_first_of("*#") != std::string_view::npos;
      std::string indent(2 * (marks.size() - 1), ' ');
      if (item) {
        w.EmitIndented(indent + "- ", body);
      } else if (marks.back() == ';') {
        // "; term : definition"
        size_t colon = body.find(" : ");
        if (colon != std::string_view::npos) {
          w.EmitIndented(indent,
                         std::string(body.substr(0, colon)) + ": " + std::string(body.substr(colon + 3)));
        } else {
          w.EmitIndented(indent, body);
        }
      } else {
        w.EmitIndented(indent, body);
      }
      continue;
    }
    w.Emit(t);
  }
  if (table.active()) table.FlushRow();  // unclosed table: keep its rows
}

struct NamedEntity {
  const char* name;
  uint32_t code_point;
};

constexpr NamedEntity kEntities[] = {
    {"amp", '&'},       {"lt", '<'},        {"gt", '>'},        {"quot", '"'},     {"apos", '\''},
    {"nbsp", 0xA0},     {"ndash", 0x2013},  {"mdash", 0x2014},  {"minus", 0x2212}, {"times", 0xD7},
    {"hellip", 0x2026}, {"lsquo", 0x2018},  {"rsquo", 0x2019},  {"ldquo", 0x201C}, {"rdquo", 0x201D},
    {"laquo", 0xAB},    {"raquo", 0xBB},    {"deg", 0xB0},      {"euro", 0x20AC},  {"pound", 0xA3},
    {"yen", 0xA5},      {"cent", 0xA2},     {"copy", 0xA9},     {"reg", 0xAE},     {"trade", 0x2122},
    {"middot", 0xB7},   {"bull", 0x2022},   {"frac12", 0xBD},   {"frac14", 0xBC},  {"frac34", 0xBE},
    {"sup2", 0xB2},     {"sup3", 0xB3},     {"plusmn", 0xB1},   {"divide", 0xF7},  {"prime", 0x2032},
    {"Prime", 0x2033},  {"thinsp", 0x2009}, {"ensp", 0x2002},   {"emsp", 0x2003},  {"shy", 0xAD},
    {"zwj", 0x200D},    {"zwnj", 0x200C},   {"lrm", 0x200E},    {"rlm", 0x200F},   {"sect", 0xA7},
    {"para", 0xB6},     {"dagger", 0x2020}, {"Dagger", 0x2021}, {"larr", 0x2190},  {"rarr", 0x2192},
    {"uarr", 0x2191},   {"darr", 0x2193},   {"harr", 0x2194},   {"le", 0x2264},    {"ge", 0x2265},
    {"ne", 0x2260},     {"asymp", 0x2248},  {"infin", 0x221E},  {"micro", 0xB5},   {"alpha", 0x3B1},
    {"beta", 0x3B2},    {"gamma", 0x3B3},   {"delta", 0x3B4},   {"pi", 0x3C0},     {"mu", 0x3BC},
    {"eacute", 0xE9},   {"egrave", 0xE8},   {"aacute", 0xE1},   {"agrave", 0xE0},  {"iacute", 0xED},
    {"oacute", 0xF3},   {"uacute", 0xFA},   {"ntilde", 0xF1},   {"ccedil", 0xE7},  {"uuml", 0xFC},
    {"ouml", 0xF6},     {"auml", 0xE4},     {"szlig", 0xDF},    {"Eacute", 0xC9},  {"Uuml", 0xDC},
    {"Ouml", 0xD6},     {"Auml", 0xC4},     {"iexcl", 0xA1},    {"iquest", 0xBF},  {"ordm", 0xBA},
    {"ordf", 0xAA},     {"acute", 0xB4},    {"cedil", 0xB8},    {"not", 0xAC},     {"brvbar", 0xA6},
};

}  // namespace

std::string DecodeHtmlEntities(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      // Copy up to the next '&' in one piece.
      size_t amp = s.find('&', i);
      if (amp == std::string_view::npos) amp = s.size();
      out.append(s.substr(i, amp - i));
      i = amp - 1;
      continue;
    }
    // Names are at most 11 characters: look no further (a line of '&' without ';' stays linear).
    size_t semi = s.substr(i + 1, 12).find(';');
    if (semi != std::string_view::npos) semi += i + 1;
    if (semi == std::string_view::npos || semi - i > 12 || semi == i + 1) {
      out += '&';
      continue;
    }
    std::string_view name = s.substr(i + 1, semi - i - 1);
    uint32_t cp = 0;
    bool ok = false;
    if (name[0] == '#') {
      bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
      std::string_view digits = name.substr(hex ? 2 : 1);
      ok = !digits.empty();
      for (char c : digits) {
        int v = (c >= '0' && c <= '9')          ? c - '0'
                : hex && (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : hex && (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                : -1;
        if (v < 0 || cp > 0x10FFFF) {
          ok = false;
          break;
        }
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
      }
      if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ok = false;
    } else {
      for (const auto& e : kEntities) {
        if (name == e.name) {
          cp = e.code_point;
          ok = true;
          break;
        }
      }
    }
    if (!ok) {
      out += '&';
      continue;
    }
    AppendUtf8(cp, out);
    i = semi;
  }
  return out;
}

WikiText WikitextToText(std::string_view wikitext) {
  WikiText result;
  std::string s = StripComments(wikitext);
  s = StripElements(s);
  s = StripTemplates(s);
  s = LinkRenderer(s, result.categories).Render();
  LineWriter w;
  ConvertLines(s, w);
  result.text = w.Take();
  return result;
}

}  // namespace lakeqa::ingest
