#include "lakeqa/text/analyzer.h"

#include <libstemmer.h>
#include <utf8proc.h>

#include <cstdio>
#include <string>

#include "lakeqa/text/normalize.h"

namespace lakeqa::text {
namespace {

bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsConnector(unsigned char c) { return c == '-' || c == '_' || c == '.' || c == '/'; }

// Length in bytes of the word character at text[i], or 0 if it is not one. Letters, marks and numbers
// of any script count; invalid UTF-8 does not.
size_t WordCharLen(std::string_view text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return IsAsciiAlnum(c) ? 1 : 0;
  utf8proc_int32_t cp = -1;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &cp);
  if (n <= 0 || cp < 0) return 0;
  switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO: return static_cast<size_t>(n);
    default: return 0;
  }
}

// Length of the (invalid or non-word) character at text[i], at least 1.
size_t CharLen(std::string_view text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return 1;
  utf8proc_int32_t cp = -1;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &cp);
  return n > 0 ? static_cast<size_t>(n) : 1;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Digits of a run starting at i, up to max + 1 (so that a caller can tell "exactly n" from "more").
size_t DigitRun(std::string_view text, size_t i, size_t max) {
  size_t n = 0;
  while (i + n < text.size() && n <= max && IsDigit(text[i + n])) ++n;
  return n;
}

// The separator of a year span at text[i]: hyphen, slash, en dash or em dash; its length or 0.
size_t SpanSeparator(std::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  if (text[i] == '-' || text[i] == '/') return 1;
  if (text.substr(i, 3) == "\xE2\x80\x93" || text.substr(i, 3) == "\xE2\x80\x94") return 3;
  return 0;
}

bool HasDigit(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

}  // namespace

std::string YearSpanTerm(int start, int end) {
  char buf[16];
  if (end == start + 1) std::snprintf(buf, sizeof buf, "%d-%02d", start, end % 100);
  else std::snprintf(buf, sizeof buf, "%d-%d", start, end);
  return buf;
}

void Analyzer::StemmerDeleter::operator()(::sb_stemmer* s) const { sb_stemmer_delete(s); }

Analyzer::Analyzer(AnalyzerOptions options) : options_(options) {
  if (options_.stem) stemmer_.reset(sb_stemmer_new("english", "UTF_8"));
}
Analyzer::~Analyzer() = default;
Analyzer::Analyzer(Analyzer&&) noexcept = default;
Analyzer& Analyzer::operator=(Analyzer&&) noexcept = default;

bool Analyzer::Fold(std::string_view raw, bool stem, bool drop_stop, uint32_t* offset, uint32_t* size) {
  size_t at = terms_.size();
  FoldAppend(raw, options_.strip_accents, terms_);
  std::string_view folded(terms_.data() + at, terms_.size() - at);
  if (folded.empty() || folded.size() > options_.max_token_bytes || (drop_stop && IsStopWord(folded))) {
    terms_.resize(at);
    return false;
  }
  if (stem && stemmer_ && folded.size() > 2 && !HasDigit(folded)) {
    const sb_symbol* s = sb_stemmer_stem(stemmer_.get(), reinterpret_cast<const sb_symbol*>(folded.data()),
                                         static_cast<int>(folded.size()));
    if (s != nullptr) {
      int n = sb_stemmer_length(stemmer_.get());
      terms_.resize(at);
      terms_.append(reinterpret_cast<const char*>(s), static_cast<size_t>(n));
    }
  }
  *offset = static_cast<uint32_t>(at);
  *size = static_cast<uint32_t>(terms_.size() - at);
  return *size > 0;
}

void Analyzer::EmitWord(std::string_view text, size_t begin, size_t end, const std::vector<uint32_t>& cuts,
                        uint32_t position) {
  uint32_t off = 0, size = 0;
  size_t before = tokens_.size();
  if (cuts.empty() || !options_.split_identifiers) {
    if (Fold(text.substr(begin, end - begin), true, options_.stop_words && cuts.empty(), &off, &size)) {
      tokens_.push_back({off, size, position, static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                         cuts.empty() ? TokenKind::kWord : TokenKind::kCompound});
    }
  } else {
    if (Fold(text.substr(begin, end - begin), false, false, &off, &size)) {
      tokens_.push_back({off, size, position, static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                         TokenKind::kCompound});
    }
    size_t part_begin = begin;
    for (size_t i = 0; i <= cuts.size(); ++i) {
      size_t part_end = i < cuts.size() ? cuts[i] : end;
      if (Fold(text.substr(part_begin, part_end - part_begin), true, false, &off, &size)) {
        tokens_.push_back({off, size, position, static_cast<uint32_t>(part_begin),
                           static_cast<uint32_t>(part_end), TokenKind::kPart});
      }
      part_begin = part_end + 1;
    }
  }
  if (tokens_.size() > before) ++length_;
}

size_t Analyzer::EmitYearSpan(std::string_view text, size_t begin, uint32_t position) {
  if (DigitRun(text, begin, 4) != 4) return 0;
  size_t sep = SpanSeparator(text, begin + 4);
  if (sep == 0) return 0;
  size_t j = begin + 4 + sep;
  size_t n = DigitRun(text, j, 4);
  if (n != 2 && n != 4) return 0;
  size_t end = j + n;
  // "2007-08-15" is a date and "2008-09a" an identifier: the span must end the word.
  if (end < text.size() &&
      (WordCharLen(text, end) > 0 || (IsConnector(static_cast<unsigned char>(text[end])) &&
                                      end + 1 < text.size() && WordCharLen(text, end + 1) > 0)))
    return 0;
  int start_year = std::stoi(std::string(text.substr(begin, 4)));
  int end_year = std::stoi(std::string(text.substr(j, n)));
  if (n == 2) {
    end_year += start_year / 100 * 100;
    if (end_year <= start_year) end_year += 100;
  }
  if (start_year < 1800 || start_year > 2099 || end_year <= start_year || end_year - start_year > 10)
    return 0;
  auto emit = [&](const std::string& term, size_t from, size_t to, TokenKind kind) {
    auto off = static_cast<uint32_t>(terms_.size());
    terms_ += term;
    tokens_.push_back({off, static_cast<uint32_t>(term.size()), position, static_cast<uint32_t>(from),
                       static_cast<uint32_t>(to), kind});
  };
  emit(YearSpanTerm(start_year, end_year), begin, end, TokenKind::kCompound);
  if (options_.split_identifiers) {
    for (int y = start_year; y <= end_year; ++y) {
      size_t from = y == start_year ? begin : y == end_year ? j : begin;
      size_t to = y == start_year ? begin + 4 : end;
      emit(std::to_string(y), from, to, TokenKind::kPart);
    }
  }
  ++length_;
  return end;
}

const std::vector<Token>& Analyzer::Analyze(std::string_view text, uint32_t position_base) {
  tokens_.clear();
  terms_.clear();
  length_ = 0;
  uint32_t position = position_base;
  size_t i = 0;
  while (i < text.size()) {
    size_t n = WordCharLen(text, i);
    if (n == 0) {
      i += CharLen(text, i);
      continue;
    }
    size_t begin = i;
    if (options_.year_spans && IsDigit(text[i])) {
      size_t end = EmitYearSpan(text, begin, position);
      if (end > 0) {
        i = end;
        ++position;
        continue;
      }
    }
    i += n;
    cuts_.clear();
    while (i < text.size()) {
      size_t m = WordCharLen(text, i);
      if (m > 0) {
        i += m;
        continue;
      }
      // A connector joins only when a word character follows it ("end." is not an identifier).
      if (IsConnector(static_cast<unsigned char>(text[i])) && i + 1 < text.size() &&
          WordCharLen(text, i + 1) > 0) {
        cuts_.push_back(static_cast<uint32_t>(i));
        ++i;
        continue;
      }
      break;
    }
    EmitWord(text, begin, i, cuts_, position);
    ++position;
  }
  positions_used_ = position - position_base;
  return tokens_;
}

}  // namespace lakeqa::text
