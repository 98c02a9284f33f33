// JSON, JSON Lines and GeoJSON, profiled by a streaming scanner with bounded state (a stack of open
// containers and a capped token buffer), so a truncated head read still yields key paths, and a huge
// file never needs a DOM. Columns come from records: the keys of JSON Lines objects, of the objects in a
// top-level array, and of GeoJSON feature properties.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ingest/value_type.h"
#include "lakeqa/ingest/profile.h"

namespace lakeqa::ingest {

class JsonProfiler {
 public:
  JsonProfiler(Format format, const ProfileOptions& options);
  void Feed(std::string_view chunk);
  void Finish(FileProfile& out, bool truncated);
  size_t BufferedBytes() const;

 private:
  struct Frame {
    bool array = false;
    std::string key;         // the key under which this container sits in its parent
    size_t path_len = 0;     // length of path_ before this frame was pushed
    bool expect_key = true;  // objects: next string is a key
  };
  void OnScalar(std::string_view value, bool is_string, bool validate = true);
  void Error(std::string what);
  void AppendToken(std::string_view bytes);
  void AppendCodeUnit(uint32_t unit);
  void FlushSurrogate();
  void OnKey(std::string_view key);
  void OpenContainer(bool array);
  void CloseContainer(bool array);
  void BeforeValue();
  void AfterValue();
  bool RecordLevel() const;  // is the current container a record whose keys are columns?
  void AddPath();
  void AddColumnValue(const std::string& column, std::string_view value);

  Format format_;
  ProfileOptions options_;
  std::vector<Frame> stack_;
  std::string path_;         // e.g. "features[].properties"
  std::string pending_key_;  // the key awaiting its value
  std::string token_;        // string or scalar being read (capped)
  bool token_truncated_ = false;
  enum class State { kValue, kString, kStringEscape, kUnicode, kScalar } state_ = State::kValue;
  bool string_is_key_ = false;
  int unicode_escape_left_ = 0;  // hex digits of a \uXXXX escape still to come
  uint32_t unicode_unit_ = 0;
  uint32_t high_surrogate_ = 0;  // a \uD800-\uDBFF waiting for its low half
  std::string top_type_;         // GeoJSON: the top-level "type" (FeatureCollection or Feature)
  uint64_t records_ = 0;
  uint64_t top_values_ = 0;
  uint64_t errors_ = 0;
  std::string first_error_;
  uint64_t pos_ = 0;
  std::vector<std::string> paths_;
  std::unordered_set<std::string> path_set_;
  std::vector<ColumnAccumulator> columns_;
  std::unordered_map<std::string, size_t> column_index_;
  std::map<std::string, uint64_t> geometry_types_;
};

}  // namespace lakeqa::ingest
