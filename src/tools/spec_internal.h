// Private to src/tools: the JSON Schema shorthands the tool specs are written with, and the spec groups
// tool_spec.cc puts in order.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/tools/tool_spec.h"

namespace lakeqa::tools::spec {

// {"type", "description"}.
Json Prop(const char* type, const char* description);
// An array of strings with a description.
Json StringArray(const char* description);
// An input schema: {"type": "object", "properties", "required"}.
Json InputSchema(Json properties, const std::vector<std::string>& required);
// An integer argument: {"type": "integer", "description", "default", "minimum"}.
Json IntArg(const char* description, int default_value, int minimum);
// One file of a dataset, as an object of two required strings: {"dataset_id", "file_path"}.
Json FileRef(const char* dataset_description, const char* path_description);
// Output-schema shorthands: an object of `properties`, a bare type, an array of `item`.
Json Obj(Json properties);
Json T(const char* type);
Json ArrayOf(Json item);
// An array of strings (ids, paths, column names).
Json Strings();

// The groups, each in listing order: search, search_keyword, list_files, download, inspect_file
// (spec_lake.cc); query, execute_code, get_sandbox_info, submit_answer (spec_sandbox.cc); graph_find_nodes,
// graph_neighbors, graph_query (spec_graph.cc).
void AddLakeSpecs(std::vector<ToolSpec>& out);
void AddSandboxSpecs(std::vector<ToolSpec>& out);
void AddGraphSpecs(std::vector<ToolSpec>& out);

}  // namespace lakeqa::tools::spec
