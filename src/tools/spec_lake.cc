// The specs of the tools that read the lake and its index (tool_lake.cc): search, search_keyword,
// list_files, download, inspect_file.
#include "tools/internal.h"
#include "tools/spec_internal.h"

namespace lakeqa::tools::spec {
namespace {

Json SearchOutput() {
  return Obj({{"results", ArrayOf(Obj({{"dataset_id", T("string")},
                                       {"namespace", T("string")},
                                       {"id", T("string")},
                                       {"title", T("string")}}))},
              {"count", T("integer")}});
}

ToolSpec Search() {
  ToolSpec t;
  t.name = "search";
  t.description =
      "Find datasets whose id starts with a prefix, in every namespace in alphabetical order (datagov "
      "before wikipedia). Returns dataset ids (without the namespace folder), their namespace and title; "
      "truncated: true when the limit left out more. An id found in two namespaces must be passed to the "
      "other tools as <namespace>/<id>.";
  t.input_schema = InputSchema(
      {{"prefixes",
        StringArray("Id prefixes, each at least 2 characters. Example: [\"Barack\", \"census\"]")},
       {"limit", IntArg("Maximum results per namespace per prefix (default 50)", 50, 1)}},
      {"prefixes"});
  t.aliases = {{"prefix", "prefixes"}};
  t.handler = &ToolSet::Impl::Search;
  t.mcp = {"Find datasets by id prefix", true, false, true};
  t.output_schema = SearchOutput();
  t.paper = PaperSchema{
      "Find datasets by name prefixes. Returns dataset identifiers (not data). Search multiple prefixes at "
      "once.",
      InputSchema(
          {{"prefixes", StringArray("List of prefixes to search for (e.g., ['austin-police', 'climate', "
                                    "'weather'])")}},
          {"prefixes"})};
  t.prompt_line = "search(prefixes) → datasets whose id starts with a prefix, each id once";
  return t;
}

ToolSpec SearchKeyword() {
  ToolSpec t;
  t.name = "search_keyword";
  t.description =
      "Ranked keyword search over dataset titles, descriptions, tags, columns and content. Use short "
      "tag-style keywords. Returns dataset ids with what tells them apart: full title, description, "
      "first columns, row count, years and months covered, which keywords matched in which field, "
      "near-duplicate copies and how they differ. A small limit may miss relevant datasets.";
  t.input_schema =
      InputSchema({{"keywords", StringArray("Short keywords. Example: [\"police\", \"traffic stops\"]")},
                   {"limit", IntArg("Maximum results (default 20)", 20, 1)},
                   {"facet_limit", IntArg("Values listed per facet (default 10)", 10, 1)},
                   {"collapse",
                    {{"type", "boolean"},
                     {"description", "One result per group of near-duplicate datasets (default false)"},
                     {"default", false}}}},
                  {"keywords"});
  t.aliases = {{"keyword", "keywords"}};
  t.handler = &ToolSet::Impl::SearchKeyword;
  t.mcp = {"Ranked keyword search over datasets", true, false, true};
  t.output_schema = SearchOutput();
  t.paper = PaperSchema{
      "Semantic keyword search across datasets. Search multiple keywords at once. Returns ranked dataset "
      "identifiers.",
      InputSchema(
          {{"keywords", StringArray("List of keywords to search for (e.g., ['police', 'crime', 'traffic'])")},
           {"limit",
            {{"type", "integer"}, {"description", "Max results to return (default 20)"}, {"default", 20}}}},
          {"keywords"})};
  t.prompt_line =
      "search_keyword(keywords) → ranked datasets, one line each: id | title | rows | years | first columns "
      "| "
      "score";
  return t;
}

ToolSpec ListFiles() {
  ToolSpec t;
  t.name = "list_files";
  t.description =
      "List the files of one or more datasets: relative paths and sizes, per dataset in by_dataset (an "
      "unknown id is an error entry there, the others are still listed); truncated: true when the "
      "limit left out more files.";
  t.input_schema =
      InputSchema({{"dataset_ids", StringArray("Dataset ids from search (\"<id>\" or \"<namespace>/<id>\")")},
                   {"limit", IntArg("Maximum files per dataset (default 100)", 100, 1)}},
                  {"dataset_ids"});
  t.aliases = {{"dataset_id", "dataset_ids"}};
  t.handler = &ToolSet::Impl::ListFiles;
  t.mcp = {"List a dataset's files", true, false, true};
  t.output_schema = Obj(
      {{"files", ArrayOf(Obj({{"path", T("string")}, {"size", T("integer")}, {"dataset_id", T("string")}}))},
       {"count", T("integer")},
       {"dataset_ids", Strings()},
       {"truncated", T("boolean")}});
  t.paper = PaperSchema{
      "List files within datasets. Use dataset_ids from search results. List multiple datasets at once.",
      InputSchema({{"dataset_ids",
                    StringArray("List of dataset identifiers from search results (e.g., ['Barack_Obama', "
                                "'climate-data'])")}},
                  {"dataset_ids"})};
  t.prompt_line = "list_files(dataset_ids) → the files of datasets, with sizes";
  return t;
}

ToolSpec Download() {
  ToolSpec t;
  t.name = "download";
  t.description =
      "Download up to 5 files into the sandbox, at <namespace>/<dataset_id>/<file_path> relative to the "
      "sandbox directory, for query and execute_code. When the id is in one namespace only, "
      "<dataset_id>/<file_path> opens the same file too (a read-only alias, alias_path; the LakeQA "
      "harness's layout). A file that fails is listed in errors; the others are downloaded.";
  t.input_schema = InputSchema(
      {{"files",
        {{"type", "array"},
         {"maxItems", 5},
         {"minItems", 1},
         {"description", "Files to download (at most 5)"},
         {"items", FileRef("Dataset id", "Path in the dataset (from list_files); leading '/' ignored")}}}},
      {"files"});
  // One file as two arguments, the harness's download(dataset_id, file_path).
  t.aliases = {{"dataset_id", "files"}, {"file_path", "files"}};
  t.needs_sandbox = true;
  t.handler = &ToolSet::Impl::Download;
  t.mcp = {"Download lake files into the sandbox", false, false, true};
  t.output_schema = Obj({{"downloaded", ArrayOf(T("object"))},
                         {"download_count", T("integer")},
                         {"errors", ArrayOf(T("object"))}});
  t.paper = PaperSchema{
      "Download files from datasets to the local sandbox for analysis. Max 5 files per call.",
      InputSchema(
          {{"files",
            {{"type", "array"},
             {"items", FileRef("Dataset identifier", "Path to file within the dataset")},
             {"description", "List of files to download (max 5). Each with dataset_id and file_path."},
             {"maxItems", 5}}}},
          {"files"})};
  t.prompt_line = "download(files) → up to 5 files per call into the sandbox";
  return t;
}

ToolSpec InspectFile() {
  ToolSpec t;
  t.name = "inspect_file";
  t.description =
      "Profile the first 64 KB of a lake file without downloading it: size, detected format, delimiter, "
      "header columns, geometry types, row count, column types with samples, JSON keys, and a short line "
      "preview (in that order); a plain-text file's first 3,000 bytes (text_preview); a workbook's sheets "
      "with their row counts and first rows.";
  t.input_schema = InputSchema(
      {{"dataset_id", Prop("string", "Dataset id")},
       {"file_path", Prop("string", "Path relative to the dataset; a leading '/' is ignored")},
       {"max_lines", IntArg("Preview lines (default 5; 0 means 5, more than 50 means 50)", 5, 0)}},
      {"dataset_id", "file_path"});
  t.handler = &ToolSet::Impl::InspectFile;
  t.mcp = {"Profile the start of a lake file", true, false, true};
  t.output_schema = Obj({{"dataset_id", T("string")},
                         {"file_path", T("string")},
                         {"size_bytes", T("integer")},
                         {"format", T("string")},
                         {"header_columns", Strings()}});
  t.paper = PaperSchema{"Inspect a file to see its structure, columns, and sample data without downloading.",
                        FileRef("Dataset identifier", "Path to file within the dataset")};
  t.prompt_line =
      "inspect_file(dataset_id, file_path) → format, columns with types and samples, a text file's first KB, "
      "a "
      "workbook's sheets and header rows, without downloading";
  return t;
}

}  // namespace

void AddLakeSpecs(std::vector<ToolSpec>& out) {
  out.push_back(Search());
  out.push_back(SearchKeyword());
  out.push_back(ListFiles());
  out.push_back(Download());
  out.push_back(InspectFile());
}

}  // namespace lakeqa::tools::spec
