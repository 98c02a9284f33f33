// `lakeqa lake cat <uri> <key> [--range A-B]`: stream an object (or a byte range) to stdout.
#include <cstdio>

#include "cli/store_options.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string uri, key, range;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto store = OpenFromFlags(o.uri, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  uint64_t start = 0, end = 0;
  if (!o.range.empty()) {
    if (std::sscanf(o.range.c_str(), "%lu-%lu", &start, &end) != 2 || end < start) {
      return Fail(InvalidArgument("--range must be A-B with A <= B (inclusive byte offsets): " + o.range), o.out);
    }
    auto data = (*store)->ReadRange(o.key, start, end - start + 1);
    if (!data.ok()) return Fail(data.status(), o.out);
    std::fwrite(data->data(), 1, data->size(), stdout);
    return 0;
  }
  Status s = (*store)->ReadStream(o.key, [](std::string_view chunk) {
    return std::fwrite(chunk.data(), 1, chunk.size(), stdout) == chunk.size();
  });
  if (!s.ok()) return Fail(s, o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "lake", "Lakes: list, read, synthesise, build")
                      ->add_subcommand("cat", "Write an object to stdout");
  cmd->add_option("uri", o->uri, "Lake root")->required();
  cmd->add_option("key", o->key, "Object key, e.g. datagov/<id>/files/rows.txt")->required();
  cmd->add_option("--range", o->range, "Inclusive byte range A-B");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
