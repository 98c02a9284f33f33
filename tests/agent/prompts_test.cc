// Issue 30, item 5: prompt profiles. `lakeqa` is the paper's prompt, verbatim, and the default for LakeQA
// tasks; `lake` (the default for any other benchmark's tasks) names the lake's namespaces and every tool
// given and states the benchmark's answer format; an unknown profile is refused, naming both.
#include <gtest/gtest.h>

#include "lakeqa/agent/prompts.h"

namespace lakeqa::agent {
namespace {

eval::Task TaskOf(eval::TaskFormat format) {
  eval::Task t;
  t.id = "t";
  t.format = format;
  return t;
}

TEST(PromptProfiles, TheLakeQaProfileIsThePapersPromptAndTheDefaultForLakeQaTasks) {
  auto p = ProfilePrompt(kPromptLakeQa, {});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, DefaultSystemPrompt());
  EXPECT_EQ(DefaultProfile({TaskOf(eval::TaskFormat::kLakeQa), TaskOf(eval::TaskFormat::kLakeQa)}),
            kPromptLakeQa);
  EXPECT_EQ(DefaultProfile({TaskOf(eval::TaskFormat::kLakeQa), TaskOf(eval::TaskFormat::kCmdBench)}),
            kPromptLake);
  EXPECT_EQ(DefaultProfile({TaskOf(eval::TaskFormat::kKramaBench)}), kPromptLake);
}

TEST(PromptProfiles, TheLakeProfileNamesTheNamespacesEveryToolAndTheBenchmarksAnswerFormat) {
  PromptContext c;
  c.namespaces = {"cmdbench", "wikipedia"};
  c.tools = {"search_keyword", "query", "graph_query", "submit_answer"};
  c.format = eval::TaskFormat::kCmdBench;
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

  c.format = eval::TaskFormat::kKramaBench;
  auto k = ProfilePrompt(kPromptLake, c);
  ASSERT_TRUE(k.ok());
  EXPECT_NE(k->find("precision the question asks for"), std::string::npos) << *k;

  // The format the lake profile states: the tasks' own when they share one, else LakeQA's.
  EXPECT_EQ(CommonFormat({TaskOf(eval::TaskFormat::kCmdBench), TaskOf(eval::TaskFormat::kCmdBench)}),
            eval::TaskFormat::kCmdBench);
  EXPECT_EQ(CommonFormat({TaskOf(eval::TaskFormat::kCmdBench), TaskOf(eval::TaskFormat::kKramaBench)}),
            eval::TaskFormat::kLakeQa);
}

TEST(PromptProfiles, AnUnknownProfileIsRefusedNamingBoth) {
  auto p = ProfilePrompt("paper", {});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("expected lakeqa"), std::string::npos) << p.status().ToString();
  EXPECT_NE(p.status().message().find("or lake"), std::string::npos) << p.status().ToString();
}

}  // namespace
}  // namespace lakeqa::agent
