// The flags `lakeqa serve` and `lakeqa mcp` share: the lake and index the tools serve, where sessions and
// the download cache live, the per-session limits, and the store flags; and opening that environment.
#pragma once

#include <memory>
#include <string>

#include "cli/command.h"
#include "cli/store_options.h"
#include "lakeqa/server/server.h"
#include "lakeqa/tools/session.h"

namespace lakeqa::cli {

struct ToolEnvFlags {
  std::string index, lake, sessions_dir, cache_dir;
  bool force = false;  // serve a lake other than the index's
  StoreFlags store;
  tools::SessionLimits limits;
  uint64_t sql_memory_budget = 0;  // bytes for all sessions' DuckDB statements together; 0 = half the RAM
  server::InputLimits input;
  server::SessionPolicy policy;
};

// `sessions_help` differs per verb: serve keeps sessions in a temporary folder, mcp removes its one at exit.
void AddToolEnvFlags(CLI::App* cmd, ToolEnvFlags& flags, const std::string& sessions_help);
// Opens the lake first (a missing one is not_found; one other than the index's is refused unless --force,
// and then a warning goes to stderr), then the tools over it.
Result<std::unique_ptr<server::Env>> OpenToolEnv(const ToolEnvFlags& flags);

}  // namespace lakeqa::cli
