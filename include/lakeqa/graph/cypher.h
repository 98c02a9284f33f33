// The Cypher subset lakeqa answers, translated to one DuckDB SELECT over the graph folder's node and edge
// tables (docs/cmdbench.md, "The Cypher subset", lists every clause with an example):
//
//   MATCH <pattern>[, <pattern>...]  [WHERE <expr>]   (MATCH may repeat; each WHERE filters its MATCH)
//   RETURN [DISTINCT] <expr> [AS <alias>], ... | *
//   [ORDER BY <expr> [ASC|DESC], ...] [SKIP <n>] [LIMIT <n>]
//
// pattern: (v:Label {prop: <expr>, ...}) chained with -[r:TYPE|TYPE2 {prop: <expr>}]->, <-[...]-, -[...]-,
//   -->, <--, --. Any number of relationships per pattern. A node without a label takes it from a typed
//   relationship (Player -playsFor-> Team); an untyped relationship matches every type whose endpoint labels
//   fit. Variables may repeat across patterns (a join).
// expr: literals ('text', "text", 12, 1.5, true, false, null, [list]), v.prop, comparisons (= <> != < <= >
// >=),
//   =~ (regular expression), CONTAINS, STARTS WITH, ENDS WITH, IN [list], IS [NOT] NULL, AND, OR, XOR, NOT,
//   + - * / %, CASE [x] WHEN .. THEN .. [ELSE ..] END, functions toFloat, toInteger, toString, toLower,
//   toUpper, lower, upper, replace, trim, ltrim, rtrim, substring, left, right, size, length, split,
//   coalesce, abs, round, floor, ceil, sqrt, id, elementId, type, labels, and the aggregates count(*),
//   count([DISTINCT] x), sum, avg, min, max, collect (non-aggregated RETURN items are the grouping keys).
//
// Values are text, as Neo4j stores an import without type hints; a comparison or arithmetic between a
// property and a number reads the property as a number (TRY_CAST, null when it is not one), and `+` with
// text concatenates. Anything else — OPTIONAL MATCH, WITH, UNWIND, CALL, UNION, writes, variable-length or
// path patterns, parameters — is refused with the position and the clause named.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/graph/graph.h"

namespace lakeqa::graph {

struct Translation {
  std::string sql;           // the query's result, as the RETURN clause asks
  std::string evidence_sql;  // SELECT DISTINCT of every pattern element's identity; no ORDER BY or LIMIT
  std::vector<std::string> node_columns, edge_columns;  // columns of evidence_sql holding node / edge keys
};

// SQL table expressions for a node label's and a relation type's file (Graph supplies read_csv over the
// graph folder; tests may supply VALUES lists).
struct TableSource {
  std::function<std::string(const NodeType&)> nodes;
  std::function<std::string(const RelationType&)> edges;
};

// Errors are invalid_argument ("cypher 1:23: ...") or unsupported ("cypher 1:1: unsupported clause WITH
// ..."), naming the line and column of the offending token.
Result<Translation> TranslateCypher(std::string_view cypher, const Schema& schema, const TableSource& tables);

}  // namespace lakeqa::graph
