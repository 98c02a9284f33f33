#include "ingest/json_profile.h"

#include "lakeqa/common/strings.h"

namespace lakeqa::ingest {
namespace {
constexpr size_t kMaxToken = 1024;
constexpr size_t kMaxDepth = 256;
}  // namespace

JsonProfiler::JsonProfiler(Format format, const ProfileOptions& options) : format_(format), options_(options) {}

bool JsonProfiler::RecordLevel() const {
  size_t d = stack_.size();
  if (d == 0 || stack_.back().array) return false;
  if (format_ == Format::kJsonLines) return d == 1;
  if (format_ == Format::kGeoJson) {
    // FeatureCollection → features[] → {properties: {...}}
    return d == 4 && stack_[3].key == "properties" && stack_[1].key == "features";
  }
  // A top-level array of objects (Socrata-style rows).
  return d == 2 && stack_[0].array;
}

void JsonProfiler::AddPath() {
  if (paths_.size() >= options_.max_json_paths || path_.empty()) return;
  if (path_set_.insert(path_).second) paths_.push_back(path_);
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
    path_ += (path_.empty() ? "" : ".") + pending_key_;
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
  if (format_ == Format::kGeoJson && stack_.size() == 2 && stack_[1].key == "features" && stack_[1].array) ++records_;
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

void JsonProfiler::CloseContainer() {
  if (stack_.empty()) {
    ++errors_;
    if (first_error_.empty()) first_error_ = "unbalanced closing bracket at byte " + std::to_string(pos_);
    return;
  }
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
  std::string saved = path_;
  path_ += (path_.empty() ? "" : ".") + pending_key_;
  AddPath();
  path_ = std::move(saved);
}

void JsonProfiler::OnScalar(std::string_view value, bool is_string) {
  bool record = RecordLevel();
  std::string key = (!stack_.empty() && !stack_.back().array) ? pending_key_ : std::string();
  BeforeValue();
  if (stack_.size() == 1 && stack_[0].array && format_ != Format::kJsonLines) ++records_;
  if (record) AddColumnValue(key, (is_string || value != "null") ? value : std::string_view());
  if (format_ == Format::kGeoJson && key == "type" && stack_.size() >= 2 && stack_.back().key == "geometry") {
    if (geometry_types_.size() < 16) ++geometry_types_[std::string(TruncateUtf8(value, 40))];
  }
  AfterValue();
}

void JsonProfiler::Feed(std::string_view chunk) {
  for (size_t i = 0; i < chunk.size(); ++i, ++pos_) {
    char c = chunk[i];
    switch (state_) {
      case State::kString:
        if (c == '\\') {
          state_ = State::kStringEscape;
        } else if (c == '"') {
          state_ = State::kValue;
          if (string_is_key_) {
            OnKey(token_);
          } else {
            OnScalar(token_, true);
          }
          token_.clear();
        } else if (token_.size() < kMaxToken) {
          // Fast path: copy plain bytes up to the next quote or backslash.
          size_t j = i;
          while (j < chunk.size() && chunk[j] != '"' && chunk[j] != '\\' && token_.size() + (j - i) < kMaxToken) ++j;
          token_.append(chunk.data() + i, j - i);
          pos_ += j - i - 1;
          i = j - 1;
        } else {
          token_truncated_ = true;
        }
        continue;
      case State::kStringEscape:
        state_ = State::kString;
        if (token_.size() < kMaxToken) {
          switch (c) {
            case 'n': token_ += '\n'; break;
            case 't': token_ += '\t'; break;
            case 'r': token_ += '\r'; break;
            case 'b': case 'f': token_ += ' '; break;
            case 'u': token_ += '?'; unicode_escape_left_ = 4; break;  // the code point is not needed for profiling
            default: token_ += c;
          }
        }
        continue;
      case State::kScalar:
        if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ':') {
          state_ = State::kValue;
          OnScalar(token_, false);
          token_.clear();
          break;  // handle c as structure below
        }
        if (token_.size() < kMaxToken) token_ += c;
        continue;
      case State::kValue:
        break;
    }
    if (unicode_escape_left_ > 0) {  // hex digits of a \u escape arrive as plain string bytes
      --unicode_escape_left_;
    }
    switch (c) {
      case '{':
        OpenContainer(false);
        break;
      case '[':
        OpenContainer(true);
        break;
      case '}':
      case ']':
        CloseContainer();
        break;
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
      case '\t':
        break;
      default:
        state_ = State::kScalar;
        token_.assign(1, c);
        break;
    }
  }
}

void JsonProfiler::Finish(FileProfile& out, bool truncated) {
  if (state_ == State::kScalar && !token_.empty()) {
    OnScalar(token_, false);
    token_.clear();
    state_ = State::kValue;
  }
  out.format = format_;
  out.rows = records_;
  if (format_ == Format::kJson && records_ == 0 && top_values_ > 0) out.rows = 1;
  for (const auto& c : columns_) out.columns.push_back(c.Build());
  out.json_paths = paths_;
  if (!stack_.empty() && !truncated) {
    out.corrupt = "JSON ends with " + std::to_string(stack_.size()) + " unclosed containers (truncated file?)";
  }
  if (state_ == State::kString && !truncated) out.corrupt = "JSON ends inside a string";
  if (format_ == Format::kJson && top_values_ > 1) {
    out.warnings.push_back(std::to_string(top_values_) + " top-level values: concatenated JSON documents");
  }
  if (errors_ > 0) out.corrupt = "malformed JSON: " + first_error_;
  out.geometry_types = geometry_types_;
  (void)token_truncated_;
}

}  // namespace lakeqa::ingest
