// `lakeqa index docs --index <dir> [--id <dataset id>...]`: the text index's stored documents, one JSON
// object per line ({"id", "fields": {name: [values]}}): what search sees of each dataset, for debugging a
// ranking and for feeding the same documents to other engines (bench/relevance_engines.py).
#include <fmt/format.h>

#include <set>

#include "cli/command.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/index/retriever.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index;
  std::vector<std::string> ids;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto reader = index::IndexReader::Open(catalog::IndexDir(o.index).Text());
  if (!reader.ok()) return Fail(reader.status(), o.out);
  std::set<std::string> want(o.ids.begin(), o.ids.end());
  size_t found = 0;
  Status s = index::ForEachStoredDocument(**reader, [&](const index::Hit& doc) {
    if (!want.empty() && !want.count(doc.id)) return Status::Ok();
    ++found;
    Json fields = Json::object();
    for (const auto& [name, value] : doc.fields) fields[name].push_back(value);
    fmt::print("{}\n", DumpJson({{"id", doc.id}, {"fields", fields}}));
    return Status::Ok();
  });
  if (!s.ok()) return Fail(s, o.out);
  if (!want.empty() && found < want.size())
    return Fail(NotFound(std::to_string(want.size() - found) + " of the --id datasets are not in " +
                         catalog::IndexDir(o.index).Text()),
                o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "index", "Build the catalog and indexes of a lake")
                      ->add_subcommand("docs", "Print the text index's stored documents (JSON lines)");
  cmd->add_option("--index", o->index, "Index directory (from `lakeqa index build`)")->required();
  cmd->add_option("--id", o->ids, "Only these dataset ids (\"<namespace>/<dataset_id>\"; repeatable)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
