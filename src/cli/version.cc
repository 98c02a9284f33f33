// `lakeqa version [--json]`: the build's version and the versions of the libraries it links.
#include <fmt/format.h>
#include <sqlite3.h>

#include "cli/command.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  OutputOptions out;
};

int Run(const Opts& o) {
  Json j = {{"lakeqa", "0.1.0"}, {"sqlite", sqlite3_libversion()}};
  if (o.out.json) {
    PrintJson(j);
  } else {
    fmt::print("lakeqa 0.1.0 (sqlite {})\n", sqlite3_libversion());
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto opts = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("version", "Print version information");
  AddOutputOptions(cmd, opts->out);
  commands.Bind(cmd, [opts] { return Run(*opts); });
});

}  // namespace
}  // namespace lakeqa::cli
