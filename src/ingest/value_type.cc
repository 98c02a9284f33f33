#include "ingest/value_type.h"

#include <cctype>

#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsInteger(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s.size() > 1 && s[0] == '0' && AllDigits(s)) return false;  // "007" is a code, not a number
  // Thousands separators as US data.gov tables write them: 1,234,567.
  if (s.find(',') != std::string_view::npos) {
    auto parts = Split(s, ',');
    if (parts[0].empty() || parts[0].size() > 3 || !AllDigits(parts[0])) return false;
    for (size_t i = 1; i < parts.size(); ++i) {
      if (parts[i].size() != 3 || !AllDigits(parts[i])) return false;
    }
    return true;
  }
  return AllDigits(s) && s.size() <= 19;
}

bool IsFloat(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool digits = false, dot = false, exp = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c == '.' && !dot && !exp) {
      dot = true;
    } else if ((c == 'e' || c == 'E') && digits && !exp) {
      exp = true;
      digits = false;
      if (i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '+')) ++i;
    } else {
      return false;
    }
  }
  return digits && (dot || exp);
}

bool Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// YYYY-MM-DD, YYYY/MM/DD, MM/DD/YYYY (also M/D/YYYY). Returns the length of the date prefix, or 0.
size_t DatePrefix(std::string_view s) {
  if (Digits(s, 0, 4) && s.size() >= 10 && (s[4] == '-' || s[4] == '/') && Digits(s, 5, 2) && s[7] == s[4] &&
      Digits(s, 8, 2)) {
    int m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    return (m >= 1 && m <= 12 && d >= 1 && d <= 31) ? 10 : 0;
  }
  size_t i = 0;
  auto num = [&](size_t max) {
    size_t start = i;
    while (i < s.size() && i - start < max && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  auto value = [&](size_t start, size_t len) {
    int v = 0;
    for (size_t k = start; k < start + len; ++k) v = v * 10 + (s[k] - '0');
    return v;
  };
  size_t a = num(2);
  if (a == 0 || i >= s.size() || s[i] != '/') return 0;
  int m = value(0, a);
  ++i;
  size_t bstart = i;
  size_t b = num(2);
  if (b == 0 || i >= s.size() || s[i] != '/') return 0;
  int d = value(bstart, b);
  ++i;
  if (num(4) != 4) return 0;
  return (m >= 1 && m <= 12 && d >= 1 && d <= 31) ? i : 0;
}

}  // namespace

ValueType ClassifyValue(std::string_view v) {
  v = Trim(v);
  if (v.empty()) return ValueType::kEmpty;
  if (IsInteger(v)) return ValueType::kInteger;
  if (IsFloat(v)) return ValueType::kFloat;
  std::string lower = v.size() <= 5 ? ToLowerAscii(v) : std::string();
  if (lower == "true" || lower == "false") return ValueType::kBoolean;
  size_t d = DatePrefix(v);
  if (d > 0) {
    if (d == v.size()) return ValueType::kDate;
    char sep = v[d];
    if ((sep == 'T' || sep == ' ') && d + 3 <= v.size() && Digits(v, d + 1, 2) &&
        (d + 3 == v.size() || v[d + 3] == ':')) {
      return ValueType::kDatetime;
    }
  }
  return ValueType::kString;
}

ValueType WidenType(ValueType column, ValueType value) {
  if (value == ValueType::kEmpty || column == value) return column;
  if (column == ValueType::kEmpty) return value;
  auto numeric = [](ValueType t) { return t == ValueType::kInteger || t == ValueType::kFloat; };
  if (numeric(column) && numeric(value)) return ValueType::kFloat;
  auto temporal = [](ValueType t) { return t == ValueType::kDate || t == ValueType::kDatetime; };
  if (temporal(column) && temporal(value)) return ValueType::kDatetime;
  return ValueType::kString;
}

std::string_view ValueTypeName(ValueType t) {
  switch (t) {
    case ValueType::kEmpty: return "empty";
    case ValueType::kBoolean: return "boolean";
    case ValueType::kInteger: return "integer";
    case ValueType::kFloat: return "float";
    case ValueType::kDate: return "date";
    case ValueType::kDatetime: return "datetime";
    case ValueType::kString: return "string";
  }
  return "string";
}

void ColumnAccumulator::Add(std::string_view value) {
  std::string_view v = Trim(value);
  if (v.empty()) return;
  ++non_empty_;
  if (type_ != ValueType::kString) type_ = WidenType(type_, ClassifyValue(v));
  if (samples_.size() < max_samples_) {
    std::string_view key = TruncateUtf8(v, max_value_bytes_);
    if (seen_.find(key) != seen_.end()) return;
    seen_.emplace(key);
    samples_.push_back(SanitizeUtf8(key));
    if (samples_.size() >= max_samples_) seen_.clear();  // no longer needed: free it
  }
}

size_t ColumnAccumulator::ApproxBytes() const {
  size_t n = sizeof(*this) + name_.capacity();
  for (const auto& s : samples_) n += sizeof(s) + s.capacity();
  for (const auto& s : seen_) n += sizeof(s) + s.capacity() + 16;
  return n;
}

ColumnProfile ColumnAccumulator::Build() const {
  ColumnProfile c;
  c.name = name_;
  c.type = std::string(ValueTypeName(type_));
  c.non_empty = non_empty_;
  c.samples = samples_;
  return c;
}

}  // namespace lakeqa::ingest
