// The agent's prompts: the paper's (tools/paper_prompt.h) and the "lake" profile written for the lake at
// hand.
#include "lakeqa/agent/prompts.h"

#include <openssl/sha.h>

#include "lakeqa/eval/task_format.h"
#include "lakeqa/text/answer_clean.h"
#include "lakeqa/tools/paper_prompt.h"
#include "lakeqa/tools/tool_spec.h"

namespace lakeqa::agent {

const std::string& DefaultSystemPrompt() { return tools::PaperSystemPrompt(); }

namespace {

// One line per tool a model may be given, for the "lake" profile.
std::string ToolLine(const std::string& name) {
  const tools::ToolSpec* spec = tools::FindToolSpec(name);
  return spec != nullptr ? spec->prompt_line : name + "(...)";
}

// The benchmark's own answer format (TaskFormatSpec::answer_format), else LakeQA's.
std::string AnswerFormat(const std::string& format) {
  const eval::TaskFormatSpec* spec = eval::FindTaskFormat(format);
  if (spec != nullptr && !spec->answer_format.empty()) return spec->answer_format;
  return "[value] only, no labels or units.";
}

}  // namespace

Result<std::string> ProfilePrompt(std::string_view profile, const PromptContext& c) {
  if (profile == kPromptLakeQa) return DefaultSystemPrompt();
  if (profile != kPromptLake)
    return InvalidArgument(
        "--prompt " + std::string(profile) +
        ": expected lakeqa (the paper's prompt) or lake "
        "(written for the lake: its namespaces, every tool given, the benchmark's answer format)");
  std::string ns;
  for (const auto& n : c.namespaces) ns += (ns.empty() ? "" : ", ") + n;
  std::string p =
      "You are a data analysis agent answering a question over a data lake. Its datasets are folders grouped "
      "in namespaces: " +
      (ns.empty() ? std::string("(none found)") : ns) +
      ". A dataset id is <namespace>/<dataset>; the dataset name alone works when only one namespace has "
      "it.\n\n"
      "## HOW THIS WORKS\n"
      "Output ONE tool call, then stop: the system runs it and shows you the real result. Never simulate "
      "results "
      "or make up data.\n\n"
      "## TOOLS\n";
  for (const auto& t : c.tools) p += "- " + ToolLine(t) + "\n";
  p += "\n## TIPS\n"
       "- Check that a dataset is the one the question means (title, columns, years, place) before "
       "computing.\n"
       "- Look at the real column names and formats before you filter or aggregate; use the whole file for "
       "the "
       "final number, not a sample.\n"
       "- A tool result over 4,000 characters is cut to its first 2,500 and last 1,000: print only what you "
       "need, and put the answer last.\n"
       "- Turns and time are limited; the remaining budget follows each result. When it runs low, submit "
       "your best "
       "answer.\n\n"
       "## ANSWER FORMAT\n" +
       AnswerFormat(c.format);
  return p;
}

std::string DefaultProfile(const std::vector<eval::Task>& tasks) {
  for (const auto& t : tasks)
    if (t.format != eval::kLakeQaFormat) return kPromptLake;
  return kPromptLakeQa;
}

std::string CommonFormat(const std::vector<eval::Task>& tasks) {
  if (tasks.empty()) return std::string(eval::kLakeQaFormat);
  for (const auto& t : tasks)
    if (t.format != tasks[0].format) return std::string(eval::kLakeQaFormat);
  return tasks[0].format;
}

std::string FirstUserMessage(const std::string& question) { return tools::PaperFirstUserMessage(question); }

const std::vector<llm::ToolSchema>& PaperToolSchemas() {
  static const std::vector<llm::ToolSchema> kTools = [] {
    std::vector<llm::ToolSchema> out;
    for (const tools::ToolSpec& spec : tools::ToolSpecs())
      if (spec.paper) out.push_back({spec.name, spec.paper->description, spec.paper->parameters});
    return out;
  }();
  return kTools;
}

llm::ToolSchema SchemaFromJson(const Json& j) {
  llm::ToolSchema s;
  s.name = j.value("name", "");
  s.description = j.value("description", "");
  if (j.contains("parameters")) s.parameters = j["parameters"];
  else if (j.contains("inputSchema")) s.parameters = j["inputSchema"];
  else if (j.contains("input_schema")) s.parameters = j["input_schema"];
  else s.parameters = {{"type", "object"}, {"properties", Json::object()}};
  return s;
}

// One port of the harness's _clean_answer serves both the agents and the scorer.
std::string CleanAnswer(const std::string& raw) { return text::CleanAnswerText(raw); }

std::string PromptHash(const std::string& system_prompt, const std::vector<llm::ToolSchema>& tools) {
  Json j = {{"system", system_prompt}, {"tools", Json::array()}};
  for (const auto& t : tools)
    j["tools"].push_back({{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}});
  std::string canon = j.dump();
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(canon.data()), canon.size(), d);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : d) out += kHex[c >> 4], out += kHex[c & 15];
  return out;
}

}  // namespace lakeqa::agent
