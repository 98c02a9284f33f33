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
  bool Saturated() const { return type_ == ValueType::kString && samples_.size() >= max_samples_; }
  void CountOnly(bool non_empty) { non_empty_ += non_empty; }
  ColumnProfile Build() const;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  size_t max_samples_, max_value_bytes_;
  ValueType type_ = ValueType::kEmpty;
  uint64_t non_empty_ = 0;
  std::vector<std::string> samples_;
  std::unordered_set<std::string> seen_;
};

}  // namespace lakeqa::ingest
