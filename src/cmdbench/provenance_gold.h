// The gold contents `run --provide-provenance` hands the agent (cmdbench/provenance.h), read through the
// components the tools use: the lake store for tables and pages, the index's graph for sub-graphs. One file
// per kind; the wording of the prompt and the bounds are the caller's (cmdbench/provenance.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/graph/graph.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::cmdbench::provenance {

// provenance_table.cc
struct GoldTable {
  std::string csv;          // the header and the rows kept, as in the file, each record ending in '\n'
  uint64_t rows_kept = 0;   // data rows in csv
  uint64_t rows_total = 0;  // data rows in the file (records after the header; quoted newlines stay inside)
};
// Streams the CSV at `key`: keeps the header and the first rows while at most max_rows rows and max_bytes
// bytes, and counts every row.
Result<GoldTable> ReadGoldTable(lake::Store& lake, const std::string& key, size_t max_rows, size_t max_bytes);

// provenance_graph.cc
struct GoldElement {
  std::string key;               // node "Label:id", edge "Start-[type]->End#hash"
  std::string start, type, end;  // edges only: the endpoints' identities and the relationship type
  Json properties;               // the non-null properties, in schema order
};
struct GoldSubgraph {
  std::vector<GoldElement> nodes, edges;  // the first of those matched, within max_elements
  uint64_t nodes_total = 0, edges_total = 0;
  bool totals_partial = false;  // more matches than the graph's evidence cap: the totals are lower bounds
};
// Runs `cypher` through the graph and reads the properties of the nodes and edges it matched (nodes first,
// leaving edges at least half of max_elements when there are that many). A query the graph cannot run is the
// graph's error ("cypher 1:23: ...").
Result<GoldSubgraph> MatchGoldSubgraph(graph::Graph& g, std::string_view cypher, size_t max_elements);

// provenance_doc.cc
struct GoldParagraph {
  std::string key;  // the page's lake file
  std::string text;
  bool from_lake = false;    // false: the question file's text
  std::string why_not_lake;  // when !from_lake: "the lake has no file ..." / "the page has 3 lines"
};
// Line paragraph_id of the page's content.txt (one KILT paragraph per line, line 0 the title); the question
// file's text when the lake lacks the page or that line. not_found when neither holds it.
Result<GoldParagraph> ReadGoldParagraph(lake::Store& lake, const CmdbenchParagraph& p);

}  // namespace lakeqa::cmdbench::provenance
