// The lake build pipeline: raw sources (an enwiki XML dump, data.gov records with their resources, any
// folder tree, or a source kind a benchmark registered: source_kind.h) → datasets in the LakeQA layout in a
// Store, plus a build report. Every object goes through Store::Write (atomic); a dataset's metadata.json is
// written last, so a dataset folder without it is one whose build failed. On a local lake the build syncs in
// batches (lake::Durability::kBatch) and everything it wrote is durable before BuildLake returns. Bad items
// are reported and skipped; the build goes on. docs/lake-build.md documents the output of each source kind.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::ingest {

struct SourceSpec {
  std::string kind = "dir";  // a registered source kind (source_kind.h)
  std::string path;          // local file or folder
};

// "<kind>:<path>": "enwiki:/data/enwiki-pages-articles-multistream.xml.bz2", "datagov:/data/records",
// "dir:/data/tree", or a kind a benchmark registered. Fails on an unknown kind, naming the known ones.
Result<SourceSpec> ParseSourceSpec(std::string_view spec);

struct BuildOptions {
  size_t jobs = 0;             // worker threads; 0 = cores
  std::string namespace_name;  // "" = the kind's default (SourceKindSpec::namespace_help says which)
  // enwiki
  std::string index_path;       // multistream index; "" = next to the dump when present
  bool use_index = true;        // false: read the dump as one stream even when an index exists
  bool keep_redirects = false;  // write redirect pages as datasets too (they are aliases either way)
  bool all_namespaces = false;  // write Talk:, User:, ... pages too
  size_t max_page_bytes = 64u << 20;
  size_t alias_memory_bytes = 64u << 20;  // redirect → target pairs held before spilling a sorted run
  // dir
  bool one_dataset_per_file = false;
  // dir / datagov
  uint64_t max_file_bytes = 512ull << 20;      // larger files are skipped (a Store::Write holds one object)
  uint64_t max_converted_bytes = 64ull << 20;  // cap on text out of a PDF/DOCX/XLSX (zip bombs)
  int convert_timeout_ms = 30000;              // pdftotext wall time
  // Report lists keep this many items each; counts are always complete.
  size_t max_report_items = 1000;
  std::string temp_dir;  // for spill files (redirect aliases); "" = $TMPDIR
  // Local lakes: false = one file-system sync per batch of objects (lake::Durability::kBatch, all
  // durable before BuildLake returns); true = fsync every object as it is written (much slower).
  bool sync_each_object = false;
  size_t sync_batch_objects = 4096;
};

struct ReportItem {
  std::string item;
  std::string reason;  // skipped: why; errors: "<code>: <message>"
};

// What a build did. Counts are complete; item lists are capped at max_report_items.
struct BuildReport {
  std::string source;                        // "enwiki:/path"
  std::string lake;                          // store URI
  std::map<std::string, uint64_t> datasets;  // per dataset kind ("article", "table", ...)
  uint64_t files = 0;
  uint64_t bytes = 0;
  uint64_t duplicate_files = 0;  // identical content written once per dataset (datagov)
  std::map<std::string, uint64_t> skipped_by_reason;
  uint64_t skipped_total = 0;
  std::vector<ReportItem> skipped;
  uint64_t errors_total = 0;
  std::vector<ReportItem> errors;
  std::map<std::string, Json> details;  // source-specific facts (streams, aliases, ...)
  double seconds = 0;

  uint64_t DatasetsTotal() const;
  Json ToJson() const;
};

// Builds the lake. Fails only when the source cannot be read at all or the store refuses writes;
// everything item-level ends up in the report. `progress` (optional) counts datasets.
Result<BuildReport> BuildLake(lake::Store& store, const SourceSpec& source, const BuildOptions& options,
                              ProgressBar* progress = nullptr);

}  // namespace lakeqa::ingest
