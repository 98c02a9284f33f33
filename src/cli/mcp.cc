// `lakeqa mcp --index <dir> --lake <uri>`: MCP over stdio (one JSON-RPC message per line), for MCP
// clients that start a server as a subprocess (Claude Code, the MCP SDKs). Logs go to stderr only.
#include <iostream>
#include <thread>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
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
  // Clients stop a stdio server with SIGTERM (or the user with Ctrl-C) while it blocks reading stdin, so
  // the signal is taken by a thread of its own that removes the temporary sessions folder and exits.
  // SIGUSR1 only tells that thread to end after a normal end of input. Blocked before any thread starts.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto env = OpenToolEnv(o.env);
  if (!env.ok()) return Fail(env.status(), o.out);
  const std::string owned_dir = (*env)->owned_dir;
  std::thread on_signal([&set, owned_dir] {
    int sig = 0;
    sigwait(&set, &sig);
    if (sig == SIGUSR1) return;
    if (!owned_dir.empty()) (void)RemoveAll(owned_dir);
    ::_exit(0);
  });
  std::ios::sync_with_stdio(false);
  Status st = server::RunMcpStdio(*(*env)->sessions, std::cin, std::cout, o.env.input);
  pthread_kill(on_signal.native_handle(), SIGUSR1);
  on_signal.join();
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
