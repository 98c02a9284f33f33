// `lakeqa lake profile <uri> <key> [--head]`: profile one object (format, columns, types, rows, samples).
#include <fmt/format.h>

#include "cli/store_options.h"
#include "lakeqa/ingest/profile.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string uri, key;
  bool head = false;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto store = OpenFromFlags(o.uri, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  ingest::ProfileOptions po;
  if (o.head) po.max_bytes = 64 * 1024;
  auto p = ingest::ProfileObject(**store, o.key, po);
  if (!p.ok()) return Fail(p.status(), o.out);
  if (o.out.json) {
    PrintJson(p->ToJson());
    return 0;
  }
  fmt::print("{}: {} ({}), {}{} rows, {} bytes read\n", o.key, ingest::FormatName(p->format), p->encoding,
             p->rows, p->rows_exact ? "" : "+", p->bytes_read);
  for (const auto& c : p->columns) {
    fmt::print(
        "  {:<32} {:<9} {:>10} non-empty  e.g. {}\n", c.name, c.type, c.non_empty,
        fmt::join(c.samples.begin(), c.samples.begin() + std::min<size_t>(3, c.samples.size()), " | "));
  }
  for (const auto& w : p->warnings) fmt::print("  warning: {}\n", w);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd =
      Commands::Group(root, "lake", "Lakes: list, read, synthesise, build")
          ->add_subcommand("profile", "Profile one object: format, columns, types, rows, samples");
  cmd->add_option("uri", o->uri, "Lake root")->required();
  cmd->add_option("key", o->key, "Object key")->required();
  cmd->add_flag("--head", o->head, "Read only the first 64 KB");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
