#include "duck_values.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "lakeqa/common/strings.h"

namespace lakeqa::exec {

// __extension__ keeps -Wpedantic quiet about the GCC 128-bit integer types.
__extension__ typedef __int128 Int128T;
__extension__ typedef unsigned __int128 UInt128T;

bool NeedsVarcharCast(duckdb_logical_type type) {
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BOOLEAN:
    case DUCKDB_TYPE_TINYINT:
    case DUCKDB_TYPE_SMALLINT:
    case DUCKDB_TYPE_INTEGER:
    case DUCKDB_TYPE_BIGINT:
    case DUCKDB_TYPE_UTINYINT:
    case DUCKDB_TYPE_USMALLINT:
    case DUCKDB_TYPE_UINTEGER:
    case DUCKDB_TYPE_UBIGINT:
    case DUCKDB_TYPE_FLOAT:
    case DUCKDB_TYPE_DOUBLE:
    case DUCKDB_TYPE_VARCHAR:
    case DUCKDB_TYPE_DATE:
    case DUCKDB_TYPE_TIMESTAMP:
    case DUCKDB_TYPE_HUGEINT:
    case DUCKDB_TYPE_UHUGEINT:
    case DUCKDB_TYPE_DECIMAL: return false;
    default: return true;
  }
}

std::string TypeName(duckdb_logical_type type) {
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BOOLEAN: return "BOOLEAN";
    case DUCKDB_TYPE_TINYINT: return "TINYINT";
    case DUCKDB_TYPE_SMALLINT: return "SMALLINT";
    case DUCKDB_TYPE_INTEGER: return "INTEGER";
    case DUCKDB_TYPE_BIGINT: return "BIGINT";
    case DUCKDB_TYPE_UTINYINT: return "UTINYINT";
    case DUCKDB_TYPE_USMALLINT: return "USMALLINT";
    case DUCKDB_TYPE_UINTEGER: return "UINTEGER";
    case DUCKDB_TYPE_UBIGINT: return "UBIGINT";
    case DUCKDB_TYPE_HUGEINT: return "HUGEINT";
    case DUCKDB_TYPE_UHUGEINT: return "UHUGEINT";
    case DUCKDB_TYPE_FLOAT: return "FLOAT";
    case DUCKDB_TYPE_DOUBLE: return "DOUBLE";
    case DUCKDB_TYPE_VARCHAR: return "VARCHAR";
    case DUCKDB_TYPE_BLOB: return "BLOB";
    case DUCKDB_TYPE_DATE: return "DATE";
    case DUCKDB_TYPE_TIME: return "TIME";
    case DUCKDB_TYPE_TIME_TZ: return "TIME WITH TIME ZONE";
    case DUCKDB_TYPE_TIMESTAMP: return "TIMESTAMP";
    case DUCKDB_TYPE_TIMESTAMP_TZ: return "TIMESTAMP WITH TIME ZONE";
    case DUCKDB_TYPE_TIMESTAMP_S: return "TIMESTAMP_S";
    case DUCKDB_TYPE_TIMESTAMP_MS: return "TIMESTAMP_MS";
    case DUCKDB_TYPE_TIMESTAMP_NS: return "TIMESTAMP_NS";
    case DUCKDB_TYPE_INTERVAL: return "INTERVAL";
    case DUCKDB_TYPE_UUID: return "UUID";
    case DUCKDB_TYPE_ENUM: return "ENUM";
    case DUCKDB_TYPE_LIST: return "LIST";
    case DUCKDB_TYPE_ARRAY: return "ARRAY";
    case DUCKDB_TYPE_STRUCT: return "STRUCT";
    case DUCKDB_TYPE_MAP: return "MAP";
    case DUCKDB_TYPE_UNION: return "UNION";
    case DUCKDB_TYPE_BIT: return "BIT";
    case DUCKDB_TYPE_DECIMAL:
      return "DECIMAL(" + std::to_string(duckdb_decimal_width(type)) + "," +
             std::to_string(duckdb_decimal_scale(type)) + ")";
    case DUCKDB_TYPE_SQLNULL: return "NULL";
    default: return "OTHER";
  }
}

ColumnReader::ColumnReader(duckdb_vector vec, duckdb_logical_type type)
    : id_(duckdb_get_type_id(type)),
      data_(duckdb_vector_get_data(vec)),
      validity_(duckdb_vector_get_validity(vec)) {
  if (id_ == DUCKDB_TYPE_DECIMAL) {
    decimal_internal_ = duckdb_decimal_internal_type(type);
    decimal_div_ = std::pow(10.0, duckdb_decimal_scale(type));
  }
}

namespace {

Json Finite(double d) {
  if (std::isfinite(d)) return d;
  return std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity");
}

std::string DateString(int32_t days) {
  if (days == INT32_MAX) return "infinity";
  if (days == -INT32_MAX) return "-infinity";
  duckdb_date_struct d = duckdb_from_date(duckdb_date{days});
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", static_cast<int>(d.year), d.month, d.day);
  return buf;
}

std::string TimestampString(int64_t micros) {
  if (micros == INT64_MAX) return "infinity";
  if (micros == -INT64_MAX) return "-infinity";
  duckdb_timestamp_struct t = duckdb_from_timestamp(duckdb_timestamp{micros});
  char buf[64];
  if (t.time.micros != 0) {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%06d", static_cast<int>(t.date.year),
                  t.date.month, t.date.day, t.time.hour, t.time.min, t.time.sec,
                  static_cast<int>(t.time.micros));
  } else {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d", static_cast<int>(t.date.year),
                  t.date.month, t.date.day, t.time.hour, t.time.min, t.time.sec);
  }
  return buf;
}

// sum() of integers is HUGEINT: keep it a JSON integer when it fits, else exact decimal text.
Json Int128(Int128T v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return static_cast<int64_t>(v);
  bool neg = v < 0;
  UInt128T u = neg ? -static_cast<UInt128T>(v) : static_cast<UInt128T>(v);
  std::string digits;
  while (u != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

Json UInt128(UInt128T u) {
  if (u <= UINT64_MAX) return static_cast<uint64_t>(u);
  std::string digits;
  while (u != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return std::string(digits.rbegin(), digits.rend());
}

Int128T FromHuge(const duckdb_hugeint& h) {
  return static_cast<Int128T>(static_cast<UInt128T>(static_cast<uint64_t>(h.upper)) << 64 | h.lower);
}

}  // namespace

Json ColumnReader::ValueAt(idx_t row) const {
  if (validity_ != nullptr && !duckdb_validity_row_is_valid(validity_, row)) return nullptr;
  switch (id_) {
    case DUCKDB_TYPE_BOOLEAN: return static_cast<const bool*>(data_)[row];
    case DUCKDB_TYPE_TINYINT: return static_cast<const int8_t*>(data_)[row];
    case DUCKDB_TYPE_SMALLINT: return static_cast<const int16_t*>(data_)[row];
    case DUCKDB_TYPE_INTEGER: return static_cast<const int32_t*>(data_)[row];
    case DUCKDB_TYPE_BIGINT: return static_cast<const int64_t*>(data_)[row];
    case DUCKDB_TYPE_UTINYINT: return static_cast<const uint8_t*>(data_)[row];
    case DUCKDB_TYPE_USMALLINT: return static_cast<const uint16_t*>(data_)[row];
    case DUCKDB_TYPE_UINTEGER: return static_cast<const uint32_t*>(data_)[row];
    case DUCKDB_TYPE_UBIGINT: return static_cast<const uint64_t*>(data_)[row];
    case DUCKDB_TYPE_FLOAT: return Finite(static_cast<const float*>(data_)[row]);
    case DUCKDB_TYPE_DOUBLE: return Finite(static_cast<const double*>(data_)[row]);
    case DUCKDB_TYPE_HUGEINT: return Int128(FromHuge(static_cast<const duckdb_hugeint*>(data_)[row]));
    case DUCKDB_TYPE_UHUGEINT: {
      const auto& h = static_cast<const duckdb_uhugeint*>(data_)[row];
      return UInt128(static_cast<UInt128T>(h.upper) << 64 | h.lower);
    }
    case DUCKDB_TYPE_DATE: return DateString(static_cast<const int32_t*>(data_)[row]);
    case DUCKDB_TYPE_TIMESTAMP: return TimestampString(static_cast<const int64_t*>(data_)[row]);
    case DUCKDB_TYPE_DECIMAL:
      switch (decimal_internal_) {
        case DUCKDB_TYPE_SMALLINT: return static_cast<const int16_t*>(data_)[row] / decimal_div_;
        case DUCKDB_TYPE_INTEGER: return static_cast<const int32_t*>(data_)[row] / decimal_div_;
        case DUCKDB_TYPE_BIGINT:
          return static_cast<double>(static_cast<const int64_t*>(data_)[row]) / decimal_div_;
        case DUCKDB_TYPE_HUGEINT:
          return static_cast<double>(FromHuge(static_cast<const duckdb_hugeint*>(data_)[row])) / decimal_div_;
        default: return nullptr;
      }
    case DUCKDB_TYPE_VARCHAR: {
      auto* s = static_cast<duckdb_string_t*>(data_) + row;
      std::string_view sv(duckdb_string_t_data(s), duckdb_string_t_length(*s));
      return IsValidUtf8(sv) ? std::string(sv) : SanitizeUtf8(sv);
    }
    default: return nullptr;  // unreachable: NeedsVarcharCast types are cast upstream
  }
}

}  // namespace lakeqa::exec
