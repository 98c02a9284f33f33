#include "cli/http_flags.h"

#include <cstdio>

namespace lakeqa::cli {

void AddHttpFlags(CLI::App* cmd, HttpFlags& f) {
  cmd->add_option("--listen", f.listen, "host:port (port 0 picks one); non-loopback hosts need a token")
      ->capture_default_str();
  cmd->add_option("--token-file", f.token_file,
                  "File holding the bearer token every request must send (mode 600); else LAKEQA_TOKEN");
  cmd->add_option("--token", f.token,
                  "Bearer token on the command line (visible in ps: prefer --token-file)");
  cmd->add_option("--threads", f.http.workers, "Requests handled at once (slow clients never hold one)")
      ->capture_default_str();
  cmd->add_option("--allowed-host", f.allowed_hosts,
                  "Host header value accepted besides loopback names and the listen host (repeatable)");
  cmd->add_option("--allowed-origin", f.allowed_origins,
                  "Origin (scheme://host[:port]) accepted besides loopback ones, with CORS (repeatable)");
  cmd->add_option("--header-timeout-ms", f.http.header_timeout_ms, "Time a client has to send a request head")
      ->capture_default_str();
  cmd->add_option("--body-timeout-ms", f.http.body_timeout_ms, "Time a client has to send a request body")
      ->capture_default_str();
  cmd->add_option("--max-connections", f.http.max_connections, "Open connections in all")
      ->capture_default_str();
  cmd->add_option("--max-connections-per-client", f.http.max_connections_per_client,
                  "Open connections per client address")
      ->capture_default_str();
}

Result<server::ServerOptions> ServerOptionsFromFlags(const HttpFlags& f, const ToolEnvFlags& env,
                                                     std::string* host) {
  std::string token = f.token;
  if (!token.empty()) {
    std::fprintf(
        stderr,
        "lakeqa: warning: --token is visible to every user of this machine (ps); use --token-file or "
        "LAKEQA_TOKEN\n");
  } else {
    LAKEQA_ASSIGN_OR_RETURN(token, server::LoadToken(f.token_file));
  }
  LAKEQA_RETURN_IF_ERROR(server::CheckListen(f.listen, token, host, nullptr));
  server::ServerOptions so;
  so.listen = f.listen;
  so.token = token;
  so.http = f.http;
  so.http.max_body_bytes = env.input.json.max_bytes;
  so.input = env.input;
  so.allowed_hosts = f.allowed_hosts;
  so.allowed_origins = f.allowed_origins;
  return so;
}

}  // namespace lakeqa::cli
