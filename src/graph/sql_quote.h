// SQL quoting for the SQL the graph module writes (graph.cc, cypher_translate.cc).
#pragma once

#include <string>
#include <string_view>

namespace lakeqa::graph {

// 'text' as a SQL string literal.
inline std::string SqlStr(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// "ident" as a SQL identifier.
inline std::string QuoteId(std::string_view ident) {
  std::string out = "\"";
  for (char c : ident) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace lakeqa::graph
