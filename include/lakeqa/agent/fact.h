// Running one evidence node's fact through the real tools, the way the LakeQA annotation guideline
// grounds it: the node's source file is downloaded into the sandbox, then its fact code (Python that assigns
// `answer`, or prints it) runs there with `local_path` naming the download. The oracle agent, `tasks
// verify` and the workbench's composer all run facts through this one function, so a fact that runs in the
// workbench is a fact that verifies.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "lakeqa/common/json.h"

namespace lakeqa::agent {

// One tool call by name with JSON arguments; returns the tool's JSON result or {"error": ...}.
using ToolCallFn = std::function<Json(const std::string& tool, const Json& args)>;

// Fact code is Python that derives the answer (it assigns `answer`); other facts are sentences.
bool IsFactCode(const std::string& fact);

struct FactRun {
  std::string dataset;     // "<namespace>/<dataset id>" of the source, "" when it does not parse
  std::string local_path;  // the downloaded source in the sandbox, "" when the download failed
  bool code = false;       // the fact is code (a sentence fact is grounded by its download alone)
  bool ran = false;        // the code ran to its end (exit 0)
  std::string answer;      // what the code assigned to `answer`, else the last line it printed
  std::string output;      // the code's stdout, as execute_code returned it
  std::string error;       // why no answer came out: bad source, download, exception, timeout ("" = none)
  std::string error_code;  // the tool's error code when a tool failed ("timeout", "not_found", ...)
  Json download;           // the download tool's result
  Json execution;          // the execute_code tool's result (null for a sentence fact)
};

// Downloads `source` ("<namespace>/<dataset id>/<file path>") and runs `fact` against it.
FactRun RunFact(const ToolCallFn& call, const std::string& source, const std::string& fact);

// Whether a fact's answer text matches the annotated one: equal after dropping commas and quotes,
// case-folded and trimmed, or numerically equal (relative 1e-6).
bool FactAnswerMatches(const std::string& got, const std::string& want);

// The subquestion (or code) with earlier answers put in for their placeholders "<node_N answer>" and
// "<node N answer>"; `answers` maps node id → answer text.
std::string FillNodePlaceholders(std::string text, const std::map<std::string, std::string>& answers);

}  // namespace lakeqa::agent
