#include "lakeqa/eval/answer_type.h"

#include <array>
#include <cctype>
#include <string>

#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/eval/task.h"

namespace lakeqa::eval {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

size_t CountDigits(std::string_view s, size_t& i) {
  size_t start = i;
  while (i < s.size() && IsDigit(s[i])) ++i;
  return i - start;
}

// [-+]?$?digits(,ddd)*(.digits)?%?( thousand| million| billion| trillion)?
bool IsNumberText(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < s.size() && s[i] == '$') ++i;
  size_t int_digits = CountDigits(s, i);
  while (int_digits > 0 && i + 1 < s.size() && s[i] == ',' && IsDigit(s[i + 1])) {
    size_t j = i + 1;
    if (CountDigits(s, j) != 3) return false;
    i = j;
  }
  size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    frac_digits = CountDigits(s, i);
    if (frac_digits == 0) return false;
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (i < s.size() && s[i] == '%') ++i;
  std::string_view rest = Trim(s.substr(i));
  return rest.empty() || rest == "thousand" || rest == "million" || rest == "billion" || rest == "trillion";
}

bool IsYear(std::string_view s) {
  if (s.size() != 4) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return s[0] == '1' || (s[0] == '2' && s[1] == '0');
}

bool IsDateText(std::string_view s) {
  // dd/dd/dddd, dd-dd-dddd, dddd-dd(-dd)?
  size_t i = 0;
  size_t a = CountDigits(s, i);
  if (a >= 1 && a <= 2 && i < s.size() && (s[i] == '/' || s[i] == '-')) {
    char sep = s[i++];
    size_t b = CountDigits(s, i);
    if (b >= 1 && b <= 2 && i < s.size() && s[i] == sep) {
      ++i;
      size_t c = CountDigits(s, i);
      if ((c == 2 || c == 4) && i == s.size()) return true;
    }
  }
  i = 0;
  if (CountDigits(s, i) == 4 && i < s.size() && s[i] == '-') {
    ++i;
    if (CountDigits(s, i) == 2) {
      if (i == s.size()) return true;
      if (s[i] == '-') {
        ++i;
        if (CountDigits(s, i) == 2 && (i == s.size() || s[i] == 'T' || s[i] == ' ')) return true;
      }
    }
  }
  // 1990s
  if (s.size() == 5 && IsYear(s.substr(0, 4)) && s[3] == '0' && s[4] == 's') return true;
  // A month name next to a number: "February 25, 1881", "March 2019", "25 March 2019".
  static constexpr std::array<std::string_view, 12> kMonths = {
      "january", "february", "march",     "april",   "may",      "june",
      "july",    "august",   "september", "october", "november", "december"};
  std::string lower = ToLowerAscii(s);
  bool digit = false;
  for (char c : lower) digit |= IsDigit(c);
  if (!digit || lower.size() > 40) return false;
  for (std::string_view m : kMonths) {
    size_t p = lower.find(m);
    if (p == std::string::npos) continue;
    bool left = p == 0 || !std::isalpha(static_cast<unsigned char>(lower[p - 1]));
    size_t e = p + m.size();
    bool right = e == lower.size() || !std::isalpha(static_cast<unsigned char>(lower[e]));
    if (left && right) return true;
  }
  return false;
}

bool AsksForTime(std::string_view question) {
  std::string q = ToLowerAscii(question);
  for (std::string_view w : {"year", "when", "date", "decade"}) {
    size_t p = q.find(w);
    while (p != std::string::npos) {
      bool left = p == 0 || !std::isalpha(static_cast<unsigned char>(q[p - 1]));
      if (left) return true;
      p = q.find(w, p + 1);
    }
  }
  return false;
}

}  // namespace

std::string_view AnswerTypeName(AnswerType t) {
  switch (t) {
    case AnswerType::kNumeric: return "numeric";
    case AnswerType::kTemporal: return "temporal";
    case AnswerType::kEntity: return "entity";
  }
  return "entity";
}

AnswerType ClassifyAnswer(const Json& answer, std::string_view question) {
  std::string text;
  if (answer.is_number_integer() || answer.is_number_unsigned()) {
    text = answer.dump();
  } else if (answer.is_number()) {
    return AnswerType::kNumeric;
  } else if (answer.is_string()) {
    text = std::string(Trim(answer.get_ref<const std::string&>()));
  } else {
    return AnswerType::kEntity;
  }
  if (IsDateText(text)) return AnswerType::kTemporal;
  if (IsYear(text) && AsksForTime(question)) return AnswerType::kTemporal;
  if (IsNumberText(text)) return AnswerType::kNumeric;
  return AnswerType::kEntity;
}

std::string TaskAnswerType(const Task& task) {
  if (task.extension) {
    if (std::optional<std::string> own = task.extension->AnswerType()) return *own;
  }
  return std::string(AnswerTypeName(ClassifyAnswer(task.answer, task.question)));
}

}  // namespace lakeqa::eval
