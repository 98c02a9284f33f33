// The table of tool specs and what is derived from a spec (allowed arguments, the listed schema).
#include "lakeqa/tools/tool_spec.h"

#include "tools/spec_internal.h"

namespace lakeqa::tools {
namespace spec {

Json Prop(const char* type, const char* description) {
  return {{"type", type}, {"description", description}};
}
Json StringArray(const char* description) {
  return {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", description}};
}
Json InputSchema(Json properties, const std::vector<std::string>& required) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}};
  schema["required"] = required;
  return schema;
}
Json IntArg(const char* description, int default_value, int minimum) {
  return {
      {"type", "integer"}, {"description", description}, {"default", default_value}, {"minimum", minimum}};
}
Json FileRef(const char* dataset_description, const char* path_description) {
  return InputSchema(
      {{"dataset_id", Prop("string", dataset_description)}, {"file_path", Prop("string", path_description)}},
      {"dataset_id", "file_path"});
}
Json Obj(Json properties) { return {{"type", "object"}, {"properties", std::move(properties)}}; }
Json T(const char* type) { return {{"type", type}}; }
Json ArrayOf(Json item) { return {{"type", "array"}, {"items", std::move(item)}}; }
Json Strings() { return ArrayOf(T("string")); }

}  // namespace spec

namespace {

std::vector<ToolSpec> BuildSpecs() {
  std::vector<ToolSpec> specs;
  spec::AddLakeSpecs(specs);
  spec::AddSandboxSpecs(specs);
  spec::AddGraphSpecs(specs);
  return specs;
}

}  // namespace

std::set<std::string> ToolSpec::AllowedArgs() const {
  std::set<std::string> out;
  if (auto it = input_schema.find("properties"); it != input_schema.end() && it->is_object()) {
    for (const auto& [k, v] : it->items()) out.insert(k);
  }
  for (const auto& [alias, property] : aliases) out.insert(alias);
  return out;
}

Json ToolSpec::Listed() const {
  Json schema = input_schema;
  if (compact_view) {
    schema["properties"]["view"] = {
        {"type", "string"},
        {"enum", {"full", "compact"}},
        {"default", "full"},
        {"description",
         "full (default): every field. compact: what a model needs inside a 2,500-character window (one "
         "line per search hit, each id once; no lists that bury the end of an output)"}};
  }
  return {{"name", name}, {"description", description}, {"inputSchema", std::move(schema)}};
}

const std::vector<ToolSpec>& ToolSpecs() {
  static const std::vector<ToolSpec> specs = BuildSpecs();
  return specs;
}

const ToolSpec* FindToolSpec(std::string_view name) {
  for (const ToolSpec& s : ToolSpecs())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace lakeqa::tools
