// The flags `lakeqa serve` and `lakeqa ui` share for the HTTP server itself — where it listens, the token,
// the Host/Origin allow-lists and the connection limits — and turning them into server::ServerOptions, so
// both verbs guard the network the same way (docs/api.md, "Security").
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/tool_env_flags.h"
#include "lakeqa/server/server.h"

namespace lakeqa::cli {

struct HttpFlags {
  std::string listen, token, token_file;
  server::HttpLimits http;
  std::vector<std::string> allowed_hosts, allowed_origins;
};

// `flags.listen` and `flags.http.workers` hold the verb's defaults when this is called.
void AddHttpFlags(CLI::App* cmd, HttpFlags& flags);

// Reads the token (--token, with a warning that ps shows it; else --token-file; else LAKEQA_TOKEN), refuses
// a public bind without one before anything is opened, and fills the options (body limit from the tool
// flags' --max-body-bytes). `host` gets the listen host.
Result<server::ServerOptions> ServerOptionsFromFlags(const HttpFlags& flags, const ToolEnvFlags& env,
                                                     std::string* host);

}  // namespace lakeqa::cli
