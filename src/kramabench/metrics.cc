// KramaBench's benchmark/metrics.py in C++, as its Evaluator calls it: both answers go through str() and
// strip() first, so every metric sees two strings. That makes precision/recall ROUGE-1 and F1 a per-
// character match even for list answers, and BLEU a character n-gram score; the port keeps those
// behaviours because the published numbers come from them. docs/kramabench.md lists the few places where
// Python's Unicode tables could give another answer.
#include <utf8proc.h>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "lakeqa/common/strings.h"
#include "lakeqa/eval/em.h"
#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {

using namespace eval;  // the core types a benchmark builds on: Task, LoadResult, RunScore, ...

namespace {

std::vector<char32_t> CodePoints(std::string_view s) {
  std::vector<char32_t> out;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(s.size());
  while (left > 0) {
    utf8proc_int32_t cp = 0;
    utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
    if (n <= 0) {  // a stray byte: one code point of its own, as a surrogateescape decode would give
      cp = 0xDC00 + *p;
      n = 1;
    }
    out.push_back(static_cast<char32_t>(cp));
    p += n;
    left -= n;
  }
  return out;
}

void AppendCp(char32_t c, std::string& out) {
  utf8proc_uint8_t buf[4];
  utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf);
  out.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

// str_to_float in metrics.py.
std::optional<double> StrToFloat(std::string_view s) {
  if (!s.empty() && s.back() == '%') {
    size_t b = 0, e = s.size();
    while (b < e && s[b] == '%') ++b;
    while (e > b && s[e - 1] == '%') --e;
    auto v = PyFloat(s.substr(b, e - b));
    if (!v) return std::nullopt;
    return *v / 100;
  }
  return PyFloat(s);
}

// A Python literal (what eval() of an answer gives when it is one): lists, tuples, numbers, strings,
// True/False/None. Anything else is nullopt (eval would raise or run code the port does not run).
struct LiteralParser {
  std::string_view s;
  size_t i = 0;
  void Ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  std::optional<Json> Value() {
    Ws();
    if (i >= s.size()) return std::nullopt;
    char c = s[i];
    if (c == '[' || c == '(') {
      char close = c == '[' ? ']' : ')';
      ++i;
      Json arr = Json::array();
      Ws();
      if (i < s.size() && s[i] == close) return ++i, arr;
      for (;;) {
        auto v = Value();
        if (!v) return std::nullopt;
        arr.push_back(*v);
        Ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          Ws();
          if (i < s.size() && s[i] == close) return ++i, arr;
          continue;
        }
        if (i < s.size() && s[i] == close) return ++i, arr;
        return std::nullopt;
      }
    }
    if (c == '\'' || c == '"') {
      ++i;
      std::string out;
      while (i < s.size() && s[i] != c) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          char e = s[++i];
          out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
        } else {
          out += s[i];
        }
        ++i;
      }
      if (i >= s.size()) return std::nullopt;
      ++i;
      return Json(out);
    }
    for (auto [word, val] :
         {std::pair<std::string_view, Json>{"True", true}, {"False", false}, {"None", nullptr}}) {
      if (s.substr(i, word.size()) == word) return i += word.size(), val;
    }
    size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' ||
                            s[i] == '+' || s[i] == '_'))
      ++i;
    std::string_view tok = s.substr(b, i - b);
    if (tok.empty()) return std::nullopt;
    bool integer = tok.find_first_of(".eEna") == std::string_view::npos;
    if (integer) {
      long long n = 0;
      auto r = std::from_chars(tok.data() + (tok[0] == '+'), tok.data() + tok.size(), n);
      if (r.ec == std::errc() && r.ptr == tok.data() + tok.size()) return Json(n);
    }
    if (tok.find_first_of("in") != std::string_view::npos)
      return std::nullopt;  // inf/nan are names in Python
    auto f = PyFloat(tok);
    if (!f) return std::nullopt;
    return Json(*f);
  }
};

std::optional<Json> PyLiteral(std::string_view s) {
  LiteralParser p{s};
  auto v = p.Value();
  p.Ws();
  if (!v || p.i != s.size()) return std::nullopt;
  return v;
}

// Python's float(x) of a json.loads value: numbers and numeric strings; nullopt where it raises.
std::optional<double> AsNumber(const Json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) return StrToFloat(v.get<std::string>());
  return std::nullopt;
}

// list(x) of a parsed value: a list's items, a string's characters, a dict's keys; nullopt for numbers.
std::optional<std::vector<Json>> AsList(const Json& v) {
  std::vector<Json> out;
  if (v.is_array()) {
    for (const auto& x : v) out.push_back(x);
  } else if (v.is_string()) {
    for (char32_t c : CodePoints(v.get<std::string>())) {
      std::string ch;
      AppendCp(c, ch);
      out.push_back(ch);
    }
  } else if (v.is_object()) {
    for (const auto& [k, x] : v.items()) out.push_back(k);
  } else {
    return std::nullopt;
  }
  return out;
}

// rouge_score's tokenizer without stemming: lower(), runs of [a-z0-9] are the tokens.
std::vector<std::string> RougeTokens(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char l : PythonLower(s)) {
    if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9')) {
      cur += static_cast<char>(l);
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

}  // namespace

std::optional<double> PyFloat(std::string_view s) {
  std::string t = PythonStrip(s);
  for (char c : t)
    if (static_cast<unsigned char>(c) > 0x7F) return std::nullopt;
  std::string lower = ToLowerAscii(t);
  std::string_view body = lower;
  bool neg = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "inf" || body == "infinity") return neg ? -HUGE_VAL : HUGE_VAL;
  if (body == "nan") return std::nan("");
  // digits with single underscores between them, an optional fraction and exponent; at least one digit
  std::string clean;
  size_t i = 0, mant_digits = 0;
  auto digits = [&](size_t& count) {
    bool prev_digit = false;
    while (i < body.size()) {
      char c = body[i];
      if (c >= '0' && c <= '9') {
        clean += c;
        ++count;
        prev_digit = true;
      } else if (c == '_' && prev_digit && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '9') {
        prev_digit = false;
      } else {
        break;
      }
      ++i;
    }
  };
  digits(mant_digits);
  if (i < body.size() && body[i] == '.') {
    clean += '.';
    ++i;
    digits(mant_digits);
  }
  if (mant_digits == 0) return std::nullopt;
  if (i < body.size() && body[i] == 'e') {
    clean += 'e';
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) clean += body[i++];
    size_t exp_digits = 0;
    digits(exp_digits);
    if (exp_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  double v = std::strtod(clean.c_str(), nullptr);
  return neg ? -v : v;
}

double KbSuccess(std::string_view predicted, std::string_view target) {
  return PythonLower(PythonStrip(predicted)) == PythonLower(PythonStrip(target)) ? 1.0 : 0.0;
}

std::optional<double> KbMeanAbsoluteError(std::string_view predicted, std::string_view target) {
  auto p = StrToFloat(predicted), t = StrToFloat(target);
  if (!p || !t) return std::nullopt;
  return std::fabs(*p - *t);
}

std::optional<double> KbMeanSquaredError(std::string_view predicted, std::string_view target) {
  auto p = StrToFloat(predicted), t = StrToFloat(target);
  if (!p || !t) return std::nullopt;
  return (*p - *t) * (*p - *t);
}

double KbMeanRelativeAbsoluteError(std::string_view predicted, std::string_view target) {
  auto p = StrToFloat(predicted), t = StrToFloat(target);
  if (!p || !t || *t == 0) return 1.0;  // ValueError / ZeroDivisionError → 1.0
  return std::fabs(*p - *t) / std::fabs(*t);
}

double KbBleu(std::string_view predicted, std::string_view target) {
  // nltk.translate.bleu_score.sentence_bleu([target], predicted): both strings, so n-grams of characters;
  // weights (0.25,)*4, no smoothing (method0: a zero precision becomes sys.float_info.min).
  auto hyp = CodePoints(predicted), ref = CodePoints(target);
  double log_sum = 0;
  for (size_t n = 1; n <= 4; ++n) {
    std::map<std::u32string, size_t> hc, rc;
    for (size_t i = 0; i + n <= hyp.size(); ++i)
      ++hc[std::u32string(hyp.begin() + long(i), hyp.begin() + long(i + n))];
    for (size_t i = 0; i + n <= ref.size(); ++i)
      ++rc[std::u32string(ref.begin() + long(i), ref.begin() + long(i + n))];
    size_t num = 0, den = 0;
    for (const auto& [g, c] : hc) {
      den += c;
      auto it = rc.find(g);
      num += std::min(c, it == rc.end() ? size_t{0} : it->second);
    }
    den = std::max<size_t>(den, 1);
    if (n == 1 && num == 0) return 0.0;
    double p = num == 0 ? DBL_MIN : static_cast<double>(num) / static_cast<double>(den);
    log_sum += 0.25 * std::log(p);
  }
  double c = static_cast<double>(hyp.size()), r = static_cast<double>(ref.size());
  double bp = c > r ? 1.0 : (c == 0 ? 0.0 : std::exp(1 - r / c));
  return bp * std::exp(log_sum);
}

RougeOne KbRouge1(std::string_view predicted, std::string_view target) {
  std::map<std::string, size_t> pc, tc;
  size_t pn = 0, tn = 0;
  for (auto& t : RougeTokens(predicted)) ++pc[t], ++pn;
  for (auto& t : RougeTokens(target)) ++tc[t], ++tn;
  size_t inter = 0;
  for (const auto& [tok, c] : tc) {
    auto it = pc.find(tok);
    if (it != pc.end()) inter += std::min(c, it->second);
  }
  RougeOne r;
  r.precision = static_cast<double>(inter) / static_cast<double>(std::max<size_t>(pn, 1));
  r.recall = static_cast<double>(inter) / static_cast<double>(std::max<size_t>(tn, 1));
  r.fmeasure = r.precision + r.recall > 0 ? 2 * r.precision * r.recall / (r.precision + r.recall) : 0.0;
  return r;
}

double KbF1(std::string_view predicted, std::string_view target) {
  auto t = CodePoints(target), p = CodePoints(predicted);
  if (t.empty()) return p.empty() ? 1.0 : 0.0;
  // Each character compared as c.strip().lower(): whitespace becomes "" (and matches any whitespace).
  auto norm = [](char32_t c) {
    std::string ch;
    AppendCp(c, ch);
    return PythonLower(PythonStrip(ch));
  };
  std::set<size_t> matched;
  size_t recall_cnt = 0;
  for (char32_t tc : t) {
    for (size_t j = 0; j < p.size(); ++j) {
      if (norm(tc) == norm(p[j])) {
        matched.insert(j);
        ++recall_cnt;
        break;
      }
    }
  }
  double recall = static_cast<double>(recall_cnt) / static_cast<double>(t.size());
  double precision = p.empty() ? 0 : static_cast<double>(matched.size()) / static_cast<double>(p.size());
  if (precision + recall == 0) return 0.0;
  return 2 * precision * recall / (precision + recall);
}

std::optional<double> KbF1Approximate(std::string_view predicted_s, std::string_view target_s) {
  if (target_s.empty()) return predicted_s.empty() ? 1.0 : 0.0;
  Json target;
  try {
    target = Json::parse(target_s);  // json.loads(target)
  } catch (const std::exception&) {
    return 0.0;  // JSONDecodeError → 0.0
  }
  std::optional<Json> predicted;
  try {
    predicted = Json::parse(predicted_s);
  } catch (const std::exception&) {
    predicted = PyLiteral(predicted_s);  // eval(predicted)
  }
  if (!predicted) return 0.0;
  auto plist = AsList(*predicted);
  auto tlist = AsList(target);
  if (!plist || !tlist) return 0.0;  // list(number) / iterating a number → TypeError → 0.0
  if (tlist->empty()) return 0.0;    // recall = 0 / 0 → ZeroDivisionError → 0.0
  size_t recall_cnt = 0;
  for (const Json& t : *tlist) {
    bool found = false;
    for (const Json& p : *plist) {
      if (t.is_string()) return std::nullopt;  // llm_interface.evaluate_paraphrase: needs an LLM
      auto tv = AsNumber(t);
      auto pv = p.is_string() ? StrToFloat(p.get<std::string>()) : AsNumber(p);
      if (!tv || !pv || *tv == 0) return 0.0;  // TypeError / ValueError / ZeroDivisionError → 0.0
      if (1 / (1 + std::fabs(*pv - *tv) / std::fabs(*tv)) < 0.1) {
        found = true;  // numeric matches are not added to matched_predicted in metrics.py
        break;
      }
    }
    if (found) ++recall_cnt;
  }
  double recall = static_cast<double>(recall_cnt) / static_cast<double>(tlist->size());
  double precision = 0;  // only string (LLM) matches count towards precision
  if (precision + recall == 0) return 0.0;
  return 2 * precision * recall / (precision + recall);
}

Result<std::map<std::string, std::optional<double>>> KramaBenchMetrics(std::string_view answer_type,
                                                                       const Json& predicted,
                                                                       const Json& target,
                                                                       std::optional<bool> paraphrase) {
  const auto& names = KramaBenchMetricsFor(answer_type);
  if (names.empty())
    return InvalidArgument("unknown KramaBench answer_type '" + std::string(answer_type) + "'");
  std::string p = PythonStrip(PythonStr(predicted)), t = PythonStrip(PythonStr(target));
  std::map<std::string, std::optional<double>> m;
  auto finite = [](std::optional<double> v) -> std::optional<double> {
    if (v && std::isnan(*v)) return std::nullopt;  // pandas drops NaN like None
    return v;
  };
  for (const auto& name : names) {
    if (name == "success") m[name] = KbSuccess(p, t);
    else if (name == "mean_absolute_error") m[name] = finite(KbMeanAbsoluteError(p, t));
    else if (name == "mean_squared_error") m[name] = finite(KbMeanSquaredError(p, t));
    else if (name == "mean_relative_absolute_error") m[name] = finite(KbMeanRelativeAbsoluteError(p, t));
    else if (name == "bleu") m[name] = KbBleu(p, t);
    else if (name == "rouge") m[name] = KbRouge1(p, t).fmeasure;
    else if (name == "precision") m[name] = KbRouge1(p, t).precision;
    else if (name == "recall") m[name] = KbRouge1(p, t).recall;
    else if (name == "f1") m[name] = KbF1(p, t);
    else if (name == "f1_approximate") m[name] = KbF1Approximate(p, t);
    else if (name == "llm_paraphrase")
      m[name] = paraphrase ? std::optional<double>(*paraphrase ? 1.0 : 0.0) : std::nullopt;
  }
  std::string main;
  if (auto s = KramaBenchMainScore(answer_type, m, &main);
      !main.empty() && main != "success" && main != "f1") {
    m[main] = s;
  }
  return m;
}

std::optional<double> KramaBenchMainScore(std::string_view answer_type,
                                          const std::map<std::string, std::optional<double>>& m,
                                          std::string* name) {
  auto get = [&](const char* k) -> std::optional<double> {
    auto it = m.find(k);
    return it == m.end() ? std::nullopt : it->second;
  };
  std::string n;
  std::optional<double> v;
  if (answer_type == "numeric_exact" || answer_type == "string_exact") {
    n = "success";
    v = get("success");
  } else if (answer_type == "list_exact") {
    n = "f1";
    v = get("f1");
  } else if (answer_type == "numeric_approximate") {
    n = "rae_score";
    if (auto rae = get("mean_relative_absolute_error")) v = 1 / (1 + *rae);
  } else if (answer_type == "string_approximate") {
    n = "string_bootstrap";
    auto para = get("llm_paraphrase");
    auto bleu = get("bleu"), rouge = get("rouge");
    if (para && bleu && rouge) v = *para > 0 ? 1.0 : (*bleu > 0.2 ? *rouge : 0.0);
  }
  if (name) *name = n;
  return v;
}

}  // namespace lakeqa::kramabench
