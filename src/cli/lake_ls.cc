// `lakeqa lake ls <uri> [--prefix P] [--delimiter /] [--limit N] [--continuation-token T]`: list a lake,
// S3-style. A listing cut by --limit ends with a continuation token; passing it back lists the next entries.
#include <fmt/format.h>

#include "cli/store_options.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string uri, prefix, delimiter, continuation_token;
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
  if (o.limit == 0) return Fail(InvalidArgument("--limit must be at least 1"), o.out);
  lo.continuation_token = o.continuation_token;
  Json objects = Json::array(), prefixes = Json::array();
  uint64_t n = 0;
  std::string next_token;  // set when --limit cut the listing short
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
        objects.push_back(
            {{"key", obj.key}, {"size", obj.size}, {"etag", obj.etag}, {"mtime_ms", obj.mtime_ms}});
      } else {
        fmt::print("{:>12}  {}\n", obj.size, obj.key);
      }
      ++n;
    }
    if (page->next_continuation_token.empty()) break;
    if (n >= o.limit) {
      next_token = page->next_continuation_token;
      break;
    }
    lo.continuation_token = page->next_continuation_token;
  }
  if (o.out.json) {
    PrintJson({{"lake", (*store)->Uri()},
               {"prefix", o.prefix},
               {"common_prefixes", prefixes},
               {"objects", objects},
               {"truncated", !next_token.empty()},
               {"continuation_token", next_token.empty() ? Json(nullptr) : Json(next_token)}});
  } else if (!next_token.empty()) {
    fmt::print(stderr, "(stopped at --limit {}; the next entries: --continuation-token {})\n", o.limit,
               next_token);
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
  cmd->add_option("--continuation-token", o->continuation_token,
                  "Start where an earlier listing stopped (the token it printed)");
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
