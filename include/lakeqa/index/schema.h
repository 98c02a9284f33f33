// What a text index holds: a fixed list of named fields, each analysed text (scored by BM25F with a
// weight and a length normalisation b), an exact keyword (filters and facets), both, or neither (stored
// for display only), and optionally stored for display. Documents are
// generic (an id plus (field, value) pairs, repeated for multi-valued fields), so the index knows
// nothing about catalogs; Schema::Datasets() is the layout lakeqa uses for dataset discovery.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::index {

struct FieldSpec {
  std::string name;
  bool text = true;      // analysed, positions kept, scored with BM25F
  bool keyword = false;  // the folded value whole, as an exact term: field:value filters and facets
  double weight = 1.0;   // default BM25F field weight (ranking.h: the index manifest may override it)
  bool stored = true;    // returned with hits; snippets and matched columns need it
  double b = 0.75;       // default BM25F length normalisation of the field, in [0, 1]
};

class Schema {
 public:
  static constexpr size_t kMaxFields = 63;

  Schema() = default;
  explicit Schema(std::vector<FieldSpec> fields) : fields_(std::move(fields)) {}
  // title, description, tags, theme, category, publisher, namespace, format, file_names, columns,
  // values, content, coverage, rows (docs/search.md lists kinds, weights and b).
  static Schema Datasets();

  Status Validate() const;
  // The same fields with the same kinds in the same order: an index built with one can be read and
  // extended with the other (weights and b are ranking parameters, not layout).
  bool SameLayout(const Schema& other) const;
  Json ToJson() const;
  static Result<Schema> FromJson(const Json& j);

  const std::vector<FieldSpec>& fields() const { return fields_; }
  // Index of the field or -1.
  int Find(std::string_view name) const;

 private:
  std::vector<FieldSpec> fields_;
};

struct Document {
  std::string id;  // unique key: Delete() and result identity
  std::vector<std::pair<std::string, std::string>> fields;
  Document& Add(std::string field, std::string value) {
    fields.emplace_back(std::move(field), std::move(value));
    return *this;
  }
};

// Field lengths are stored as one byte per (document, field), as Lucene does: exact below 16, then a
// 4-bit mantissa. BM25 sees DecodeLength(EncodeLength(n)) everywhere.
uint8_t EncodeLength(uint64_t n);
uint32_t DecodeLength(uint8_t b);

}  // namespace lakeqa::index
