// The "lake" prompt states KramaBench's answer format for its tasks (moved from tests/agent/prompts_test.cc
// with the format, which KramaBench registers).
#include <gtest/gtest.h>

#include "lakeqa/agent/prompts.h"
#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::kramabench {
namespace {

TEST(PromptProfiles, TheLakeProfileStatesKramaBenchsAnswerFormat) {
  Register();
  agent::PromptContext c;
  c.namespaces = {"cmdbench", "wikipedia"};
  c.tools = {"search_keyword", "query", "graph_query", "submit_answer"};
  c.format = std::string(kFormat);
  auto k = agent::ProfilePrompt(agent::kPromptLake, c);
  ASSERT_TRUE(k.ok());
  EXPECT_NE(k->find("precision the question asks for"), std::string::npos) << *k;
}

}  // namespace
}  // namespace lakeqa::kramabench
