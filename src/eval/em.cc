// Answer scoring over the harness's cleaning (text/answer_clean.h): token F1, and lakeqa's own lenient
// number and date matchers.
#include "lakeqa/eval/em.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/text/answer_clean.h"

namespace lakeqa::eval {
namespace {

// Two-digit-or-less month/day parse helper.
bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int MonthNumber(std::string_view word) {
  static const std::array<std::string_view, 12> kMonths = {"january",   "february", "march",    "april",
                                                           "may",       "june",     "july",     "august",
                                                           "september", "october",  "november", "december"};
  std::string w = ToLowerAscii(word);
  while (!w.empty() && w.back() == '.') w.pop_back();
  if (w.size() < 3) return 0;
  for (size_t m = 0; m < kMonths.size(); ++m) {
    if (w == kMonths[m] || (w.size() == 3 && kMonths[m].substr(0, 3) == w) || (w == "sept" && m == 8)) {
      return static_cast<int>(m) + 1;
    }
  }
  return 0;
}

bool ValidDate(const ParsedDate& d) {
  if (d.month < 0 || d.month > 12 || d.day < 0 || d.day > 31) return false;
  if (d.day > 0 && d.month == 0) return false;
  return d.year > 0 || d.month > 0;
}

}  // namespace

double TokenF1(std::string_view prediction, std::string_view gold) {
  std::string gn = NormalizeText(gold);
  std::string pn = NormalizeText(prediction);
  auto tokens = [](const std::string& s) {
    std::map<std::string, int> counts;
    size_t n = 0;
    for (std::string_view t : Split(s, ' ')) {
      if (t.empty()) continue;
      ++counts[std::string(t)];
      ++n;
    }
    return std::pair(counts, n);
  };
  auto [pc, pn_count] = tokens(pn);
  auto [gc, gn_count] = tokens(gn);
  if (pn_count == 0 || gn_count == 0) return 0.0;
  size_t overlap = 0;
  for (const auto& [tok, c] : pc) {
    auto it = gc.find(tok);
    if (it != gc.end()) overlap += static_cast<size_t>(std::min(c, it->second));
  }
  if (overlap == 0) return 0.0;
  double precision = static_cast<double>(overlap) / static_cast<double>(pn_count);
  double recall = static_cast<double>(overlap) / static_cast<double>(gn_count);
  return 2 * precision * recall / (precision + recall);
}

std::optional<ParsedNumber> ParseSingleNumber(std::string_view text) {
  std::string_view s = Trim(text);
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (StartsWith(s.substr(i), "$")) {
    ++i;
  } else if (StartsWith(s.substr(i), "\xE2\x82\xAC") || StartsWith(s.substr(i), "\xC2\xA3")) {
    i += s.substr(i, 2) == "\xC2\xA3" ? 2 : 3;  // € or £
  }
  if (!neg && i < s.size() && s[i] == '-') neg = s[i++] == '-';  // "$-5"
  std::string digits;
  size_t int_start = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') digits.push_back(s[i++]);
  size_t first_group = i - int_start;
  // Thousands separators only in groups of three after a first group of one to three digits.
  while (first_group > 0 && first_group <= 3 && i + 3 < s.size() && s[i] == ',' &&
         AllDigits(s.substr(i + 1, 3)) && (i + 4 >= s.size() || s[i + 4] < '0' || s[i + 4] > '9')) {
    digits.append(s.substr(i + 1, 3));
    i += 4;
  }
  ParsedNumber n;
  if (i < s.size() && s[i] == '.' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') {
    digits.push_back('.');
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      digits.push_back(s[i++]);
      ++n.decimals;
    }
  }
  if (digits.empty() || digits[0] == '.') return std::nullopt;
  double value = 0;
  auto res = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (res.ec != std::errc()) return std::nullopt;
  std::string_view rest = Trim(s.substr(i));
  if (StartsWith(rest, "%")) {
    n.percent = true;
    rest = Trim(rest.substr(1));
  }
  static const std::array<std::pair<std::string_view, double>, 4> kScales = {
      {{"thousand", 1e3}, {"million", 1e6}, {"billion", 1e9}, {"trillion", 1e12}}};
  for (const auto& [word, mult] : kScales) {
    if (ToLowerAscii(rest.substr(0, word.size())) == word) {
      value *= mult;
      n.decimals = 0;
      rest = Trim(rest.substr(word.size()));
      break;
    }
  }
  // A trailing unit ("km", "years", "°F", "people") is allowed; anything holding another digit is not one
  // number.
  if (rest.size() > 24) return std::nullopt;
  for (char c : rest) {
    if ((c >= '0' && c <= '9') || c == ',' || c == ';' || c == '/' || c == '(' || c == '-')
      return std::nullopt;
  }
  n.value = neg ? -value : value;
  return n;
}

std::optional<ParsedDate> ParseDate(std::string_view text) {
  std::string t(Trim(text));
  // Tokens: runs of letters/digits; separators remembered to tell ISO from US forms.
  ParsedDate d;
  auto to_int = [](std::string_view s) { return std::atoi(std::string(s).c_str()); };
  // Numeric forms first.
  auto parts_of = [&](char sep) { return Split(t, sep); };
  if (t.find('-') != std::string::npos && t.find(' ') == std::string::npos) {
    auto p = parts_of('-');
    if ((p.size() == 3 || p.size() == 2) && p[0].size() == 4 && AllDigits(p[0]) && AllDigits(p[1]) &&
        p[1].size() <= 2 && (p.size() == 2 || (AllDigits(p[2].substr(0, 2)) && p[2].size() >= 1))) {
      d.year = to_int(p[0]);
      d.month = to_int(p[1]);
      if (p.size() == 3) {
        std::string_view day = p[2];
        size_t k = 0;
        while (k < day.size() && day[k] >= '0' && day[k] <= '9') ++k;
        if (k == 0 || k > 2 || (k < day.size() && day[k] != 'T')) return std::nullopt;
        d.day = to_int(day.substr(0, k));
      }
      return ValidDate(d) ? std::optional(d) : std::nullopt;
    }
  }
  if (t.find('/') != std::string::npos && t.find(' ') == std::string::npos) {
    auto p = parts_of('/');
    if ((p.size() == 2 || p.size() == 3) && AllDigits(p[0]) && AllDigits(p[1]) && p[0].size() <= 2 &&
        p[1].size() <= 2) {
      d.month = to_int(p[0]);
      d.day = to_int(p[1]);
      if (p.size() == 3) {
        if (!AllDigits(p[2]) || p[2].size() != 4) return std::nullopt;
        d.year = to_int(p[2]);
      }
      return ValidDate(d) ? std::optional(d) : std::nullopt;
    }
    return std::nullopt;
  }
  // Word forms: "March 1, 2019", "1 March 2019", "March 2019", "Mar. 1", "March 1st".
  std::vector<std::string> words;
  std::string cur;
  for (char c : t) {
    if (c == ' ' || c == ',') {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) words.push_back(cur);
  if (words.empty() || words.size() > 3) return std::nullopt;
  bool have_month = false;
  for (std::string w : words) {
    if (int m = MonthNumber(w); m > 0 && !have_month) {
      d.month = m;
      have_month = true;
      continue;
    }
    for (std::string_view suffix : {"st", "nd", "rd", "th"}) {
      if (w.size() > 2 && EndsWith(w, suffix) && AllDigits(std::string_view(w).substr(0, w.size() - 2))) {
        w.resize(w.size() - 2);
      }
    }
    if (!AllDigits(w)) return std::nullopt;
    if (w.size() == 4 && d.year == 0) {
      d.year = to_int(w);
    } else if (w.size() <= 2 && d.day == 0) {
      d.day = to_int(w);
    } else {
      return std::nullopt;
    }
  }
  if (!have_month) return std::nullopt;
  return ValidDate(d) ? std::optional(d) : std::nullopt;
}

AnswerScore ScoreAnswer(const Json& raw_answer, const Json& gold) {
  AnswerScore s;
  s.cleaned = CleanAnswer(raw_answer);
  s.gold_text = PythonStr(gold);
  s.norm_pred = NormalizeText(s.cleaned);
  s.norm_gold = NormalizeText(s.gold_text);
  // The harness computes EM and F1 only `if task.get("answer")`; a falsy gold answer scores 0.
  s.scorable = PythonTruthy(gold);
  if (!s.scorable) return s;
  s.em = s.norm_pred == s.norm_gold;
  s.f1 = TokenF1(s.cleaned, s.gold_text);
  // Lenient matchers compare the cleaned prediction with the cleaned gold (the harness cleans only the
  // prediction, so "1,046" as gold never equals a cleaned "1046" under EM).
  std::string pred_plain = text::CleanAnswerTextKeepingNumbers(text::AnswerText(raw_answer));
  std::string gold_plain = text::CleanAnswerTextKeepingNumbers(s.gold_text);
  auto pn = ParseSingleNumber(pred_plain);
  if (!pn) pn = ParseSingleNumber(s.cleaned);
  std::optional<ParsedNumber> gn;
  if (gold.is_number_float()) {
    // 1e-05 as Python prints it is not one number; the JSON value is.
    char buf[400];
    auto res = std::to_chars(buf, buf + sizeof buf, gold.get<double>(), std::chars_format::fixed);
    gn = ParseSingleNumber(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
  } else {
    gn = ParseSingleNumber(gold_plain);
    if (!gn) gn = ParseSingleNumber(CleanAnswerText(s.gold_text));
  }
  if (pn && gn) {
    // Equal at the precision the gold answer is written with ("16.7" accepts 16.68, "1046" accepts 1046.0).
    double scale = std::pow(10.0, gn->decimals);
    double rounded = std::round(pn->value * scale) / scale;
    s.numeric = std::fabs(rounded - gn->value) <= 1e-9 * std::max(1.0, std::fabs(gn->value));
  }
  // Dates are read before the single-number rule, which would cut "March 2019" down to "2019".
  auto pd = ParseDate(pred_plain);
  auto gd = ParseDate(gold_plain);
  if (pd && gd) {
    s.date = (gd->year == 0 || gd->year == pd->year) && (gd->month == 0 || gd->month == pd->month) &&
             (gd->day == 0 || gd->day == pd->day);
  }
  return s;
}

}  // namespace lakeqa::eval
