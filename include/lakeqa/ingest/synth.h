// A deterministic synthetic lake in the LakeQA layout, for tests and benchmarks: data.gov-like datasets
// (signed-metadata.txt as a Harvard LIL archive envelope around a CKAN record, files/rows.txt CSV, GeoJSON
// data.txt, Socrata publisher views, ArcGIS layers, columns.txt, data dictionaries, JSON/JSONL tables,
// readmes, HTML pages, small PDFs, yearly CSV extracts) and wikipedia-like pages (lead paragraph, sections,
// redirects). Dataset i depends only on (seed, i), so generation is parallel, needs no memory beyond one
// dataset, can be split into ranges (`first`) across machines, and scales to millions of files.
#pragma once

#include <cstdint>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/progress.h"
#include "lakeqa/common/status.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::ingest {

struct SynthOptions {
  uint64_t datasets = 1000;
  uint64_t seed = 42;
  double wikipedia_fraction = 0.3;
  bool with_bad_files =
      false;           // every 25th datagov dataset also gets one hostile file (empty, bad UTF-8, ...)
  size_t jobs = 0;     // 0 = cores
  uint64_t first = 0;  // generate datasets [first, first + datasets): shards of one big lake
};

struct SynthReport {
  uint64_t datasets = 0, datagov = 0, wikipedia = 0, files = 0, bytes = 0, bad_files = 0;
  Json ToJson() const;
};

// Writes the lake through `out`; the progress bar counts datasets. The first write error stops generation.
Result<SynthReport> SynthesizeLake(lake::Store& out, const SynthOptions& options,
                                   ProgressBar* progress = nullptr);

}  // namespace lakeqa::ingest
