// Every test of this binary runs with CMDBench registered with the core, as in the lakeqa binary
// (src/cli/benchmarks.cc): its question files load through LoadTasks, `lake build` knows its source kind.
#include <gtest/gtest.h>

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/eval/report_section.h"
#include "lakeqa/eval/task_format.h"
#include "lakeqa/ingest/source_kind.h"

namespace lakeqa::cmdbench {
namespace {

const bool kRegistered = (Register(), true);

TEST(CmdbenchRegistration, AddsItsSourceKindTaskFormatAndReportSectionOnce) {
  ASSERT_TRUE(kRegistered);
  Register();  // a second call replaces, never duplicates
  ASSERT_NE(ingest::FindSourceKind("cmdbench"), nullptr);
  ASSERT_NE(eval::FindTaskFormat(kFormat), nullptr);
  EXPECT_EQ(eval::DiscoveryQuestionFormat(), eval::FindTaskFormat(kFormat));
  EXPECT_EQ(eval::GoldGivingFormat(), eval::FindTaskFormat(kFormat));
  size_t kinds = 0, formats = 0, sections = 0;
  for (const auto& k : ingest::SourceKinds()) kinds += k.name == kFormat;
  for (const auto& f : eval::TaskFormats()) formats += f.name == kFormat;
  for (const auto& s : eval::ReportSections()) sections += s.name == kFormat;
  EXPECT_EQ(kinds, 1u);
  EXPECT_EQ(formats, 1u);
  EXPECT_EQ(sections, 1u);
  // Listed where it stood among the built-in kinds: enwiki, datagov, cmdbench, dir.
  std::vector<std::string> names;
  for (const auto& k : ingest::SourceKinds()) names.push_back(k.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names[2], "cmdbench");
  EXPECT_EQ(names[3], "dir");
}

}  // namespace
}  // namespace lakeqa::cmdbench
