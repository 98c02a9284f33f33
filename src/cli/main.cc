// lakeqa's entry point: builds the verb tree from the registered verbs, parses, runs one handler.
#include <cstdio>
#include <exception>

#include "cli/benchmarks.h"
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
  lakeqa::cli::RegisterBenchmarks();  // before the verbs: their help names the registered source kinds
  lakeqa::cli::Commands commands;
  for (auto setup : lakeqa::cli::Registration::All()) setup(app, commands);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" that exit 0; every other one is a usage error, exit 2.
    if (e.get_exit_code() == 0) return app.exit(e);
    // Under --json the caller parses stdout, so a usage error is the same {"error": ...} object as any
    // other failure (docs/cli.md); without it, CLI11's text and a pointer to --help go to stderr.
    if (lakeqa::cli::WantsJson(argc, argv)) {
      lakeqa::cli::PrintJson(
          lakeqa::ErrorJson(lakeqa::InvalidArgument(std::string(e.what()) + " (run with --help for usage)")));
      return lakeqa::ExitCodeFor(lakeqa::ErrorCode::kInvalidArgument);
    }
    app.exit(e);
    return lakeqa::ExitCodeFor(lakeqa::ErrorCode::kInvalidArgument);
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
