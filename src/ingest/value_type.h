// Classifying one field value (integer, float, boolean, date, datetime, string, empty) and widening a
// column's type as values arrive. Shared by the CSV, JSON and spreadsheet profilers.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "lakeqa/ingest/profile.h"

namespace lakeqa::ingest {

enum class ValueType { kEmpty, kBoolean, kInteger, kFloat, kDate, kDatetime, kString };

ValueType ClassifyValue(std::string_view v);
ValueType WidenType(ValueType column, ValueType value);
std::string_view ValueTypeName(ValueType t);

// Accumulates one column's profile with bounded memory: distinct samples up to a cap, then only counts.
class ColumnAccumulator {
 public:
  ColumnAccumulator(std::string name, size_t max_samples, size_t max_value_bytes)
      : name_(std::move(name)), max_samples_(max_samples), max_value_bytes_(max_value_bytes) {}
  void Add(std::string_view value);
  // True when Add() would change nothing but the count (type settled to string and samples full).
  // Types and distinct samples come from a column's first 100,000 non-empty values (DuckDB's sniffer
  // samples 20,480 rows); after that a value is only counted. Without the bound a column with few distinct
  // values would cost a classification and a hash lookup per row to the end of a 10 GB file.
  static constexpr uint64_t kMaxSampledValues = 100000;

  bool Saturated() const {
    return non_empty_ >= kMaxSampledValues ||
           (type_ == ValueType::kString && samples_.size() >= max_samples_);
  }
  void CountOnly(bool non_empty) { non_empty_ += non_empty; }
  ColumnProfile Build() const;
  size_t ApproxBytes() const;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  size_t max_samples_, max_value_bytes_;
  ValueType type_ = ValueType::kEmpty;
  uint64_t non_empty_ = 0;
  // Transparent hashing: a value already sampled is found by string_view, without a copy.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> samples_;
  std::unordered_set<std::string, Hash, std::equal_to<>> seen_;
};

}  // namespace lakeqa::ingest
