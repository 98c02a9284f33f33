// The paper's agent protocol text (Appendix G of the LakeQA paper, as in evaluation/agent_runner.py of
// the reference harness): the system prompt, the first user message, the tool schemas, and the answer
// clean-up applied to submitted answers. Kept verbatim so results stay comparable with the published ones.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/llm/chat.h"

namespace lakeqa::agent {

const std::string& DefaultSystemPrompt();
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
