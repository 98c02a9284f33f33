// Private to src/graph: the tokens of the Cypher subset, each with its line and column for errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::graph {

enum class Tok { kIdent, kQuotedIdent, kString, kInt, kFloat, kParam, kPunct, kEnd };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifier / punctuation as written; string literal decoded
  size_t offset = 0;
  int line = 1, column = 1;
  // Case-insensitive keyword test (only plain identifiers are keywords).
  bool Is(std::string_view keyword) const;
  bool P(std::string_view punct) const { return kind == Tok::kPunct && text == punct; }
};

Result<std::vector<Token>> LexCypher(std::string_view text);

// "cypher 1:23: " for a token.
std::string Where(const Token& t);

}  // namespace lakeqa::graph
