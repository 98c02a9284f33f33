// The "lake" prompt for CMDBench questions (moved from tests/agent/prompts_test.cc with the format, which
// CMDBench registers): the lake's namespaces, every tool given and CMDBench's answer format.
#include <gtest/gtest.h>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/cmdbench/cmdbench.h"

namespace lakeqa::cmdbench {
namespace {

using namespace agent;

eval::Task TaskOf(std::string_view format) {
  eval::Task t;
  t.id = "t";
  t.format = std::string(format);
  return t;
}

TEST(PromptProfiles, TheLakeProfileNamesTheNamespacesEveryToolAndTheBenchmarksAnswerFormat) {
  PromptContext c;
  c.namespaces = {"cmdbench", "wikipedia"};
  c.tools = {"search_keyword", "query", "graph_query", "submit_answer"};
  c.format = std::string(kFormat);
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

  // The format the lake profile states: the tasks' own when they share one, else LakeQA's.
  EXPECT_EQ(CommonFormat({TaskOf(kFormat), TaskOf(kFormat)}), kFormat);
  EXPECT_EQ(CommonFormat({TaskOf(kFormat), TaskOf("kramabench")}), eval::kLakeQaFormat);
}

}  // namespace
}  // namespace lakeqa::cmdbench
