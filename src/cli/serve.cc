// `lakeqa serve --index <dir> --lake <uri> [--listen 127.0.0.1:8080] [--token-file F]`: the HTTP JSON API
// (docs/api.md) and MCP over streamable HTTP at /mcp.
#include <cstdio>
#include <cstdlib>

#include "lakeqa/server/server.h"

#include "cli/command.h"
#include "cli/http_flags.h"
#include "cli/serve_until_signal.h"
#include "cli/tool_env_flags.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  ToolEnvFlags env;
  HttpFlags http;
  OutputOptions out;
};

int Serve(const Opts& o) {
  // The token and a public bind are checked before the lake is opened.
  std::string host;
  auto so = ServerOptionsFromFlags(o.http, o.env, &host);
  if (!so.ok()) return Fail(so.status(), o.out);
  auto env = OpenToolEnv(o.env);
  if (!env.ok()) return Fail(env.status(), o.out);
  server::HttpServer http(*(*env)->sessions, *so);
  Status st = ServeUntilSignal(http, [&] {
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
  o->http.listen = "127.0.0.1:8080";
  AddHttpFlags(cmd, o->http);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Serve(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
