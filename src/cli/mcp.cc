// `lakeqa mcp --index <dir> --lake <uri>`: MCP over stdio (one JSON-RPC message per line), for MCP
// clients that start a server as a subprocess (Claude Code, the MCP SDKs). Logs go to stderr only.
#include <iostream>

#include "lakeqa/server/server.h"

#include "cli/command.h"
#include "cli/tool_env_flags.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  ToolEnvFlags env;
  OutputOptions out;
};

int Mcp(const Opts& o) {
  auto env = OpenToolEnv(o.env);
  if (!env.ok()) return Fail(env.status(), o.out);
  std::ios::sync_with_stdio(false);
  Status st = server::RunMcpStdio(*(*env)->sessions, std::cin, std::cout, o.env.input);
  if (!st.ok()) return Fail(st, o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("mcp", "Serve the agent tools over MCP on stdin/stdout");
  AddToolEnvFlags(cmd, o->env, "Keep the session's sandbox and trace here (default: removed at exit)");
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Mcp(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
