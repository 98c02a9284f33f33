// `lakeqa serve --index <dir> --lake <uri> [--listen 127.0.0.1:8080] [--token T]`: the HTTP JSON API
// (docs/api.md) and MCP over streamable HTTP at /mcp.
#include <cstdio>
#include <cstdlib>

#include <signal.h>

#include "lakeqa/server/server.h"

#include "cli/command.h"
#include "cli/tool_env_flags.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  ToolEnvFlags env;
  std::string listen = "127.0.0.1:8080", token;
  int threads = 32;
  OutputOptions out;
};

int Serve(const Opts& o) {
  std::string token = o.token;
  if (token.empty()) {
    if (const char* t = std::getenv("LAKEQA_TOKEN")) token = t;
  }
  // Refuse a public bind before opening anything.
  Status st = server::CheckListen(o.listen, token, nullptr, nullptr);
  if (!st.ok()) return Fail(st, o.out);
  auto env = OpenToolEnv(o.env);
  if (!env.ok()) return Fail(env.status(), o.out);
  server::ServerOptions so;
  so.listen = o.listen;
  so.token = token;
  so.threads = o.threads;
  server::HttpServer http(*(*env)->sessions, so);
  // SIGINT/SIGTERM stop the server cleanly (sessions' temporary folders are removed).
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  st = http.Start();
  if (!st.ok()) return Fail(st, o.out);
  std::string host = o.listen.substr(0, o.listen.rfind(':'));
  std::fprintf(stderr, "lakeqa: serving http://%s:%d (API /v1, MCP /mcp)\n", host.c_str(), http.port());
  if (o.out.json) {
    PrintJson({{"listening", host + ":" + std::to_string(http.port())}, {"port", http.port()}});
    std::fflush(stdout);
  }
  int sig = 0;
  sigwait(&set, &sig);
  http.Stop();
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("serve", "Serve the agent tools over HTTP (JSON API and MCP at /mcp)");
  AddToolEnvFlags(cmd, o->env, "Where session sandboxes and traces go (default: a temporary folder)");
  cmd->add_option("--listen", o->listen, "host:port (port 0 picks one); non-loopback hosts need --token")
      ->capture_default_str();
  cmd->add_option("--token", o->token, "Bearer token required on every request (or LAKEQA_TOKEN)");
  cmd->add_option("--threads", o->threads, "Concurrent requests")->capture_default_str();
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Serve(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
