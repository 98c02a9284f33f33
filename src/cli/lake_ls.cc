// `lakeqa lake ls <uri> [--prefix P] [--delimiter /] [--limit N]`: list a lake, S3-style.
#include <fmt/format.h>

#include "cli/store_options.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string uri, prefix, delimiter;
  uint64_t limit = 1000;
  StoreFlags store;
  OutputOptions out;
};

int Run(const Opts& o) {
  auto store = OpenFromFlags(o.uri, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  if (o.delimiter.size() > 1) return Fail(InvalidArgument("--delimiter must be one character"), o.out);
  lake::ListOptions lo;
  lo.prefix = o.prefix;
  if (!o.delimiter.empty()) lo.delimiter = o.delimiter[0];
  Json objects = Json::array(), prefixes = Json::array();
  uint64_t n = 0;
  bool truncated = false;
  for (;;) {
    lo.max_keys = static_cast<uint32_t>(std::min<uint64_t>(1000, o.limit - n));
    auto page = (*store)->List(lo);
    if (!page.ok()) return Fail(page.status(), o.out);
    for (const auto& p : page->common_prefixes) {
      if (o.out.json) prefixes.push_back(p);
      else fmt::print("{:>12}  {}\n", "PRE", p);
      ++n;
    }
    for (const auto& obj : page->objects) {
      if (o.out.json) {
        objects.push_back({{"key", obj.key}, {"size", obj.size}, {"etag", obj.etag}, {"mtime_ms", obj.mtime_ms}});
      } else {
        fmt::print("{:>12}  {}\n", obj.size, obj.key);
      }
      ++n;
    }
    if (page->next_continuation_token.empty()) break;
    if (n >= o.limit) {
      truncated = true;
      break;
    }
    lo.continuation_token = page->next_continuation_token;
  }
  if (o.out.json) {
    PrintJson({{"lake", (*store)->Uri()}, {"prefix", o.prefix}, {"common_prefixes", prefixes},
               {"objects", objects}, {"truncated", truncated}});
  } else if (truncated) {
    fmt::print(stderr, "(stopped at --limit {})\n", o.limit);
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "lake", "Lakes: list, read, synthesise, build")
                      ->add_subcommand("ls", "List objects (and folders with --delimiter)");
  cmd->add_option("uri", o->uri, "Lake root: a path, file:///path or s3://bucket[/prefix]")->required();
  cmd->add_option("--prefix", o->prefix, "Only keys starting with this");
  cmd->add_option("--delimiter", o->delimiter, "Roll keys up into folders at this character (e.g. /)");
  cmd->add_option("--limit", o->limit, "Stop after this many entries")->capture_default_str();
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
