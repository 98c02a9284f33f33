// The LakeQA harness's answer cleaning and normalisation, ported with Python's Unicode semantics: the
// harness runs on Python 3 `str`, so \w is "alphanumeric or _" over all of Unicode (letters L*, numbers
// N*), \s and str.split()/strip() use Python's whitespace (category Zs or bidi class WS/B/S), \d is a
// decimal digit (Nd), and str.lower() applies the full lower-case mapping (U+0130 → "i̇", final sigma).
#include "lakeqa/text/answer_clean.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include <utf8proc.h>

#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::text {
namespace {

using U32 = std::u32string;

U32 Decode(std::string_view s) {
  U32 out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    utf8proc_int32_t cp = -1;
    utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                                          static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
    if (n <= 0) {
      out.push_back(0xFFFD);  // what Python's errors="replace" would give
      ++i;
    } else {
      out.push_back(static_cast<char32_t>(cp));
      i += static_cast<size_t>(n);
    }
  }
  return out;
}

std::string Encode(const U32& s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) AppendUtf8(static_cast<uint32_t>(c), out);
  return out;
}

utf8proc_category_t Category(char32_t c) { return utf8proc_category(static_cast<utf8proc_int32_t>(c)); }

// Python's str.isspace(): bidirectional class WS, B or S, or category Zs.
bool IsSpace(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  if (c > 0x10FFFF) return false;
  const utf8proc_property_t* p = utf8proc_get_property(static_cast<utf8proc_int32_t>(c));
  return p->category == UTF8PROC_CATEGORY_ZS || p->bidi_class == UTF8PROC_BIDI_CLASS_WS ||
         p->bidi_class == UTF8PROC_BIDI_CLASS_B || p->bidi_class == UTF8PROC_BIDI_CLASS_S;
}

// Python's re \w for str patterns: str.isalnum() or '_'.
bool IsWord(char32_t c) {
  if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  switch (Category(c)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO: return true;
    default: return false;
  }
}

// Python's re \d for str patterns: str.isdecimal().
bool IsDecimal(char32_t c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  return Category(c) == UTF8PROC_CATEGORY_ND;
}

bool IsCased(char32_t c) {
  auto cat = Category(c);
  return cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL || cat == UTF8PROC_CATEGORY_LT;
}

// Unicode's Case_Ignorable (the part of it that matters for final sigma).
bool IsCaseIgnorable(char32_t c) {
  switch (c) {
    case 0x27:
    case 0x2E:
    case 0x3A:
    case 0xB7:
    case 0x387:
    case 0x55F:
    case 0x5F4:
    case 0x2018:
    case 0x2019:
    case 0x2024:
    case 0x2027:
    case 0xFE13:
    case 0xFE52:
    case 0xFE55:
    case 0xFF07:
    case 0xFF0E:
    case 0xFF1A: return true;
    default: break;
  }
  auto cat = Category(c);
  return cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_ME || cat == UTF8PROC_CATEGORY_CF ||
         cat == UTF8PROC_CATEGORY_LM || cat == UTF8PROC_CATEGORY_SK;
}

// Python's str.lower(): the simple mapping, plus the one unconditional special case (U+0130) and the
// Final_Sigma context of U+03A3.
U32 PyLower(const U32& s) {
  U32 out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (c < 0x80) {
      out.push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
    } else if (c == 0x130) {
      out.push_back(U'i');
      out.push_back(0x307);
    } else if (c == 0x3A3) {
      size_t j = i;
      char32_t prev = 0;
      bool found = false;
      while (j > 0) {
        prev = s[--j];
        if (!IsCaseIgnorable(prev)) {
          found = true;
          break;
        }
      }
      bool final_sigma = found && IsCased(prev);
      if (final_sigma) {
        size_t k = i + 1;
        while (k < s.size() && IsCaseIgnorable(s[k])) ++k;
        final_sigma = k == s.size() || !IsCased(s[k]);
      }
      out.push_back(final_sigma ? 0x3C2 : 0x3C3);
    } else {
      out.push_back(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
  }
  return out;
}

U32 PyStrip(const U32& s) {
  size_t b = 0, e = s.size();
  while (b < e && IsSpace(s[b])) ++b;
  while (e > b && IsSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// re.IGNORECASE equality of a text character with an ASCII pattern letter, including the equivalences
// Python's sre adds (i ~ ı ~ İ, s ~ ſ).
bool IgnoreCaseEq(char32_t c, char p) {
  if (c < 0x80) return (c | 0x20) == static_cast<char32_t>(p);
  if (p == 'i') return c == 0x131 || c == 0x130;
  if (p == 's') return c == 0x17F;
  return false;
}

bool MatchWordAt(const U32& s, size_t at, std::string_view word, size_t& end) {
  if (at + word.size() > s.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (word[k] == ' ') {
      if (s[at + k] != U' ') return false;
    } else if (!IgnoreCaseEq(s[at + k], word[k])) {
      return false;
    }
  }
  end = at + word.size();
  return true;
}

// re.sub(r"^(final answer|answer)\s*[:\-]\s*", "", text, flags=re.IGNORECASE)
U32 StripPrefix(const U32& s) {
  for (std::string_view word : {std::string_view("final answer"), std::string_view("answer")}) {
    size_t i = 0;
    if (!MatchWordAt(s, 0, word, i)) continue;
    while (i < s.size() && IsSpace(s[i])) ++i;
    if (i >= s.size() || (s[i] != U':' && s[i] != U'-')) continue;
    ++i;
    while (i < s.size() && IsSpace(s[i])) ++i;
    return s.substr(i);
  }
  return s;
}

// re.findall(r"[-+]?\d[\d,]*\.?\d*", text), then .replace(",", "").rstrip(".")
std::vector<U32> FindNumbers(const U32& s) {
  std::vector<U32> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t start = i;
    size_t j = i;
    if ((s[j] == U'-' || s[j] == U'+') && j + 1 < s.size() && IsDecimal(s[j + 1])) {
      ++j;
    } else if (!IsDecimal(s[j])) {
      ++i;
      continue;
    }
    ++j;  // the \d
    while (j < s.size() && (IsDecimal(s[j]) || s[j] == U',')) ++j;
    if (j < s.size() && s[j] == U'.') ++j;
    while (j < s.size() && IsDecimal(s[j])) ++j;
    U32 n;
    for (size_t k = start; k < j; ++k) {
      if (s[k] != U',') n.push_back(s[k]);
    }
    while (!n.empty() && n.back() == U'.') n.pop_back();
    out.push_back(std::move(n));
    i = j;
  }
  return out;
}

U32 CleanU32(U32 text, bool single_number_rule = true) {
  text = PyStrip(text);
  // re.search(r"\[([^\[\]]+)\]", text): the leftmost '[' followed by non-bracket characters and ']'.
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != U'[') continue;
    size_t j = i + 1;
    while (j < text.size() && text[j] != U'[' && text[j] != U']') ++j;
    if (j > i + 1 && j < text.size() && text[j] == U']') {
      text = PyStrip(text.substr(i + 1, j - i - 1));
      break;
    }
  }
  text = StripPrefix(text);
  if (!text.empty() &&
      ((text.front() == U'"' && text.back() == U'"') || (text.front() == U'\'' && text.back() == U'\''))) {
    // text[1:-1]: a lone quote character becomes empty.
    text = text.size() >= 2 ? PyStrip(text.substr(1, text.size() - 2)) : U32();
  }
  if (!single_number_rule) return text;
  std::vector<U32> numbers = FindNumbers(text);
  if (numbers.size() == 1) return numbers[0];
  return text;
}

// Python's repr() of a str.
std::string PyReprString(std::string_view s) {
  U32 u = Decode(s);
  bool has_single = u.find(U'\'') != U32::npos;
  bool has_double = u.find(U'"') != U32::npos;
  char32_t quote = has_single && !has_double ? U'"' : U'\'';
  std::string out(1, static_cast<char>(quote));
  for (char32_t c : u) {
    if (c == quote || c == U'\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == U'\t') {
      out += "\\t";
    } else if (c == U'\n') {
      out += "\\n";
    } else if (c == U'\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      // Python escapes what str.isprintable() rejects: categories C*, Z* other than the ASCII space.
      auto cat = Category(c);
      bool printable =
          !(cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF || cat == UTF8PROC_CATEGORY_CS ||
            cat == UTF8PROC_CATEGORY_CO || cat == UTF8PROC_CATEGORY_CN || cat == UTF8PROC_CATEGORY_ZL ||
            cat == UTF8PROC_CATEGORY_ZP || cat == UTF8PROC_CATEGORY_ZS);
      if (printable) {
        AppendUtf8(static_cast<uint32_t>(c), out);
      } else {
        char buf[16];
        if (c <= 0xFF) {
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
        } else if (c <= 0xFFFF) {
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        } else {
          std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(c));
        }
        out += buf;
      }
    }
  }
  out.push_back(static_cast<char>(quote));
  return out;
}

// Python's repr() of a float: the shortest round-trip digits, positional when the decimal exponent is in
// [-4, 16), otherwise scientific with at least two exponent digits.
std::string PyReprFloat(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  size_t e = sci.find('e');
  std::string mant = sci.substr(0, e);
  int exp = std::stoi(sci.substr(e + 1));
  bool neg = !mant.empty() && mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char c : mant) {
    if (c != '.') digits.push_back(c);
  }
  std::string out = neg ? "-" : "";
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out += "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
    } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
      out += digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0') + ".0";
    } else {
      out +=
          digits.substr(0, static_cast<size_t>(exp) + 1) + "." + digits.substr(static_cast<size_t>(exp) + 1);
    }
  } else {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += eb;
  }
  return out;
}

std::string PyRepr(const Json& v) {
  if (v.is_string()) return PyReprString(v.get_ref<const std::string&>());
  return PythonStr(v);
}

}  // namespace

std::string PythonStr(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "None";
    case Json::value_t::boolean: return v.get<bool>() ? "True" : "False";
    case Json::value_t::string: return v.get<std::string>();
    case Json::value_t::number_integer: return std::to_string(v.get<int64_t>());
    case Json::value_t::number_unsigned: return std::to_string(v.get<uint64_t>());
    case Json::value_t::number_float: return PyReprFloat(v.get<double>());
    case Json::value_t::array: {
      std::string out = "[";
      bool first = true;
      for (const Json& e : v) {
        if (!first) out += ", ";
        first = false;
        out += PyRepr(e);
      }
      return out + "]";
    }
    case Json::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ", ";
        first = false;
        out += PyReprString(it.key()) + ": " + PyRepr(it.value());
      }
      return out + "}";
    }
    default: return DumpJson(v);
  }
}

std::string PythonStrip(std::string_view s) { return Encode(PyStrip(Decode(s))); }
std::string PythonLower(std::string_view s) { return Encode(PyLower(Decode(s))); }

bool PythonTruthy(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return false;
    case Json::value_t::boolean: return v.get<bool>();
    case Json::value_t::string: return !v.get_ref<const std::string&>().empty();
    case Json::value_t::number_integer: return v.get<int64_t>() != 0;
    case Json::value_t::number_unsigned: return v.get<uint64_t>() != 0;
    case Json::value_t::number_float: return v.get<double>() != 0.0;
    case Json::value_t::array:
    case Json::value_t::object: return !v.empty();
    default: return true;
  }
}

std::string CleanAnswerText(std::string_view answer) {
  if (answer.empty()) return "";
  return Encode(CleanU32(Decode(answer)));
}

std::string AnswerText(const Json& answer) {
  if (!PythonTruthy(answer)) return "";
  Json a = answer;
  if (a.is_object()) {
    Json picked;
    for (const char* key : {"answer", "value", "result"}) {
      auto it = a.find(key);
      if (it != a.end() && PythonTruthy(*it)) {
        picked = *it;
        break;
      }
    }
    a = picked.is_null() ? Json(PythonStr(a)) : picked;
  }
  return PythonStr(a);
}

std::string CleanAnswer(const Json& answer) { return CleanAnswerText(AnswerText(answer)); }

std::string CleanAnswerTextKeepingNumbers(std::string_view answer) {
  return Encode(CleanU32(Decode(answer), false));
}

std::string NormalizeText(std::string_view text) {
  U32 lowered = PyLower(Decode(text));
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (char32_t c : lowered) {
    // [^\w\s] → ' ', then ' '.join(split()): every run of non-word characters is one separator.
    if (IsWord(c)) {
      if (pending_space && !out.empty()) out.push_back(' ');
      pending_space = false;
      AppendUtf8(static_cast<uint32_t>(c), out);
    } else {
      pending_space = true;
    }
  }
  return out;
}

}  // namespace lakeqa::text
