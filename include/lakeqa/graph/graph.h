// A property graph read from Neo4j-import node and relation tables (DESIGN.md section 2, module `graph`).
//
// Input: CSV files in the `neo4j-admin import` format. A node file has one `<column>:ID(<Label>)` column and
// property columns; a relation file has `:START_ID(<Label>)` and `:END_ID(<Label>)` columns and property
// columns; its type is the file's stem without `relation_` (CMDBench: relation_playsFor.csv → playsFor) or
// a `:TYPE` column. Property columns may carry a type suffix (`born:int`); it is recorded, values stay text,
// as a Neo4j import without type hints stores them.
//
// Identities are stable across builds because they come from the data, not from insertion order:
//   node  "<Label>:<id value>"                                   Player:Q344531
//   edge  "<start node>-[<type>]-><end node>#<hash>" Player:Q298531-[playsFor]->Team:Q976396#5f1e0c2a
// where <hash> is FNV-1a (32 bit, 8 hex digits) over the edge's property values in column order, each
// followed by a NUL byte, so two edges between the same nodes with different properties stay distinct.
//
// On disk (<index>/graph/, written by GraphBuilder::Write, read by Graph::Open):
//   schema.json          labels, properties, relation types and endpoints, counts, problems
//   nodes/<Label>.csv    _key,_id,<properties...>      (RFC 4180, every value quoted text, empty = null)
//   edges/<type>.csv     _key,_start,_end,<properties...>  (_start/_end are id values of the endpoint labels)
// Queries are translated to DuckDB SQL over those files (cypher.h) and run through exec::SqlSandbox, so a
// graph query has exactly the `query` tool's guarantees: read-only, time, row, size and memory limits.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/exec/sql.h"

namespace lakeqa::exec {
class SqlSandbox;
}

namespace lakeqa::graph {

struct NodeType {
  std::string label;
  std::string id_column;                // "wikidata_id"
  std::vector<std::string> properties;  // without type suffixes, in file order
  std::vector<std::string> types;       // the suffix of each property ("" when none)
  std::string source;                   // where it was read from (a lake key or a file name)
  std::string file;                     // its table in the graph folder ("nodes/0.csv")
  uint64_t count = 0;
};

struct RelationType {
  std::string type;
  std::string start_label, end_label;
  std::vector<std::string> properties;
  std::vector<std::string> types;
  std::string source;
  std::string file;  // "edges/0.csv"
  uint64_t count = 0;
};

// A row the builder could not take, named by file and 1-based line of its record.
struct Problem {
  std::string source;
  uint64_t line = 0;
  std::string message;
  Json ToJson() const;
};

struct Schema {
  std::vector<NodeType> nodes;
  std::vector<RelationType> relations;
  std::vector<Problem> problems;  // the first max_problems; problems_total counts all
  uint64_t problems_total = 0;

  const NodeType* Node(std::string_view label) const;
  const RelationType* Relation(std::string_view type) const;
  Json ToJson() const;
  static Result<Schema> FromJson(const Json& j);
  // "Player(name, height, ...); (Player)-[playsFor {start_time, ...}]->(Team); ..." for prompts and tools.
  std::string Describe() const;
};

// The kind of a CSV header: a node file, a relation file, or neither (not Neo4j import format).
enum class FileKind { kNone, kNodes, kRelations };
FileKind ClassifyHeader(const std::vector<std::string>& header);
// Splits the first CSV record of `text` (RFC 4180 quoting) into fields.
std::vector<std::string> CsvHeaderOf(std::string_view text);

std::string NodeKey(std::string_view label, std::string_view id);
std::string EdgeKey(std::string_view start_label, std::string_view start_id, std::string_view type,
                    std::string_view end_label, std::string_view end_id,
                    const std::vector<std::string>& props);

// Collects node and relation files, checks them, and writes the graph folder. Node files must all be added
// before Write; relation rows whose endpoints are not nodes of the declared labels are problems (one per
// row, never dropped silently), as are duplicate node ids and rows with the wrong number of fields.
class GraphBuilder {
 public:
  explicit GraphBuilder(size_t max_problems = 1000);
  ~GraphBuilder();
  // `source` names the file in problems ("cmdbench/graph_nodes_Player/Player.csv"); `stem` is the file
  // name without extension (the relation type comes from it unless a :TYPE column exists).
  Status AddFile(const std::string& source, std::string_view stem, std::string_view csv);
  size_t files() const { return files_; }
  const Schema& schema() const { return schema_; }
  // Writes <dir>/schema.json, nodes/, edges/ (replacing what was there).
  Status Write(const std::string& dir);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Schema schema_;
  size_t max_problems_;
  size_t files_ = 0;
  void AddProblem(const std::string& source, uint64_t line, std::string message);
};

// One result of FindNodes.
struct NodeMatch {
  std::string key, label, name;
  std::string matched;  // "name exact", "name prefix", "name contains", "property <p> ..."
  double score = 0;
};

struct NeighborEdge {
  std::string edge_key, type, direction;  // "out" (the node is the start) or "in"
  std::string node_key, node_label, node_name;
  Json properties;  // the edge's non-null properties
};

struct QueryOutput {
  exec::SqlResult result;
  std::string sql;                        // the SQL the Cypher was translated to
  std::vector<std::string> nodes, edges;  // identities of every node and edge a match used (distinct)
  bool evidence_truncated = false;        // more matches than the evidence cap: the sets are partial
  Json ToJson(size_t max_ids = 500) const;
};

struct GraphOptions {
  exec::SqlLimits limits;              // the `query` tool's limits
  uint64_t max_evidence_rows = 10000;  // matches read to name the nodes and edges used
};

// A built graph folder, opened for queries. Thread-safe (calls are serialised).
class Graph {
 public:
  static Result<std::unique_ptr<Graph>> Open(const std::string& dir, const GraphOptions& options = {});
  ~Graph();
  const Schema& schema() const { return schema_; }
  const std::string& dir() const { return dir_; }

  // Ranked nodes whose name (or `property`) matches `text` (case-insensitive: exact, prefix, contains,
  // every word); `label` restricts the labels. Empty text with a label lists that label's nodes.
  Result<std::vector<NodeMatch>> FindNodes(std::string_view text, std::string_view label,
                                           std::string_view property, size_t limit);
  // Resolves "Label:id", or a bare id (an error when it names nodes of several labels).
  Result<std::string> ResolveNode(std::string_view ref);
  // Edges at a node, optionally of one type and one direction ("out", "in", "both"), at most `limit`;
  // `total` receives how many there are.
  Result<std::vector<NeighborEdge>> Neighbors(std::string_view node, std::string_view type,
                                              std::string_view direction, size_t limit, uint64_t* total);
  // Runs a query of the Cypher subset (cypher.h).
  Result<QueryOutput> Query(std::string_view cypher);

 private:
  Graph() = default;
  Result<exec::SqlResult> Run(const std::string& sql);
  std::string NodeTable(const NodeType& n) const;  // SQL reading the label's file
  std::string EdgeTable(const RelationType& r) const;
  std::string dir_;
  Schema schema_;
  GraphOptions options_;
  std::unique_ptr<exec::SqlSandbox> sql_;
  std::mutex mu_;
};

}  // namespace lakeqa::graph
