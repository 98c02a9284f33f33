// `lakeqa serve --index <dir> --lake <uri> [--listen 127.0.0.1:8080] [--token-file F]`: the HTTP JSON API
// (docs/api.md) and MCP over streamable HTTP at /mcp.
#include <cstdio>
#include <cstdlib>

#include "lakeqa/server/server.h"

#include "cli/command.h"
#include "cli/serve_until_signal.h"
#include "cli/tool_env_flags.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  ToolEnvFlags env;
  std::string listen = "127.0.0.1:8080", token, token_file;
  server::HttpLimits http;
  std::vector<std::string> allowed_hosts, allowed_origins;
  OutputOptions out;
};

int Serve(const Opts& o) {
  std::string token = o.token;
  if (!token.empty()) {
    std::fprintf(stderr,
                 "lakeqa: warning: --token is visible to every user of this machine (ps); use --token-file or "
                 "LAKEQA_TOKEN\n");
  } else {
    auto t = server::LoadToken(o.token_file);
    if (!t.ok()) return Fail(t.status(), o.out);
    token = *t;
  }
  // Refuse a public bind before opening anything.
  Status st = server::CheckListen(o.listen, token, nullptr, nullptr);
  if (!st.ok()) return Fail(st, o.out);
  auto env = OpenToolEnv(o.env);
  if (!env.ok()) return Fail(env.status(), o.out);
  server::ServerOptions so;
  so.listen = o.listen;
  so.token = token;
  so.http = o.http;
  so.http.max_body_bytes = o.env.input.json.max_bytes;
  so.input = o.env.input;
  so.allowed_hosts = o.allowed_hosts;
  so.allowed_origins = o.allowed_origins;
  server::HttpServer http(*(*env)->sessions, so);
  std::string host = o.listen.substr(0, o.listen.rfind(':'));
  st = ServeUntilSignal(http, [&] {
    std::fprintf(stderr, "lakeqa: serving http://%s:%d (API /v1, MCP /mcp)\n", host.c_str(), http.port());
    if (o.out.json) {
      PrintJson({{"listening", host + ":" + std::to_string(http.port())}, {"port", http.port()}});
      std::fflush(stdout);
    }
  });
  if (!st.ok()) return Fail(st, o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = root.add_subcommand("serve", "Serve the agent tools over HTTP (JSON API and MCP at /mcp)");
  AddToolEnvFlags(cmd, o->env, "Where session sandboxes and traces go (default: a temporary folder)");
  cmd->add_option("--listen", o->listen, "host:port (port 0 picks one); non-loopback hosts need a token")
      ->capture_default_str();
  cmd->add_option("--token-file", o->token_file,
                  "File holding the bearer token every request must send (mode 600); else LAKEQA_TOKEN");
  cmd->add_option("--token", o->token, "Bearer token on the command line (visible in ps: prefer --token-file)");
  cmd->add_option("--threads", o->http.workers, "Requests handled at once (slow clients never hold one)")
      ->capture_default_str();
  cmd->add_option("--allowed-host", o->allowed_hosts,
                  "Host header value accepted besides loopback names and the listen host (repeatable)");
  cmd->add_option("--allowed-origin", o->allowed_origins,
                  "Origin (scheme://host[:port]) accepted besides loopback ones, with CORS (repeatable)");
  cmd->add_option("--header-timeout-ms", o->http.header_timeout_ms, "Time a client has to send a request head")
      ->capture_default_str();
  cmd->add_option("--body-timeout-ms", o->http.body_timeout_ms, "Time a client has to send a request body")
      ->capture_default_str();
  cmd->add_option("--max-connections", o->http.max_connections, "Open connections in all")->capture_default_str();
  cmd->add_option("--max-connections-per-client", o->http.max_connections_per_client,
                  "Open connections per client address")
      ->capture_default_str();
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Serve(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
