// The start-and-wait loop that `lakeqa serve` and `lakeqa ui` share.
#pragma once

#include <functional>

#include "lakeqa/common/status.h"
#include "lakeqa/server/server.h"

namespace lakeqa::cli {

// Blocks SIGINT/SIGTERM/SIGHUP (so no thread of the server takes them), starts `http`, calls `announce`
// once it listens, then waits for one of them and stops the server cleanly (running calls are cancelled;
// the caller's normal exit removes the temporary folders). Returns the start error, or OK after the signal.
Status ServeUntilSignal(server::HttpServer& http, const std::function<void()>& announce);

}  // namespace lakeqa::cli
