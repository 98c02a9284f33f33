#include <algorithm>
#include <set>

#include "lakeqa/index/searcher.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

class Parser {
 public:
  Parser(const Schema& schema, text::Analyzer& analyzer, Query& q) : schema_(schema), analyzer_(analyzer), q_(q) {}

  void Text(std::string_view s, int field) {
    for (const text::Token& t : analyzer_.Analyze(s)) AddTerm(field, std::string(analyzer_.Term(t)), false);
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
    if (!folded.empty()) AddTerm(field, folded, true);
  }

  void Phrase(std::string_view s, int field) {
    PhraseClause ph;
    ph.field = field;
    const auto& toks = analyzer_.Analyze(s);
    uint32_t first = 0;
    for (const text::Token& t : toks) {
      if (t.kind == text::TokenKind::kPart) continue;
      if (ph.terms.empty()) first = t.position;
      ph.terms.emplace_back(std::string(analyzer_.Term(t)), t.position - first);
    }
    for (const auto& [term, pos] : ph.terms) AddTerm(field, term, false);
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

  void AddTerm(int field, std::string term, bool prefix) {
    if (!seen_.insert({field, term, prefix}).second) return;
    q_.terms.push_back({field, std::move(term), prefix});
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
      } else if (quoted) {
        Phrase(value, field);
      } else if (value.size() > 1 && value.back() == '*') {
        Prefix(value.substr(0, value.size() - 1), field);
      } else {
        Text(value, field);
      }
    }
  }

 private:
  const Schema& schema_;
  text::Analyzer& analyzer_;
  Query& q_;
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
