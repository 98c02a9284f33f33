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
  EXPECT_EQ(DefaultProfile({TaskOf(eval::kLakeQaFormat), TaskOf("cmdbench")}), kPromptLake);
  EXPECT_EQ(DefaultProfile({TaskOf("kramabench")}), kPromptLake);
}

TEST(PromptProfiles, AnUnknownProfileIsRefusedNamingBoth) {
  auto p = ProfilePrompt("paper", {});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("expected lakeqa"), std::string::npos) << p.status().ToString();
  EXPECT_NE(p.status().message().find("or lake"), std::string::npos) << p.status().ToString();
}

}  // namespace
}  // namespace lakeqa::agent
