// DuckDB result vectors to JSON values. Numbers, booleans, strings, dates and timestamps are converted
// directly; any other type is cast to VARCHAR in SQL first (see NeedsVarcharCast).
#pragma once

#include <duckdb.h>

#include <string>

#include "lakeqa/common/json.h"

namespace lakeqa::exec {

// True when ValueAt cannot convert the type itself.
bool NeedsVarcharCast(duckdb_logical_type type);
// "BIGINT", "DECIMAL(18,3)", "LIST", ...
std::string TypeName(duckdb_logical_type type);

// One column of a fetched chunk.
class ColumnReader {
 public:
  ColumnReader(duckdb_vector vec, duckdb_logical_type type);
  Json ValueAt(idx_t row) const;

 private:
  duckdb_type id_;
  void* data_;
  uint64_t* validity_;
  double decimal_div_ = 1;
  duckdb_type decimal_internal_ = DUCKDB_TYPE_INVALID;
};

}  // namespace lakeqa::exec
