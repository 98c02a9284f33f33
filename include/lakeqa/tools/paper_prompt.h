// The LakeQA paper's agent protocol text (Appendix G, verbatim from evaluation/agent_runner.py of the
// reference harness): the system prompt and the first user message. It lives with the tools it describes so
// that the agent loop (agent/prompts.h) and the MCP server's lakeqa_agent prompt serve one text, and the
// server needs nothing of the agent module. Kept verbatim so results stay comparable with the published ones.
#pragma once

#include <string>

namespace lakeqa::tools {

const std::string& PaperSystemPrompt();
std::string PaperFirstUserMessage(const std::string& question);

}  // namespace lakeqa::tools
