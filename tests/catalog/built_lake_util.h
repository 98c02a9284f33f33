// BuildAndCatalogue: a lake built by `lake build` from one source, catalogued by `index build`, checked to
// have every dataset with a title and no per-file error. Shared by the built-in source kinds' tests
// (built_lake_test.cc) and the benchmarks' (tests/<benchmark>/built_lake_test.cc).
#pragma once

#include <gtest/gtest.h>

#include "ingest/build_test_util.h"
#include "lakeqa/catalog/builder.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/ingest/build.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::catalog::testing {

// Builds `spec` into <tmp>/lake, catalogues it, and checks every dataset and file.
inline void BuildAndCatalogue(const ingest::SourceSpec& spec, size_t min_datasets) {
  ingest::testing::TempDir t;
  auto store = lake::OpenStore(t.path() + "/lake");
  ASSERT_TRUE(store.ok());
  ingest::BuildOptions bo;
  bo.jobs = 2;
  auto built = ingest::BuildLake(**store, spec, bo);
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  ASSERT_GE(built->DatasetsTotal(), min_datasets) << built->ToJson().dump(2);

  BuildOptions co;
  co.progress = false;
  co.jobs = 2;
  auto report = BuildCatalog(**store, t.path() + "/index", co);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->errors, 0u) << report->ToJson().dump(2);
  EXPECT_EQ(report->datasets, built->DatasetsTotal());

  auto cat = Catalog::Open(t.path() + "/index/catalog.sqlite", true);
  ASSERT_TRUE(cat.ok()) << cat.status().ToString();
  size_t seen = 0;
  Status st = (*cat)->ForEachDataset([&](const DatasetRecord& d, const std::vector<FileRecord>& files) {
    ++seen;
    EXPECT_FALSE(d.metadata.title.empty()) << d.FullId();
    EXPECT_EQ(d.error_count, 0u) << d.FullId();
    for (const FileRecord& f : files) EXPECT_EQ(f.error, "") << d.FullId() << "/" << f.path;
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen, built->DatasetsTotal());
}

}  // namespace lakeqa::catalog::testing
