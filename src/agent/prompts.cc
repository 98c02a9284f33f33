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

namespace {

// One line per tool a model may be given, for the "lake" profile.
std::string ToolLine(const std::string& name) {
  static const std::vector<std::pair<std::string, std::string>> kLines = {
      {"search", "search(prefixes) → datasets whose id starts with a prefix, each id once"},
      {"search_keyword",
       "search_keyword(keywords) → ranked datasets, one line each: id | title | rows | years | first columns | "
       "score"},
      {"list_files", "list_files(dataset_ids) → the files of datasets, with sizes"},
      {"download", "download(files) → up to 5 files per call into the sandbox"},
      {"inspect_file",
       "inspect_file(dataset_id, file_path) → format, columns with types and samples, a text file's first KB, a "
       "workbook's sheets and header rows, without downloading"},
      {"query", "query(sql) → one read-only DuckDB statement over the downloaded files"},
      {"execute_code",
       "execute_code(code) → Python in the sandbox with pandas, numpy, openpyxl, bs4, scipy, matplotlib (Agg) "
       "and geopandas; print() what you need"},
      {"get_sandbox_info", "get_sandbox_info() → the files in the sandbox"},
      {"graph_find_nodes", "graph_find_nodes(name, label) → knowledge-graph nodes by name, as \"Label:id\""},
      {"graph_neighbors", "graph_neighbors(node, type, direction) → the edges at a node and the nodes they reach"},
      {"graph_query", "graph_query(cypher) → a read-only Cypher query over the knowledge graph"},
      {"submit_answer", "submit_answer(answer) → your final answer; this ends the episode"},
  };
  for (const auto& [n, line] : kLines)
    if (n == name) return line;
  return name + "(...)";
}

std::string AnswerFormat(eval::TaskFormat format) {
  switch (format) {
    case eval::TaskFormat::kCmdBench:
      return "The answer as the data states it, with its unit or qualifier when it has one, in square brackets: "
             "[183 pound], [Houston, Texas], [1949]. A yes/no question: [yes] or [no].";
    case eval::TaskFormat::kKramaBench:
      return "The value only, in square brackets: a number with the precision the question asks for ([0.42]), a "
             "name or string exactly as in the data, a list as [a, b, c].";
    case eval::TaskFormat::kLakeQa:
      break;
  }
  return "[value] only, no labels or units.";
}

}  // namespace

Result<std::string> ProfilePrompt(std::string_view profile, const PromptContext& c) {
  if (profile == kPromptLakeQa) return DefaultSystemPrompt();
  if (profile != kPromptLake)
    return InvalidArgument("--prompt " + std::string(profile) + ": expected lakeqa (the paper's prompt) or lake "
                           "(written for the lake: its namespaces, every tool given, the benchmark's answer format)");
  std::string ns;
  for (const auto& n : c.namespaces)
    ns += (ns.empty() ? "" : ", ") + n;
  std::string p =
      "You are a data analysis agent answering a question over a data lake. Its datasets are folders grouped "
      "in namespaces: " +
      (ns.empty() ? std::string("(none found)") : ns) +
      ". A dataset id is <namespace>/<dataset>; the dataset name alone works when only one namespace has it.\n\n"
      "## HOW THIS WORKS\n"
      "Output ONE tool call, then stop: the system runs it and shows you the real result. Never simulate results "
      "or make up data.\n\n"
      "## TOOLS\n";
  for (const auto& t : c.tools)
    p += "- " + ToolLine(t) + "\n";
  p += "\n## TIPS\n"
       "- Check that a dataset is the one the question means (title, columns, years, place) before computing.\n"
       "- Look at the real column names and formats before you filter or aggregate; use the whole file for the "
       "final number, not a sample.\n"
       "- A tool result over 4,000 characters is cut to its first 2,500 and last 1,000: print only what you "
       "need, and put the answer last.\n"
       "- Turns and time are limited; the remaining budget follows each result. When it runs low, submit your best "
       "answer.\n\n"
       "## ANSWER FORMAT\n" +
       AnswerFormat(c.format);
  return p;
}

std::string DefaultProfile(const std::vector<eval::Task>& tasks) {
  for (const auto& t : tasks)
    if (t.format != eval::TaskFormat::kLakeQa) return kPromptLake;
  return kPromptLakeQa;
}

eval::TaskFormat CommonFormat(const std::vector<eval::Task>& tasks) {
  if (tasks.empty()) return eval::TaskFormat::kLakeQa;
  for (const auto& t : tasks)
    if (t.format != tasks[0].format) return eval::TaskFormat::kLakeQa;
  return tasks[0].format;
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
