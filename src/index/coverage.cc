#include "index/coverage.h"

#include <cctype>
#include <string>
#include <vector>

#include "lakeqa/common/strings.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::index {
namespace {

const char* const kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A month name or abbreviation ("Mar", "Sept", "march"), case-insensitive; 0 if none.
int MonthWord(std::string_view w) {
  if (w.size() < 3) return 0;
  std::string lower = ToLowerAscii(w);
  for (int i = 0; i < 12; ++i) {
    std::string m = ToLowerAscii(kMonths[i]);
    if (lower == m || lower == m.substr(0, 3) || (i == 8 && lower == "sept")) return i + 1;
  }
  return 0;
}

bool Year(int y) { return y >= 1800 && y <= 2099; }

}  // namespace

void Coverage::AddYears(std::string_view text) {
  // The analyzer knows years and spans ("2008–09" → 2008, 2009): one definition of both.
  thread_local text::Analyzer analyzer([] {
    text::AnalyzerOptions o;
    o.stem = false;
    return o;
  }());
  for (const text::Token& t : analyzer.Analyze(text)) {
    std::string_view term = analyzer.Term(t);
    if (term.size() != 4 || t.kind == text::TokenKind::kCompound) continue;
    bool digits = true;
    for (char c : term) digits &= IsDigit(c);
    if (!digits) continue;
    int y = std::stoi(std::string(term));
    if (Year(y)) years.insert(y);
  }
}

void Coverage::AddDates(std::string_view v, bool numeric_only) {
  size_t i = 0;
  while (i < v.size()) {
    if (IsLetter(v[i])) {
      size_t j = i;
      while (j < v.size() && IsLetter(v[j])) ++j;
      if (!numeric_only) {
        if (int m = MonthWord(v.substr(i, j - i))) months.insert(m);
      }
      i = j;
      continue;
    }
    if (!IsDigit(v[i])) {
      ++i;
      continue;
    }
    // A run of digits and date separators: 2019-03-15, 2019/03, 3/15/2019, 03/15/19.
    size_t j = i;
    std::vector<std::string> parts(1);
    char sep = 0;
    while (j < v.size() && (IsDigit(v[j]) || ((v[j] == '-' || v[j] == '/') && j + 1 < v.size() &&
                                              IsDigit(v[j + 1]) && (sep == 0 || sep == v[j])))) {
      if (IsDigit(v[j])) {
        parts.back() += v[j];
      } else {
        sep = v[j];
        parts.emplace_back();
      }
      ++j;
    }
    i = j;
    if (parts.size() < 2 || parts.size() > 3) continue;
    auto num = [](const std::string& s) { return s.size() <= 4 ? std::stoi(s) : -1; };
    if (parts[0].size() == 4) {  // ISO: year, month[, day]
      int y = num(parts[0]), m = num(parts[1]);
      if (Year(y) && parts[1].size() <= 2 && m >= 1 && m <= 12 &&
          (parts.size() == 2 || (parts[2].size() <= 2 && num(parts[2]) >= 1 && num(parts[2]) <= 31))) {
        years.insert(y);
        months.insert(m);
      }
    } else if (parts.size() == 3 && sep == '/' && parts[0].size() <= 2 && parts[1].size() <= 2 &&
               (parts[2].size() == 4 || parts[2].size() == 2)) {  // US: month/day/year
      int m = num(parts[0]), d = num(parts[1]), y = num(parts[2]);
      if (parts[2].size() == 2) y += y < 50 ? 2000 : 1900;
      if (m >= 1 && m <= 12 && d >= 1 && d <= 31 && Year(y)) {
        months.insert(m);
        years.insert(y);
      }
    }
  }
}

std::string Coverage::Text() const {
  if (empty()) return "";
  std::string out;
  for (int m : months) out += (out.empty() ? "" : ", ") + std::string(kMonths[m - 1]);
  out += ";";
  std::string ys;
  for (auto it = years.begin(); it != years.end();) {
    int start = *it, end = start;
    for (++it; it != years.end() && *it == end + 1; ++it) end = *it;
    ys += (ys.empty() ? "" : ", ") + std::to_string(start);
    if (end > start) ys += "\xE2\x80\x93" + std::to_string(end);  // en dash: a span the analyzer reads
  }
  if (!ys.empty()) out += " " + ys;
  return out;
}

std::string CoverageYears(std::string_view text) {
  size_t semi = text.find(';');
  if (semi == std::string_view::npos) return "";
  std::string_view y = text.substr(semi + 1);
  while (!y.empty() && y.front() == ' ') y.remove_prefix(1);
  return std::string(y);
}

}  // namespace lakeqa::index
