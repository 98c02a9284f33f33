// One episode of the llm agent against a scripted model (tests/llm/model_server.h ScriptedToolCalls) on the
// OpenAI protocol, over the real tools of a lake and index: what the agent returned and every request the
// model got. For tests of what the model is shown (model_view_test, harness_compat_test).
#pragma once

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "lakeqa/agent/agent.h"
#include "lakeqa/agent/tool_env.h"
#include "lakeqa/llm/providers.h"
#include "llm/model_server.h"

namespace lakeqa::agent::testing {

struct ScriptedRun {
  AgentResult result;
  std::vector<std::string> bodies;  // every request the model got, in order
};

inline ScriptedRun RunScripted(const std::vector<std::pair<std::string, Json>>& calls,
                               const ToolEnvOptions& env_options, const eval::Task& task,
                               const LoopConfig& config) {
  lakeqa::testing::ModelServer srv(lakeqa::testing::ScriptedToolCalls(calls));
  llm::ClientOptions o;
  o.base_url = srv.Url() + "/v1";
  o.http.max_retries = 1;
  auto client = llm::MakeOpenAiClient(o);
  ScriptedRun out;
  auto factory = MakeToolEnvFactory(env_options);
  EXPECT_TRUE(factory.ok()) << factory.status().ToString();
  if (!factory.ok()) return out;
  auto env = (*factory)(task);
  EXPECT_TRUE(env.ok()) << env.status().ToString();
  if (!env.ok()) return out;
  std::atomic<bool> cancel{false};
  out.result = MakeLlmAgent(*client, "openai", "gpt-test", nullptr, config)->Run(task, **env, cancel);
  out.bodies = srv.Bodies();
  return out;
}

}  // namespace lakeqa::agent::testing
