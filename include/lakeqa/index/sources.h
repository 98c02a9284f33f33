// Sources: a lake's datasets grouped by modality, as CMDBench routes questions between them —
//   doc    prose pages (the wikipedia namespace; datasets whose files are text, HTML, PDF or DOCX only)
//   table  tabular datasets (CSV/JSON/XLSX/... files)
//   graph  node and relation tables in Neo4j import format (a `:ID(Label)`, or `:START_ID`/`:END_ID`, column)
// and their summaries at CMDBench's two levels (its Section 4.1):
//   basic     doc titles; table titles; graph node labels and relation types
//   enhanced  + the lead paragraph of each page; + each table's column headers; + node and relation
//             property names and relation endpoints
// `lakeqa index build` writes them to <index>/sources.json; summaries are bounded (max_summary_bytes per
// source and level, cut at a whole entry and saying how many entries were left out).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/catalog/catalog_fwd.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::index {

inline constexpr const char* kSourceNames[] = {"doc", "table", "graph"};

// "doc", "table", "graph", or "" (a dataset of none of them: images, archives, empty).
std::string SourceOfDataset(const catalog::DatasetRecord& dataset,
                            const std::vector<catalog::FileRecord>& files);

struct SourceSummary {
  std::string name;
  uint64_t datasets = 0;
  std::string basic, enhanced;
};

struct SourceSummaries {
  std::vector<SourceSummary> sources;  // doc, table, graph (always all three; an empty source has 0 datasets)
  const SourceSummary* Find(std::string_view name) const;
  Json ToJson() const;
  static Result<SourceSummaries> FromJson(const Json& j, const std::string& where);
};

struct SourceSummaryOptions {
  size_t max_summary_bytes = 256 * 1024;
};

// Classifies every dataset of the catalog and writes <index_dir>/sources.json.
Result<SourceSummaries> BuildSourceSummaries(catalog::Catalog& catalog, const std::string& index_dir,
                                             const SourceSummaryOptions& options = {});
Result<SourceSummaries> LoadSourceSummaries(const std::string& index_dir);

// CMDBench's given summaries (modality_summary_basic.json / _complex.json): {"graph": text, "doc": text,
// "table": text}. A missing source or a non-string value is an error naming the file.
Result<std::map<std::string, std::string>> LoadGivenSummaries(const std::string& path);

}  // namespace lakeqa::index
