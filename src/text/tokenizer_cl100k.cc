// cl100k_base: a hand-written scanner for the split pattern (RE2 has no lookahead) followed by byte-pair
// merging by rank. The scanner follows gpt-tokenizer's form of the pattern, which is also tiktoken's
// current one:
//   '(?i:[sdmt]|ll|ve|re) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,3} | ?[^\s\p{L}\p{N}]+[\r\n]* |
//   \s+$ | \s*[\r\n] | \s+(?!\S) | \s
// It differs from the original 2023 pattern only for whitespace runs at the very end of the text that
// contain a newline ("x\n  " ends in one piece "\n  ", not "\n" + "  "). \s is JavaScript's set, so counts
// match gpt-tokenizer exactly; \p{L} and \p{N} come from utf8proc's general categories.
#include "lakeqa/text/tokenizer_cl100k.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <queue>

#include "lakeqa/common/base64.h"
#include "lakeqa/common/build_paths.h"
#include "lakeqa/common/fs.h"

namespace lakeqa::text {
namespace {

constexpr uint32_t kNoRank = std::numeric_limits<uint32_t>::max();

enum CharClass : uint8_t {
  kOther = 0,
  kLetter = 1,
  kNumber = 2,
  kSpace = 4,    // JavaScript \s
  kNewline = 8,  // \r or \n (also kSpace)
};

bool IsJsSpace(int32_t c) {
  switch (c) {
    case '\t':
    case '\n':
    case 0x0B:
    case 0x0C:
    case '\r':
    case ' ':
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF: return true;
    default: return c >= 0x2000 && c <= 0x200A;
  }
}

uint8_t Classify(int32_t c) {
  if (c < 0) return kOther;  // an invalid UTF-8 byte
  if (c < 0x80) {
    if (c == '\r' || c == '\n') return kSpace | kNewline;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return kLetter;
    if (c >= '0' && c <= '9') return kNumber;
    return IsJsSpace(c) ? kSpace : kOther;
  }
  if (IsJsSpace(c)) return kSpace;
  switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: return kLetter;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO: return kNumber;
    default: return kOther;
  }
}

// Decoded view of the text: code point, class and byte offset of each character (offsets has one more
// entry, the text's size). Invalid bytes become single characters of class kOther.
struct Chars {
  std::vector<int32_t> cp;
  std::vector<uint8_t> cls;
  std::vector<uint32_t> off;
};

void Decode(std::string_view text, Chars& out) {
  out.cp.clear();
  out.cls.clear();
  out.off.clear();
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  size_t i = 0;
  while (i < text.size()) {
    utf8proc_int32_t c;
    utf8proc_ssize_t n;
    if (p[i] < 0x80) {
      c = p[i];
      n = 1;
    } else {
      n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(text.size() - i), &c);
      if (n <= 0) {
        c = -1;
        n = 1;
      }
    }
    out.cp.push_back(c);
    out.cls.push_back(Classify(c));
    out.off.push_back(static_cast<uint32_t>(i));
    i += static_cast<size_t>(n);
  }
  out.off.push_back(static_cast<uint32_t>(text.size()));
}

int32_t LowerAscii(int32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

// Length in characters of the piece starting at character i.
size_t NextPiece(const Chars& ch, size_t i) {
  const size_t n = ch.cp.size();
  const auto& cp = ch.cp;
  const auto& cls = ch.cls;
  auto letter = [&](size_t k) { return k < n && (cls[k] & kLetter); };
  auto space = [&](size_t k) { return k < n && (cls[k] & kSpace); };

  // '(?i:[sdmt]|ll|ve|re)
  if (cp[i] == '\'' && i + 1 < n) {
    int32_t a = LowerAscii(cp[i + 1]);
    if (a == 's' || a == 'd' || a == 'm' || a == 't') return 2;
    if (i + 2 < n) {
      int32_t b = LowerAscii(cp[i + 2]);
      if ((a == 'l' && b == 'l') || (a == 'v' && b == 'e') || (a == 'r' && b == 'e')) return 3;
    }
  }
  // [^\r\n\p{L}\p{N}]?\p{L}+
  {
    size_t j = i;
    if (!letter(j) && !(cls[j] & (kNumber | kNewline)) && letter(j + 1)) ++j;
    if (letter(j)) {
      while (letter(j)) ++j;
      return j - i;
    }
  }
  // \p{N}{1,3}
  if (cls[i] & kNumber) {
    size_t j = i + 1;
    while (j < n && j < i + 3 && (cls[j] & kNumber)) ++j;
    return j - i;
  }
  // ' ?[^\s\p{L}\p{N}]+[\r\n]*'
  {
    size_t j = i;
    if (cp[j] == ' ') ++j;
    if (j < n && cls[j] == kOther) {
      while (j < n && cls[j] == kOther) ++j;
      while (j < n && (cls[j] & kNewline)) ++j;
      return j - i;
    }
  }
  if (space(i)) {
    size_t e = i;
    while (space(e)) ++e;
    if (e == n) return e - i;  // \s+$
    for (size_t k = e; k > i; --k) {
      if (cls[k - 1] & kNewline) return k - i;  // \s*[\r\n]
    }
    if (e - i >= 2) return e - 1 - i;  // \s+(?!\S)
  }
  return 1;  // \s, or anything the pattern above leaves
}

template <typename Fn>
void ForEachPiece(std::string_view text, Fn&& fn) {
  thread_local Chars ch;
  Decode(text, ch);
  size_t i = 0;
  const size_t n = ch.cp.size();
  while (i < n) {
    size_t len = NextPiece(ch, i);
    fn(text.substr(ch.off[i], ch.off[i + len] - ch.off[i]));
    i += len;
  }
}

}  // namespace

Result<Cl100kTokenizer> Cl100kTokenizer::Load(const std::string& path) {
  LAKEQA_ASSIGN_OR_RETURN(std::string data, ReadFile(path));
  Cl100kTokenizer tok;
  tok.ranks_.reserve(110000);
  std::string bytes;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t end = data.find('\n', pos);
    if (end == std::string::npos) end = data.size();
    std::string_view line(data.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    size_t sp = line.find(' ');
    char* rank_end = nullptr;
    std::string rank_text(sp == std::string_view::npos ? "" : line.substr(sp + 1));
    unsigned long rank = rank_text.empty() ? 0 : std::strtoul(rank_text.c_str(), &rank_end, 10);
    if (sp == std::string_view::npos || rank_text.empty() || *rank_end != '\0' || rank >= kNoRank ||
        !DecodeBase64(line.substr(0, sp), bytes) || bytes.empty()) {
      return ParseError(path + ":" + std::to_string(line_no) +
                        ": expected '<base64 token> <rank>' in a .tiktoken ranks file");
    }
    tok.ranks_.insert_or_assign(bytes, static_cast<uint32_t>(rank));
  }
  uint32_t max_rank = 0;
  for (const auto& [bytes_key, r] : tok.ranks_) max_rank = std::max(max_rank, r);
  tok.by_rank_.assign(static_cast<size_t>(max_rank) + 1, std::string_view());
  for (const auto& [bytes_key, r] : tok.ranks_) tok.by_rank_[r] = bytes_key;
  // Every single byte must have a rank, or merging could not start from bytes.
  for (int b = 0; b < 256; ++b) {
    char c = static_cast<char>(b);
    if (tok.ranks_.find(std::string_view(&c, 1)) == tok.ranks_.end()) {
      return ParseError(path + ": ranks file has no token for byte " + std::to_string(b) +
                        " (not a byte-level BPE vocabulary)");
    }
  }
  return tok;
}

std::string Cl100kTokenizer::DefaultRanksPath() {
  const std::string rel = "/gpt-tokenizer/data/cl100k_base.tiktoken";
  if (const char* d = std::getenv("LAKEQA_DEPS_DIR"); d != nullptr && *d) return d + rel;
  if (const char* s = std::getenv("LAKEQA_SOURCE_DIR"); s != nullptr && *s)
    return std::string(s) + "/.deps" + rel;
  return build_paths::DepsDir() + rel;
}

Result<Cl100kTokenizer> Cl100kTokenizer::LoadDefault() {
  auto r = Load(DefaultRanksPath());
  if (!r.ok()) {
    return Status(
        r.status().code(),
        r.status().message() + " (set LAKEQA_DEPS_DIR or run scripts/setup for the cl100k_base ranks)");
  }
  return r;
}

uint32_t Cl100kTokenizer::RankOf(std::string_view bytes) const {
  auto it = ranks_.find(bytes);
  return it == ranks_.end() ? kNoRank : it->second;
}

// tiktoken's quadratic merge: fastest for the short pieces that make up nearly all text.
template <typename Emit>
void Cl100kTokenizer::MergeShort(std::string_view piece, Emit&& emit) const {
  struct Part {
    uint32_t start;
    uint32_t rank;
  };
  thread_local std::vector<Part> parts;
  parts.clear();
  for (uint32_t i = 0; i + 1 < piece.size(); ++i) parts.push_back({i, RankOf(piece.substr(i, 2))});
  parts.push_back({static_cast<uint32_t>(piece.size() - 1), kNoRank});
  parts.push_back({static_cast<uint32_t>(piece.size()), kNoRank});
  auto rank_at = [&](size_t i) {
    if (i + 3 >= parts.size()) return kNoRank;
    return RankOf(piece.substr(parts[i].start, parts[i + 3].start - parts[i].start));
  };
  while (parts.size() > 2) {
    size_t best = 0;
    uint32_t best_rank = kNoRank;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      if (parts[i].rank < best_rank) {
        best_rank = parts[i].rank;
        best = i;
      }
    }
    if (best_rank == kNoRank) break;
    if (best > 0) parts[best - 1].rank = rank_at(best - 1);
    parts[best].rank = rank_at(best);
    parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    emit(RankOf(piece.substr(parts[i].start, parts[i + 1].start - parts[i].start)));
  }
}

// The same merge order (lowest rank first, leftmost on ties) with a heap and a linked list, so that a
// megabyte-long piece (a run of symbols, a base64 blob) costs n log n instead of n^2.
template <typename Emit>
void Cl100kTokenizer::MergeLong(std::string_view piece, Emit&& emit) const {
  const size_t n = piece.size();
  std::vector<uint32_t> next(n), prev(n), end(n);
  std::vector<uint32_t> version(n, 0);
  std::vector<bool> alive(n, true);
  for (uint32_t i = 0; i < n; ++i) {
    next[i] = i + 1;
    prev[i] = i == 0 ? kNoRank : i - 1;
    end[i] = i + 1;
  }
  struct Cand {
    uint32_t rank, left, version;
    bool operator>(const Cand& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<>> heap;
  auto push = [&](uint32_t left) {
    if (left == kNoRank || next[left] >= n) return;
    uint32_t r = RankOf(piece.substr(left, end[next[left]] - left));
    if (r != kNoRank) heap.push({r, left, version[left]});
  };
  for (uint32_t i = 0; i + 1 < n; ++i) push(i);
  while (!heap.empty()) {
    Cand c = heap.top();
    heap.pop();
    if (!alive[c.left] || c.version != version[c.left] || next[c.left] >= n) continue;
    uint32_t right = next[c.left];
    // Merge right into left.
    alive[right] = false;
    end[c.left] = end[right];
    next[c.left] = next[right];
    if (next[right] < n) prev[next[right]] = c.left;
    ++version[c.left];
    if (prev[c.left] != kNoRank) {
      ++version[prev[c.left]];
      push(prev[c.left]);
    }
    push(c.left);
  }
  for (uint32_t i = 0; i < n; i = next[i]) emit(RankOf(piece.substr(i, end[i] - i)));
}

template <typename Emit>
void Cl100kTokenizer::EncodePiece(std::string_view piece, Emit&& emit) const {
  if (uint32_t r = RankOf(piece); r != kNoRank) {
    emit(r);
  } else if (piece.size() <= 256) {
    MergeShort(piece, emit);
  } else {
    MergeLong(piece, emit);
  }
}

std::vector<uint32_t> Cl100kTokenizer::Encode(std::string_view text) const {
  std::vector<uint32_t> out;
  ForEachPiece(text,
               [&](std::string_view piece) { EncodePiece(piece, [&](uint32_t r) { out.push_back(r); }); });
  return out;
}

size_t Cl100kTokenizer::Count(std::string_view text) const {
  size_t count = 0;
  ForEachPiece(text, [&](std::string_view piece) { EncodePiece(piece, [&](uint32_t) { ++count; }); });
  return count;
}

std::string Cl100kTokenizer::Decode(const std::vector<uint32_t>& ids) const {
  std::string out;
  for (uint32_t id : ids) {
    if (id < by_rank_.size()) out += by_rank_[id];
  }
  return out;
}

std::vector<std::string_view> Cl100kTokenizer::Split(std::string_view text) {
  std::vector<std::string_view> out;
  ForEachPiece(text, [&](std::string_view piece) { out.push_back(piece); });
  return out;
}

}  // namespace lakeqa::text
