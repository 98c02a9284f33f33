// `lakeqa mcp --index <dir> --lake <uri>`: MCP over stdio (one JSON-RPC message per line), for MCP
// clients that start a server as a subprocess (Claude Code, the MCP SDKs). Logs go to stderr only.
#include <iostream>

#include "lakeqa/server/server.h"

#include "cli/command.h"
#include "cli/store_options.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string index, lake, sessions_dir, cache_dir;
  StoreFlags store;
  tools::SessionLimits limits;
  OutputOptions out;
};

int Mcp(const Opts& o) {
  auto store = OpenFromFlags(o.lake, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  server::EnvOptions eo;
  eo.index_dir = o.index;
  eo.sessions_dir = o.sessions_dir;
  eo.cache_dir = o.cache_dir;
  eo.limits = o.limits;
  auto env = server::OpenEnv(std::move(*store), eo);
  if (!env.ok()) return Fail(env.status(), o.out);
  std::ios::sync_with_stdio(false);
  Status st = server::RunMcpStdio(*(*env)->sessions, std::cin, std::cout);
  if (!st.ok()) return Fail(st, o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("mcp", "Serve the agent tools over MCP on stdin/stdout");
  cmd->add_option("--index", o->index, "Index directory (catalog.sqlite, text/)")->required();
  cmd->add_option("--lake", o->lake, "Lake root: a folder, file:///path or s3://bucket[/prefix]")->required();
  cmd->add_option("--sessions-dir", o->sessions_dir,
                  "Keep the session's sandbox and trace here (default: removed at exit)");
  cmd->add_option("--cache-dir", o->cache_dir, "Shared download cache");
  cmd->add_option("--max-output-chars", o->limits.max_output_chars, "Cap on one tool result")
      ->capture_default_str();
  cmd->add_option("--call-timeout-ms", o->limits.call_timeout_ms,
                  "Wall time of one query/execute_code/download")
      ->capture_default_str();
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Mcp(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
