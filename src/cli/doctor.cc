// `lakeqa doctor [--json]`: which sandbox protections this machine provides (docs/sandbox.md): what
// enforces each one here, and for each that is weaker than it could be, why and what lakeqa does instead.
#include <fmt/format.h>

#include "lakeqa/exec/sandbox.h"

#include "cli/command.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  OutputOptions out;
};

int Run(const Opts& o) {
  std::vector<exec::Protection> ps = exec::CheckProtections();
  if (o.out.json) {
    Json a = Json::array();
    for (const auto& p : ps) a.push_back(p.ToJson());
    PrintJson({{"protections", a}});
    return 0;
  }
  for (const auto& p : ps) {
    fmt::print("{:<9} {}\n          {}\n", "[" + p.state + "]", p.name, p.mechanism);
    if (!p.detail.empty()) fmt::print("          {}\n", p.detail);
  }
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto opts = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("doctor", "Show which sandbox protections this machine provides");
  AddOutputOptions(cmd, opts->out);
  commands.Bind(cmd, [opts] { return Run(*opts); });
});

}  // namespace
}  // namespace lakeqa::cli
