// The agent's prompts: the paper's protocol (Appendix G of the LakeQA paper, as in evaluation/agent_runner.py
// of the reference harness: the system prompt and first user message of tools/paper_prompt.h, the tool
// schemas of the tool specs, tools/tool_spec.h), the "lake" profile, and the answer clean-up applied to
// submitted answers. The paper's text is kept verbatim so results stay comparable with the published ones.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/eval/task.h"
#include "lakeqa/llm/chat.h"

namespace lakeqa::agent {

const std::string& DefaultSystemPrompt();

// System prompt profiles (docs/harness.md, "Prompt profiles"). "lakeqa": the paper's prompt, verbatim (the
// default for LakeQA tasks). "lake": one written for the lake at hand, the default for every other task
// format: it names the lake's namespaces and every tool offered, and states the benchmark's answer format.
inline constexpr const char* kPromptLakeQa = "lakeqa";
inline constexpr const char* kPromptLake = "lake";
struct PromptContext {
  std::vector<std::string> namespaces;                    // the lake's, as the tools see them
  std::vector<std::string> tools;                         // the tool names offered, in order
  std::string format = std::string(eval::kLakeQaFormat);  // Task::format
};
// The profile's text; invalid_argument naming the profiles for an unknown name.
Result<std::string> ProfilePrompt(std::string_view profile, const PromptContext& context);
// "lakeqa" when every task is a LakeQA task, else "lake".
std::string DefaultProfile(const std::vector<eval::Task>& tasks);
// The format the "lake" profile states the answer format of: the tasks' own when they share one, else
// LakeQA's.
std::string CommonFormat(const std::vector<eval::Task>& tasks);
std::string FirstUserMessage(const std::string& question);
// search, search_keyword, list_files, download, inspect_file, execute_code, submit_answer.
const std::vector<llm::ToolSchema>& PaperToolSchemas();
// A ToolEnv schema ({"name", "description", "parameters" | "inputSchema"}) as a ToolSchema.
llm::ToolSchema SchemaFromJson(const Json& j);
// The reference harness's _clean_answer: bracketed content, no "answer:" prefix, no quotes, a lone
// number reduced to its digits.
std::string CleanAnswer(const std::string& raw);
// Hex SHA-256 of the system prompt and tool schemas: run.json's prompt hash.
std::string PromptHash(const std::string& system_prompt, const std::vector<llm::ToolSchema>& tools);

}  // namespace lakeqa::agent
