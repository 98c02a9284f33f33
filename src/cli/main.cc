// lakeqa's entry point: builds the verb tree from the registered verbs, parses, runs one handler.
#include <cstdio>
#include <exception>

#include "cli/command.h"
#include "lakeqa/common/cleanup.h"
#include "lakeqa/common/log.h"

int main(int argc, char** argv) {
  lakeqa::InitLogging();
  // SIGINT/SIGTERM remove temporary folders (sandboxes, the Python shim) before the process dies.
  lakeqa::InstallSignalCleanup();
  CLI::App app{"lakeqa: exploratory question answering over data lakes", "lakeqa"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "lakeqa 0.1.0");
  std::string log_level;
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error|off (or LAKEQA_LOG)");
  lakeqa::cli::Commands commands;
  for (auto setup : lakeqa::cli::Registration::All()) setup(app, commands);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 returns 0 for --help/--version and 106 etc. for usage errors; usage errors exit 2.
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (!log_level.empty()) lakeqa::SetLogLevel(lakeqa::ParseLogLevel(log_level, lakeqa::LogLevel::kWarn));
  const lakeqa::cli::Handler* handler = commands.Parsed(app);
  if (handler == nullptr) {
    std::fprintf(stderr, "%s", app.help().c_str());
    return 2;
  }
  try {
    return (*handler)();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lakeqa: internal error: %s\n", e.what());
    return 1;
  }
}
