#include <algorithm>
#include <set>

#include "lakeqa/index/searcher.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (static_cast<unsigned char>(c) >= 0x80);
}

// The word without surrounding punctuation ("Raptors'," → "Raptors'"… → "Raptors").
std::string_view TrimPunct(std::string_view w) {
  while (!w.empty() && !IsAlnum(w.front())) w.remove_prefix(1);
  while (!w.empty() && !IsAlnum(w.back())) w.remove_suffix(1);
  return w;
}

// 1..12 for a month name or its three-letter abbreviation ("mar", "march", "sept"), folded; else 0.
int MonthNumber(std::string_view folded) {
  static const char* kMonths[] = {"january", "february", "march",     "april",   "may",      "june",
                                  "july",    "august",   "september", "october", "november", "december"};
  if (folded.size() < 3) return 0;
  for (int i = 0; i < 12; ++i) {
    std::string_view m = kMonths[i];
    if (folded == m || (folded.size() <= 4 && m.substr(0, folded.size()) == folded)) return i + 1;
  }
  return 0;
}

int YearOf(std::string_view w) {
  if (w.size() != 4 || !std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return 0;
  int y = std::stoi(std::string(w));
  return y >= 1800 && y <= 2099 ? y : 0;
}

class Parser {
 public:
  Parser(const Schema& schema, text::Analyzer& analyzer, Query& q)
      : schema_(schema), analyzer_(analyzer), q_(q), drop_(analyzer.options().stop_words) {}

  // Free text of one whitespace-separated word (field -1) or a field-restricted value.
  void Text(std::string_view raw, int field) {
    std::string_view word = TrimPunct(raw);
    ++q_.words;
    std::string folded;
    text::FoldAppend(word, analyzer_.options().strip_accents, folded);
    // A possessive is the word itself: "Raptors' " and "team's" as "raptors" and "team".
    for (std::string_view suffix : {"'s", "\xE2\x80\x99s"}) {
      if (folded.size() > suffix.size() && folded.ends_with(suffix))
        folded.resize(folded.size() - suffix.size());
    }
    if (field < 0 && drop_ && !word.empty() &&
        (text::IsQuestionWord(folded) || (leading_ && text::IsRequestWord(folded)))) {
      q_.dropped.emplace_back(word);
      words_.push_back({folded, -1});
      return;
    }
    bool any = false;
    for (const text::Token& t : analyzer_.Analyze(raw)) {
      any = true;
      AddTerm(field, std::string(analyzer_.Term(t)), false, std::string(word), t.kind);
    }
    if (!any) {
      if (!word.empty()) q_.dropped.emplace_back(word);
      words_.push_back({folded, -1});
      return;
    }
    words_.push_back({folded, static_cast<int>(ordinal_)});
    leading_ = false;
    ++ordinal_;
  }

  void Prefix(std::string_view s, int field) {
    std::string folded;
    text::FoldAppend(s, analyzer_.options().strip_accents, folded);
    // Surrounding punctuation is not part of any indexed token.
    auto junk = [](char c) { return IsSpace(c) || c == '-' || c == '_' || c == '.' || c == '/' || c == '"'; };
    while (!folded.empty() && junk(folded.back())) folded.pop_back();
    size_t b = 0;
    while (b < folded.size() && junk(folded[b])) ++b;
    folded.erase(0, b);
    if (folded.find(' ') != std::string::npos) return Text(s, field);
    ++q_.words;
    if (folded.empty()) return;
    AddTerm(field, folded, true, std::string(s) + "*", text::TokenKind::kWord);
    words_.push_back({folded, static_cast<int>(ordinal_)});
    leading_ = false;
    ++ordinal_;
  }

  void Phrase(std::string_view s, int field) {
    PhraseClause ph;
    ph.field = field;
    struct T {
      std::string term, word;
      uint32_t position;
      text::TokenKind kind;
    };
    std::vector<T> toks;
    for (const text::Token& t : analyzer_.Analyze(s))
      toks.push_back({std::string(analyzer_.Term(t)), std::string(s.substr(t.start, t.end - t.start)),
                      t.position, t.kind});
    q_.words += analyzer_.positions_used();
    if (toks.empty()) return;
    uint32_t first = toks.front().position, base = ordinal_;
    for (const T& t : toks) {
      if (t.kind != text::TokenKind::kPart) ph.terms.emplace_back(t.term, t.position - first);
      ordinal_ = base + (t.position - first);
      AddTerm(field, t.term, false, t.word, t.kind);
    }
    ordinal_ = base + (toks.back().position - first + 1);
    leading_ = false;
    if (ph.terms.size() >= 2) q_.phrases.push_back(std::move(ph));
  }

  void Filter(int field, std::string_view value) {
    std::string v = text::FoldKeyword(value);
    if (v.empty()) return;
    for (FilterClause& f : q_.filters) {
      if (f.field == field) {
        if (std::find(f.values.begin(), f.values.end(), v) == f.values.end()) f.values.push_back(v);
        return;
      }
    }
    q_.filters.push_back({field, {v}});
  }

  void AddTerm(int field, std::string term, bool prefix, std::string word, text::TokenKind kind,
               bool inferred = false) {
    if (!seen_.insert({field, term, prefix}).second) return;
    TermClause c;
    c.field = field;
    c.term = std::move(term);
    c.prefix = prefix;
    c.word = std::move(word);
    c.position = ordinal_;
    c.kind = kind;
    c.inferred = inferred;
    q_.terms.push_back(std::move(c));
  }

  // "<month> [of] <year>": the season the month belongs to, as an extra term (see searcher.h).
  void InferSeasons() {
    if (!drop_ || !analyzer_.options().year_spans) return;
    for (size_t i = 0; i + 1 < words_.size(); ++i) {
      int month = MonthNumber(words_[i].folded);
      if (month == 0) continue;
      size_t j = i + 1;
      if (words_[j].folded == "of" && j + 1 < words_.size()) ++j;
      int year = YearOf(words_[j].folded);
      if (year == 0 || words_[j].ordinal < 0) continue;
      int start;
      if (month <= 4) start = year - 1;
      else if (month >= 10) start = year;
      else continue;  // May–September: summer seasons are calendar years
      uint32_t saved = ordinal_;
      ordinal_ = static_cast<uint32_t>(words_[j].ordinal);
      AddTerm(-1, text::YearSpanTerm(start, start + 1), false, words_[i].folded + " " + words_[j].folded,
              text::TokenKind::kCompound, /*inferred=*/true);
      ordinal_ = saved;
    }
  }

  void Parse(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
      if (IsSpace(s[i])) {
        ++i;
        continue;
      }
      if (s[i] == '"') {
        size_t close = s.find('"', i + 1);
        if (close == std::string_view::npos) close = s.size();
        Phrase(s.substr(i + 1, close - i - 1), -1);
        i = close + 1;
        continue;
      }
      size_t j = i;
      while (j < s.size() && !IsSpace(s[j]) && s[j] != '"') ++j;
      std::string_view word = s.substr(i, j - i);
      size_t colon = word.find(':');
      int field = colon != std::string_view::npos ? schema_.Find(word.substr(0, colon)) : -1;
      if (field < 0) {
        if (word.size() > 1 && word.back() == '*') Prefix(word.substr(0, word.size() - 1), -1);
        else Text(word, -1);
        i = j;
        continue;
      }
      std::string_view value = word.substr(colon + 1);
      bool quoted = false;
      if (value.empty() && j < s.size() && s[j] == '"') {
        size_t close = s.find('"', j + 1);
        if (close == std::string_view::npos) close = s.size();
        value = s.substr(j + 1, close - j - 1);
        quoted = true;
        j = std::min(s.size(), close + 1);
      }
      i = j;
      const FieldSpec& spec = schema_.fields()[field];
      if (spec.keyword) {
        Filter(field, value);
      } else if (!spec.text) {
        Text(value, -1);  // a stored-only field cannot be searched: the value is plain text
      } else if (quoted) {
        Phrase(value, field);
      } else if (value.size() > 1 && value.back() == '*') {
        Prefix(value.substr(0, value.size() - 1), field);
      } else {
        Text(value, field);
      }
    }
    InferSeasons();
  }

 private:
  struct RawWord {
    std::string folded;
    int ordinal;  // -1 when the word was dropped
  };
  const Schema& schema_;
  text::Analyzer& analyzer_;
  Query& q_;
  bool drop_;
  bool leading_ = true;  // no word has been kept yet
  uint32_t ordinal_ = 0;
  std::vector<RawWord> words_;
  std::set<std::tuple<int, std::string, bool>> seen_;
};

}  // namespace

Result<Query> ParseQuery(std::string_view text, const Schema& schema, text::Analyzer& analyzer) {
  if (text.size() > 64 * 1024) return InvalidArgument("query longer than 64 KiB");
  Query q;
  Parser(schema, analyzer, q).Parse(text);
  return q;
}

}  // namespace lakeqa::index
