// Appendix G of the LakeQA paper, verbatim from the reference harness (evaluation/agent_runner.py).
#include "lakeqa/agent/prompts.h"

#include "lakeqa/eval/em.h"


#include <openssl/sha.h>

namespace lakeqa::agent {

const std::string& DefaultSystemPrompt() {
  static const std::string kPrompt =
      R"(You are a data analysis agent working with PUBLIC GOVERNMENT DATASETS (data.gov, census, etc.).

## HOW THIS WORKS - READ CAREFULLY
This is an INTERACTIVE system. You output ONE tool call, then STOP. The system executes your tool and returns the REAL result. Then you are called again to pick the next tool.

DO NOT:
- Output multiple tool calls
- Simulate or hallucinate results (e.g., {"result": ...} or {"error": ...})
- Continue the conversation yourself
- Make up data

ONLY output a single JSON object with your tool call. The system handles execution.

## DATA ACCESS (each step = one tool call)
- search(prefixes) or search_keyword(keywords) → returns dataset_ids (identifiers, not data)
  - Pass a list of strings: search(["climate", "weather"]) or search_keyword(["police", "crime"])
- list_files(dataset_ids) → returns file paths in datasets
  - Pass a list of strings: list_files(["dataset1", "dataset2"])
- download(files) → downloads files to sandbox (max 5 per call)
  - Pass a list of {dataset_id, file_path}: download([{"dataset_id": "...", "file_path": "..."}])
- execute_code(code) → runs Python on downloaded files (use print()!)
- submit_answer() → when ready to submit final answer

## CRITICAL: VERIFY DATA SOURCES
Dataset names can be misleading! Example: "traffic-incidents-2020" could be from Chicago, NYC, or any other city.
ALWAYS check metadata before using a dataset:
- Download and read metadata files (e.g., metadata.json, catalog.txt) to find the actual source
- Look for: publisher, source, city/state, geographic coverage, agency name
- Verify the data matches what the question asks for (correct city, agency, time period)
- Two datasets with similar names may cover completely different locations!

## TIPS
- use search_keyword for semantic matching, SINGLE word preferred
- Always print() in execute_code to see output
- Check actual column names and date formats in the data
- Use full dataset for final answer, not just samples
- Answer format: [value] only, no labels or units

## TURN AND TIME LIMITS
- You have LIMITED TURNS. The system will show you remaining turns.
- There is also a TIME LIMIT. Do not waste time on excessive exploration.
- After inspecting files, IMMEDIATELY run execute_code to analyze data.
- If running low on turns or time, prioritize submitting your best answer.)";
  return kPrompt;
}

std::string FirstUserMessage(const std::string& question) {
  return "QUESTION TO ANSWER:\n" + question +
         "\n\nPlease answer the question using the available tools. Start by searching for relevant "
         "datasets. "
         "Use the available tools to find and analyze data, then call submit_answer with your final answer.";
}

namespace {

Json StrList(const std::string& description) {
  return {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", description}};
}

std::vector<llm::ToolSchema> BuildPaperTools() {
  std::vector<llm::ToolSchema> t;
  t.push_back(
      {"search",
       "Find datasets by name prefixes. Returns dataset identifiers (not data). Search multiple prefixes at "
       "once.",
       {{"type", "object"},
        {"properties",
         {{"prefixes",
           StrList("List of prefixes to search for (e.g., ['austin-police', 'climate', 'weather'])")}}},
        {"required", {"prefixes"}}}});
  t.push_back(
      {"search_keyword",
       "Semantic keyword search across datasets. Search multiple keywords at once. Returns ranked dataset "
       "identifiers.",
       {{"type", "object"},
        {"properties",
         {{"keywords", StrList("List of keywords to search for (e.g., ['police', 'crime', 'traffic'])")},
          {"limit",
           {{"type", "integer"}, {"description", "Max results to return (default 20)"}, {"default", 20}}}}},
        {"required", {"keywords"}}}});
  t.push_back(
      {"list_files",
       "List files within datasets. Use dataset_ids from search results. List multiple datasets at once.",
       {{"type", "object"},
        {"properties",
         {{"dataset_ids",
           StrList(
               "List of dataset identifiers from search results (e.g., ['Barack_Obama', 'climate-data'])")}}},
        {"required", {"dataset_ids"}}}});
  t.push_back(
      {"download",
       "Download files from datasets to the local sandbox for analysis. Max 5 files per call.",
       {{"type", "object"},
        {"properties",
         {{"files",
           {{"type", "array"},
            {"items",
             {{"type", "object"},
              {"properties",
               {{"dataset_id", {{"type", "string"}, {"description", "Dataset identifier"}}},
                {"file_path", {{"type", "string"}, {"description", "Path to file within the dataset"}}}}},
              {"required", {"dataset_id", "file_path"}}}},
            {"description", "List of files to download (max 5). Each with dataset_id and file_path."},
            {"maxItems", 5}}}}},
        {"required", {"files"}}}});
  t.push_back({"inspect_file",
               "Inspect a file to see its structure, columns, and sample data without downloading.",
               {{"type", "object"},
                {"properties",
                 {{"dataset_id", {{"type", "string"}, {"description", "Dataset identifier"}}},
                  {"file_path", {{"type", "string"}, {"description", "Path to file within the dataset"}}}}},
                {"required", {"dataset_id", "file_path"}}}});
  t.push_back(
      {"execute_code",
       "Execute Python code to analyze downloaded files. Use print() to see output. pandas, json, pathlib "
       "are "
       "available. IMPORTANT: Only use files you have successfully downloaded - use the exact local_path "
       "returned by the download tool.",
       {{"type", "object"},
        {"properties",
         {{"code",
           {{"type", "string"},
            {"description",
             "Python code to execute. Use the exact local_path from download results. Do NOT guess file "
             "paths."}}}}},
        {"required", {"code"}}}});
  t.push_back(
      {"submit_answer",
       "Submit your final answer when you have computed the result.",
       {{"type", "object"},
        {"properties",
         {{"answer",
           {{"type", "string"},
            {"description",
             "The final answer. Format: just the value, e.g., '12345' not '12345 incidents'"}}},
          {"reasoning",
           {{"type", "string"}, {"description", "Brief explanation of how you computed the answer"}}}}},
        {"required", {"answer"}}}});
  return t;
}

}  // namespace

const std::vector<llm::ToolSchema>& PaperToolSchemas() {
  static const std::vector<llm::ToolSchema> kTools = BuildPaperTools();
  return kTools;
}

llm::ToolSchema SchemaFromJson(const Json& j) {
  llm::ToolSchema s;
  s.name = j.value("name", "");
  s.description = j.value("description", "");
  if (j.contains("parameters"))
    s.parameters = j["parameters"];
  else if (j.contains("inputSchema"))
    s.parameters = j["inputSchema"];
  else if (j.contains("input_schema"))
    s.parameters = j["input_schema"];
  else
    s.parameters = {{"type", "object"}, {"properties", Json::object()}};
  return s;
}

// One port of the harness's _clean_answer serves both the agents and the scorer.
std::string CleanAnswer(const std::string& raw) {
  return eval::CleanAnswerText(raw);
}

std::string PromptHash(const std::string& system_prompt, const std::vector<llm::ToolSchema>& tools) {
  Json j = {{"system", system_prompt}, {"tools", Json::array()}};
  for (const auto& t : tools)
    j["tools"].push_back({{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}});
  std::string canon = j.dump();
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(canon.data()), canon.size(), d);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : d)
    out += kHex[c >> 4], out += kHex[c & 15];
  return out;
}

}  // namespace lakeqa::agent
