#include "ingest/json_profile.h"

#include <cstring>

#include "lakeqa/common/hex.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {
constexpr size_t kMaxToken = 1024;
constexpr size_t kMaxDepth = 256;

// true, false, null, a JSON number; NaN and Infinity too, as Python's json module writes them.
bool IsJsonLiteral(std::string_view v) {
  if (v == "true" || v == "false" || v == "null" || v == "NaN" || v == "Infinity" || v == "-Infinity")
    return true;
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
    return i > start;
  };
  if (i < v.size() && v[i] == '-') ++i;
  if (!digits()) return false;
  if (i < v.size() && v[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
    ++i;
    if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == v.size();
}

}  // namespace

void JsonProfiler::Error(std::string what) {
  ++errors_;
  if (first_error_.empty()) first_error_ = std::move(what) + " at byte " + std::to_string(pos_);
}

void JsonProfiler::AppendToken(std::string_view bytes) {
  if (high_surrogate_) FlushSurrogate();
  size_t room = token_.size() < kMaxToken ? kMaxToken - token_.size() : 0;
  if (bytes.size() > room) token_truncated_ = true;
  // A cut inside a multi-byte character is repaired when the sample is sanitized.
  token_.append(bytes.substr(0, room));
}

void JsonProfiler::FlushSurrogate() {
  uint32_t lone = high_surrogate_;
  high_surrogate_ = 0;
  if (lone && token_.size() < kMaxToken) AppendUtf8(0xFFFD, token_);
}

void JsonProfiler::AppendCodeUnit(uint32_t unit) {
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    if (high_surrogate_) FlushSurrogate();
    high_surrogate_ = unit;
    return;
  }
  uint32_t cp = unit;
  if (unit >= 0xDC00 && unit <= 0xDFFF) {
    cp = high_surrogate_ ? 0x10000 + ((high_surrogate_ - 0xD800) << 10) + (unit - 0xDC00) : 0xFFFD;
    high_surrogate_ = 0;
  } else if (high_surrogate_) {
    FlushSurrogate();
  }
  if (token_.size() + 4 <= kMaxToken) AppendUtf8(cp, token_);
  else token_truncated_ = true;
}

JsonProfiler::JsonProfiler(Format format, const ProfileOptions& options)
    : format_(format), options_(options) {}

bool JsonProfiler::RecordLevel() const {
  size_t d = stack_.size();
  if (d == 0 || stack_.back().array) return false;
  if (format_ == Format::kJsonLines) return d == 1;
  if (format_ == Format::kGeoJson) {
    // FeatureCollection → features[] → {properties: {...}}
    if (d == 4 && stack_[3].key == "properties" && stack_[1].key == "features") return true;
    // A single Feature: its own properties are the one record.
    return d == 2 && stack_[1].key == "properties" && !stack_[0].array && top_type_ != "FeatureCollection";
  }
  // A top-level array of objects (Socrata-style rows).
  return d == 2 && stack_[0].array;
}

void JsonProfiler::AddPath() {
  if (paths_.size() >= options_.max_json_paths || path_.empty()) return;
  if (path_set_.find(path_) != path_set_.end()) return;  // the common case: no copy
  path_set_.insert(path_);
  paths_.push_back(path_);
}

void JsonProfiler::AddColumnValue(const std::string& column, std::string_view value) {
  auto it = column_index_.find(column);
  if (it == column_index_.end()) {
    if (columns_.size() >= options_.max_columns) return;
    it = column_index_.emplace(column, columns_.size()).first;
    columns_.emplace_back(SanitizeUtf8(TruncateUtf8(column, 200)), options_.max_samples_per_column,
                          options_.max_sample_value_bytes);
  }
  ColumnAccumulator& col = columns_[it->second];
  if (col.Saturated()) col.CountOnly(!value.empty());
  else col.Add(value);
}

void JsonProfiler::BeforeValue() {
  if (!stack_.empty() && !stack_.back().array) {
    // A value inside an object: its path is path_ + "." + key.
    if (!path_.empty()) path_ += '.';
    path_ += pending_key_;
  }
}

void JsonProfiler::AfterValue() {
  if (!stack_.empty() && !stack_.back().array) {
    // Back to the container's own path.
    path_.resize(stack_.back().path_len);
    stack_.back().expect_key = true;
  }
  if (stack_.empty()) {
    ++top_values_;
    if (format_ == Format::kJsonLines) ++records_;
  }
}

void JsonProfiler::OpenContainer(bool array) {
  std::string key = (!stack_.empty() && !stack_.back().array) ? pending_key_ : std::string();
  BeforeValue();
  // Count records: items of a top-level array, GeoJSON features.
  if (stack_.size() == 1 && stack_[0].array && format_ != Format::kJsonLines) ++records_;
  if (format_ == Format::kGeoJson && stack_.size() == 2 && stack_[1].key == "features" && stack_[1].array)
    ++records_;
  if (array) path_ += "[]";
  if (stack_.size() >= kMaxDepth) {
    ++errors_;
    if (first_error_.empty()) first_error_ = "nesting deeper than " + std::to_string(kMaxDepth) + " levels";
  }
  Frame f;
  f.array = array;
  f.key = std::move(key);
  f.path_len = path_.size();
  stack_.push_back(std::move(f));
}

void JsonProfiler::CloseContainer(bool array) {
  if (stack_.empty()) {
    Error("unbalanced closing bracket");
    return;
  }
  if (stack_.back().array != array) Error(array ? "']' closes an object" : "'}' closes an array");
  Frame f = std::move(stack_.back());
  stack_.pop_back();
  // Back to the parent's view: drop "[]" and the key part.
  if (stack_.empty()) {
    path_.clear();
  } else {
    path_.resize(stack_.back().path_len);
  }
  if (!stack_.empty() && !stack_.back().array) stack_.back().expect_key = true;
  if (stack_.empty()) {
    ++top_values_;
    if (format_ == Format::kJsonLines) ++records_;
  }
}

void JsonProfiler::OnKey(std::string_view key) {
  pending_key_.assign(key);
  if (paths_.size() >= options_.max_json_paths) return;
  size_t len = path_.size();
  if (!path_.empty()) path_ += '.';
  path_ += pending_key_;
  AddPath();
  path_.resize(len);
}

void JsonProfiler::OnScalar(std::string_view value, bool is_string, bool validate) {
  if (!is_string && validate && !IsJsonLiteral(value)) {
    Error("invalid token '" + SanitizeUtf8(TruncateUtf8(value, 40)) + "'");
  }
  bool record = RecordLevel();
  static const std::string kNoKey;
  const std::string& key = (!stack_.empty() && !stack_.back().array) ? pending_key_ : kNoKey;
  BeforeValue();
  if (stack_.size() == 1 && stack_[0].array && format_ != Format::kJsonLines) ++records_;
  if (record) AddColumnValue(key, (is_string || value != "null") ? value : std::string_view());
  if (format_ == Format::kGeoJson && key == "type" && stack_.size() == 1) top_type_ = TruncateUtf8(value, 40);
  if (format_ == Format::kGeoJson && key == "type" && stack_.size() >= 2 && stack_.back().key == "geometry") {
    if (geometry_types_.size() < 16) ++geometry_types_[std::string(TruncateUtf8(value, 40))];
  }
  AfterValue();
}

void JsonProfiler::Feed(std::string_view chunk) {
  for (size_t i = 0; i < chunk.size(); ++i, ++pos_) {
    char c = chunk[i];
    switch (state_) {
      case State::kString: {
        if (c == '\\') {
          state_ = State::kStringEscape;
          continue;
        }
        if (c == '"') {
          if (high_surrogate_) FlushSurrogate();
          state_ = State::kValue;
          if (string_is_key_) {
            OnKey(token_);
          } else {
            OnScalar(token_, true);
          }
          token_.clear();
          token_truncated_ = false;
          continue;
        }
        // Fast path: plain bytes up to the next quote or backslash (found with memchr; a long string past
        // the token cap is skipped, not copied).
        const char* from = chunk.data() + i;
        size_t left = chunk.size() - i;
        const char* q = static_cast<const char*>(std::memchr(from, '"', left));
        size_t span = q ? static_cast<size_t>(q - from) : left;
        const char* b = static_cast<const char*>(std::memchr(from, '\\', span));
        if (b) span = static_cast<size_t>(b - from);
        AppendToken(std::string_view(from, span));
        i += span - 1;
        pos_ += span - 1;
        continue;
      }
      case State::kStringEscape:
        state_ = State::kString;
        switch (c) {
          case 'n': AppendToken("\n"); break;
          case 't': AppendToken("\t"); break;
          case 'r': AppendToken("\r"); break;
          case 'b':
          case 'f': AppendToken(" "); break;
          case 'u':
            state_ = State::kUnicode;
            unicode_escape_left_ = 4;
            unicode_unit_ = 0;
            break;
          case '"':
          case '\\':
          case '/': AppendToken(std::string_view(&c, 1)); break;
          default:
            Error(std::string("invalid escape '\\") +
                  (static_cast<unsigned char>(c) < 0x80 ? std::string(1, c) : "?") + "'");
            AppendToken(std::string_view(&c, 1));
        }
        continue;
      case State::kUnicode: {
        int h = HexDigitValue(c);
        if (h < 0) {
          Error("invalid \\u escape");
          state_ = State::kString;
          --i;  // the byte is string content again
          --pos_;
          continue;
        }
        unicode_unit_ = (unicode_unit_ << 4) | static_cast<uint32_t>(h);
        if (--unicode_escape_left_ == 0) {
          state_ = State::kString;
          AppendCodeUnit(unicode_unit_);
        }
        continue;
      }
      case State::kScalar:
        if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ':') {
          state_ = State::kValue;
          OnScalar(token_, false);
          token_.clear();
          break;  // handle c as structure below
        }
        if (token_.size() < kMaxToken) token_ += c;
        continue;
      case State::kValue: break;
    }
    switch (c) {
      case '{': OpenContainer(false); break;
      case '[': OpenContainer(true); break;
      case '}':
      case ']': CloseContainer(c == ']'); break;
      case '"':
        state_ = State::kString;
        string_is_key_ = !stack_.empty() && !stack_.back().array && stack_.back().expect_key;
        if (string_is_key_) stack_.back().expect_key = false;
        break;
      case ':':
      case ',':
      case ' ':
      case '\n':
      case '\r':
      case '\t': break;
      default:
        if (!stack_.empty() && !stack_.back().array && stack_.back().expect_key) {
          Error("expected a quoted key");
          stack_.back().expect_key = false;
        }
        state_ = State::kScalar;
        token_.assign(1, c);
        break;
    }
  }
}

size_t JsonProfiler::BufferedBytes() const {
  size_t n =
      sizeof(*this) + path_.capacity() + pending_key_.capacity() + token_.capacity() + top_type_.capacity();
  for (const auto& f : stack_) n += sizeof(f) + f.key.capacity();
  for (const auto& p : paths_) n += 2 * (sizeof(p) + p.capacity()) + 16;  // the list and the set
  for (const auto& c : columns_) n += c.ApproxBytes() + c.name().capacity() + 48;
  return n;
}

void JsonProfiler::Finish(FileProfile& out, bool truncated) {
  if (state_ == State::kScalar && !token_.empty()) {
    OnScalar(token_, false, !truncated);  // a head read may cut a number short
    token_.clear();
    state_ = State::kValue;
  }
  out.format = format_;
  out.rows = records_;
  if (format_ == Format::kJson && records_ == 0 && top_values_ > 0) out.rows = 1;
  if (format_ == Format::kGeoJson && records_ == 0 && (top_type_ == "Feature" || !columns_.empty()))
    out.rows = 1;
  for (const auto& c : columns_) out.columns.push_back(c.Build());
  out.json_paths = paths_;
  if (!stack_.empty() && !truncated) {
    out.corrupt =
        "JSON ends with " + std::to_string(stack_.size()) + " unclosed containers (truncated file?)";
  }
  if ((state_ == State::kString || state_ == State::kStringEscape || state_ == State::kUnicode) &&
      !truncated) {
    out.corrupt = "JSON ends inside a string";
  }
  if (format_ == Format::kJson && top_values_ > 1) {
    out.warnings.push_back(std::to_string(top_values_) + " top-level values: concatenated JSON documents");
  }
  if (errors_ > 0) {
    out.corrupt = "malformed JSON: " + first_error_;
    if (errors_ > 1) out.corrupt += " (" + std::to_string(errors_) + " errors)";
  }
  out.geometry_types = geometry_types_;
}

}  // namespace lakeqa::ingest
