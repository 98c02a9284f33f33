// The specs of the tools that work on the session's sandbox (tool_sandbox.cc): query, execute_code,
// get_sandbox_info, submit_answer.
#include "tools/internal.h"
#include "tools/spec_internal.h"

namespace lakeqa::tools::spec {
namespace {

ToolSpec Query() {
  ToolSpec t;
  t.name = "query";
  t.description =
      "Run one read-only SQL statement (DuckDB) over the downloaded files. Every downloaded CSV/TSV/JSON/"
      "GeoJSON/Parquet file is a view (listed in the view sandbox_files); files are also readable by "
      "relative path: SELECT * FROM 'datagov/x/files/rows.txt'. Time and row limits apply.";
  t.input_schema = InputSchema({{"sql", Prop("string", "One SQL statement")}}, {"sql"});
  t.needs_sandbox = true;
  t.handler = &ToolSet::Impl::Query;
  t.mcp = {"Run one read-only SQL statement", true, false, true};
  Json ids = Strings();
  t.output_schema =
      Obj({{"columns", ids}, {"types", ids}, {"rows", ArrayOf(T("array"))}, {"truncated", T("boolean")}});
  t.prompt_line = "query(sql) → one read-only DuckDB statement over the downloaded files";
  return t;
}

ToolSpec ExecuteCode() {
  ToolSpec t;
  t.name = "execute_code";
  t.description =
      "Execute Python code in the sandbox to analyse or preview downloaded files. Working directory: the "
      "sandbox. Pre-imported: pandas as pd, json, csv, os, glob, re, Path. Also installed: numpy, openpyxl "
      "(pd.read_excel), bs4, scipy, matplotlib (Agg backend: save figures to files) and geopandas with "
      "shapely. "
      "SANDBOX_DIR is the sandbox path "
      "and FILES the list of downloaded files (absolute paths, sorted; hidden files such as .outputs/ are "
      "not in it). Downloads are at <namespace>/<dataset_id>/<file_path> and, for an id in one namespace, "
      "also at <dataset_id>/<file_path>. print() what you need; no network; time and memory limits.";
  t.input_schema =
      InputSchema({{"code", Prop("string", "Python code to execute. Use print() for output.")}}, {"code"});
  t.needs_sandbox = true;
  t.handler = &ToolSet::Impl::ExecuteCode;
  t.mcp = {"Run Python in the sandbox", false, true, false};
  t.output_schema = Obj({{"output", T("string")}, {"success", T("boolean")}, {"sandbox_files", Strings()}});
  t.paper = PaperSchema{
      "Execute Python code to analyze downloaded files. Use print() to see output. pandas, json, pathlib "
      "are "
      "available. IMPORTANT: Only use files you have successfully downloaded - use the exact local_path "
      "returned by the download tool.",
      InputSchema(
          {{"code", Prop("string",
                         "Python code to execute. Use the exact local_path from download results. Do NOT "
                         "guess file paths.")}},
          {"code"})};
  t.prompt_line =
      "execute_code(code) → Python in the sandbox with pandas, numpy, openpyxl, bs4, scipy, matplotlib (Agg) "
      "and geopandas; print() what you need";
  return t;
}

ToolSpec GetSandboxInfo() {
  ToolSpec t;
  t.name = "get_sandbox_info";
  t.description = "List the files in the sandbox with their sizes.";
  t.input_schema = InputSchema(Json::object(), {});
  t.needs_sandbox = true;
  t.handler = &ToolSet::Impl::GetSandboxInfo;
  t.mcp = {"List the sandbox's files", true, false, true};
  t.output_schema =
      Obj({{"files", ArrayOf(T("object"))}, {"file_count", T("integer")}, {"total_size", T("integer")}});
  t.prompt_line = "get_sandbox_info() → the files in the sandbox";
  return t;
}

ToolSpec SubmitAnswer() {
  ToolSpec t;
  t.name = "submit_answer";
  t.description =
      "Submit the final answer; this ends the episode. Wrap the answer in square brackets like [Answer]. "
      "The result's answer is what exact match scores (cleaned: \"[42 airports]\" gives \"42\"); "
      "raw_answer is what was sent.";
  t.input_schema =
      InputSchema({{"answer", Prop("string", "The final answer")},
                   {"reasoning", Prop("string", "Brief explanation of how the answer was found")},
                   {"sources", StringArray("Dataset ids or file paths used")}},
                  {"answer"});
  // The answer is the answer: no compact view of it.
  t.compact_view = false;
  t.needs_sandbox = true;
  t.handler = &ToolSet::Impl::SubmitAnswer;
  t.mcp = {"Submit the final answer", false, false, false};
  t.output_schema = Obj({{"status", T("string")}, {"answer", T("string")}, {"sources", Strings()}});
  t.paper = PaperSchema{
      "Submit your final answer when you have computed the result.",
      InputSchema({{"answer", Prop("string",
                                   "The final answer. Format: just the value, e.g., '12345' not '12345 "
                                   "incidents'")},
                   {"reasoning", Prop("string", "Brief explanation of how you computed the answer")}},
                  {"answer"})};
  t.prompt_line = "submit_answer(answer) → your final answer; this ends the episode";
  return t;
}

}  // namespace

void AddSandboxSpecs(std::vector<ToolSpec>& out) {
  out.push_back(Query());
  out.push_back(ExecuteCode());
  out.push_back(GetSandboxInfo());
  out.push_back(SubmitAnswer());
}

}  // namespace lakeqa::tools::spec
