// The tool specs: one per tool, every table derived from them (no second list to drift).
#include "lakeqa/tools/tool_spec.h"

#include <set>

#include <gtest/gtest.h>

#include "lakeqa/tools/tools.h"

namespace lakeqa::tools {
namespace {

std::set<std::string> Keys(const Json& object) {
  std::set<std::string> out;
  for (const auto& [k, v] : object.items()) out.insert(k);
  return out;
}

// What Call accepts is the schema's properties plus the harness's singular forms, each standing for a
// property of the schema; nothing is accepted that the schema does not account for.
TEST(ToolSpec, AllowedArgumentsAreTheSchemasProperties) {
  for (const ToolSpec& spec : ToolSpecs()) {
    SCOPED_TRACE(spec.name);
    std::set<std::string> properties = Keys(spec.input_schema.at("properties"));
    std::set<std::string> expected = properties;
    for (const auto& [alias, property] : spec.aliases) {
      EXPECT_EQ(properties.count(alias), 0u) << alias << " is a property, not an alias";
      EXPECT_EQ(properties.count(property), 1u)
          << alias << " stands for " << property << ", not in the schema";
      expected.insert(alias);
    }
    EXPECT_EQ(spec.AllowedArgs(), expected);
    for (const auto& r : spec.input_schema.at("required"))
      EXPECT_EQ(properties.count(r.get<std::string>()), 1u) << "required " << r << " is not a property";
  }
}

TEST(ToolSpec, EveryToolHasAHandlerAnnotationsAnOutputSchemaAndAPromptLine) {
  std::set<std::string> names;
  for (const ToolSpec& spec : ToolSpecs()) {
    SCOPED_TRACE(spec.name);
    EXPECT_TRUE(names.insert(spec.name).second) << "two specs named " << spec.name;
    EXPECT_TRUE(spec.handler != nullptr);
    EXPECT_FALSE(spec.description.empty());
    EXPECT_FALSE(spec.mcp.title.empty());
    // A tool that only reads is never destructive.
    EXPECT_FALSE(spec.mcp.read_only && spec.mcp.destructive);
    EXPECT_EQ(spec.output_schema.at("type"), "object");
    EXPECT_FALSE(spec.output_schema.at("properties").empty());
    EXPECT_EQ(spec.prompt_line.rfind(spec.name + "(", 0), 0u) << spec.prompt_line;
    EXPECT_EQ(FindToolSpec(spec.name), &spec);
    EXPECT_TRUE(ToolSet::Known(spec.name));
  }
  EXPECT_EQ(FindToolSpec("nonesuch"), nullptr);
  EXPECT_FALSE(ToolSet::Known("nonesuch"));
}

// The listed schemas are the specs' listings, in the specs' order; `view` is offered where Call takes it.
TEST(ToolSpec, ListedSchemasComeFromTheSpecs) {
  const Json& listed = ToolSet::Schemas();
  ASSERT_EQ(listed.size(), ToolSpecs().size());
  for (size_t i = 0; i < listed.size(); ++i) {
    const ToolSpec& spec = ToolSpecs()[i];
    EXPECT_EQ(listed[i], spec.Listed());
    EXPECT_EQ(listed[i]["name"], spec.name);
    EXPECT_EQ(listed[i]["inputSchema"]["properties"].contains("view"), spec.compact_view) << spec.name;
    EXPECT_EQ(spec.AllowedArgs().count("view"), 0u) << spec.name << ": view is the caller's, not the tool's";
  }
}

// A model that follows the paper's schema sends arguments the tool accepts.
TEST(ToolSpec, PaperSchemasAskOnlyForAcceptedArguments) {
  std::vector<std::string> paper;
  for (const ToolSpec& spec : ToolSpecs()) {
    if (!spec.paper) continue;
    paper.push_back(spec.name);
    SCOPED_TRACE(spec.name);
    EXPECT_FALSE(spec.paper->description.empty());
    std::set<std::string> allowed = spec.AllowedArgs();
    for (const auto& p : Keys(spec.paper->parameters.at("properties")))
      EXPECT_EQ(allowed.count(p), 1u) << "the paper's argument " << p << " is refused";
  }
  EXPECT_EQ(paper, (std::vector<std::string>{"search", "search_keyword", "list_files", "download",
                                             "inspect_file", "execute_code", "submit_answer"}));
}

}  // namespace
}  // namespace lakeqa::tools
