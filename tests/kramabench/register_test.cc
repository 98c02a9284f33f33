// Every test of this binary runs with KramaBench registered with the core, as in the lakeqa binary
// (src/cli/benchmarks.cc): its workloads load through LoadTasks, `lake build` knows its source kind.
#include <gtest/gtest.h>

#include "lakeqa/eval/report_section.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/ingest/source_kind.h"
#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {
namespace {

const bool kRegistered = (Register(), true);

TEST(KramaBenchRegistration, AddsItsSourceKindTaskFormatAndReportSectionOnce) {
  ASSERT_TRUE(kRegistered);
  Register();  // a second call replaces, never duplicates
  ASSERT_NE(ingest::FindSourceKind("kramabench"), nullptr);
  ASSERT_NE(eval::FindTaskFormat(kFormat), nullptr);
  size_t formats = 0, sections = 0;
  for (const auto& f : eval::TaskFormats()) formats += f.name == kFormat;
  for (const auto& s : eval::ReportSections()) sections += s.name == kFormat;
  EXPECT_EQ(formats, 1u);
  EXPECT_EQ(sections, 1u);
}

}  // namespace
}  // namespace lakeqa::kramabench
