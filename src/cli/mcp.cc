// `lakeqa mcp --index <dir> --lake <uri>`: MCP over stdio (one JSON-RPC message per line), for MCP
// clients that start a server as a subprocess (Claude Code, the MCP SDKs). Logs go to stderr only.
#include <cstdio>
#include <iostream>
#include <thread>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "lakeqa/common/cleanup.h"
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
  // Clients stop a stdio server with SIGTERM (the SDKs do when it has not exited 2 s after they close its
  // stdin), the user with Ctrl-C, a closed terminal with SIGHUP, all while it blocks reading stdin. The
  // signal is taken by a thread of its own that kills running sandboxes, removes every temporary folder
  // (the sessions', the Python shim's) and exits 0. SIGUSR1 only tells that thread to end after a normal
  // end of input. Blocked before any thread starts, so every thread inherits the mask. (A client that
  // closes our stdout raises no SIGPIPE: RunMcpStdio's writes fail instead and the connection ends.)
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto env = OpenToolEnv(o.env);
  if (!env.ok()) return Fail(env.status(), o.out);
  std::thread on_signal([&set] {
    int sig = 0;
    sigwait(&set, &sig);
    if (sig == SIGUSR1) return;
    CleanUpForTermination();
    ::_exit(0);
  });
  std::ios::sync_with_stdio(false);
  Status st = server::RunMcpStdio(*(*env)->sessions, std::cin, std::cout, o.env.input);
  pthread_kill(on_signal.native_handle(), SIGUSR1);
  on_signal.join();
  if (!st.ok()) {
    // Stdout carries the protocol, so the reason the connection ended goes to stderr, --json or not.
    std::fprintf(stderr, "lakeqa: %s\n", st.ToString().c_str());
    return ExitCodeFor(st.code());
  }
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
