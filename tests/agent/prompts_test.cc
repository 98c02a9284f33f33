// Issue 30, item 5: prompt profiles. `lakeqa` is the paper's prompt, verbatim, and the default for LakeQA
// tasks; `lake` (the default for any other benchmark's tasks) names the lake's namespaces and every tool
// given and states the benchmark's answer format; an unknown profile is refused, naming both.
#include <gtest/gtest.h>

#include "lakeqa/agent/prompts.h"

namespace lakeqa::agent {
namespace {

eval::Task TaskOf(std::string_view format) {
  eval::Task t;
  t.id = "t";
  t.format = std::string(format);
  return t;
}

TEST(PromptProfiles, TheLakeQaProfileIsThePapersPromptAndTheDefaultForLakeQaTasks) {
  auto p = ProfilePrompt(kPromptLakeQa, {});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, DefaultSystemPrompt());
  EXPECT_EQ(DefaultProfile({TaskOf(eval::kLakeQaFormat), TaskOf(eval::kLakeQaFormat)}), kPromptLakeQa);
  EXPECT_EQ(DefaultProfile({TaskOf(eval::kLakeQaFormat), TaskOf(eval::kCmdBenchFormat)}), kPromptLake);
  EXPECT_EQ(DefaultProfile({TaskOf("kramabench")}), kPromptLake);
}

TEST(PromptProfiles, TheLakeProfileNamesTheNamespacesEveryToolAndTheBenchmarksAnswerFormat) {
  PromptContext c;
  c.namespaces = {"cmdbench", "wikipedia"};
  c.tools = {"search_keyword", "query", "graph_query", "submit_answer"};
  c.format = std::string(eval::kCmdBenchFormat);
  auto p = ProfilePrompt(kPromptLake, c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_NE(p->find("namespaces: cmdbench, wikipedia"), std::string::npos) << *p;
  for (const auto& tool : c.tools) EXPECT_NE(p->find("- " + tool), std::string::npos) << tool << " in " << *p;
  // CMDBench's golds carry units and places ("183 pound", "Houston, Texas"): the paper's "no units" would
  // cost them.
  EXPECT_NE(p->find("[183 pound]"), std::string::npos) << *p;
  EXPECT_EQ(p->find("no labels or units"), std::string::npos) << *p;
  // Nothing of the paper's data.gov advice on a lake that has no data.gov.
  EXPECT_EQ(p->find("data.gov"), std::string::npos) << *p;

  // KramaBench's answer format: tests/kramabench/prompt_test.cc (the benchmark registers it).

  // The format the lake profile states: the tasks' own when they share one, else LakeQA's.
  EXPECT_EQ(CommonFormat({TaskOf(eval::kCmdBenchFormat), TaskOf(eval::kCmdBenchFormat)}),
            eval::kCmdBenchFormat);
  EXPECT_EQ(CommonFormat({TaskOf(eval::kCmdBenchFormat), TaskOf("kramabench")}), eval::kLakeQaFormat);
}

TEST(PromptProfiles, AnUnknownProfileIsRefusedNamingBoth) {
  auto p = ProfilePrompt("paper", {});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("expected lakeqa"), std::string::npos) << p.status().ToString();
  EXPECT_NE(p.status().message().find("or lake"), std::string::npos) << p.status().ToString();
}

}  // namespace
}  // namespace lakeqa::agent
