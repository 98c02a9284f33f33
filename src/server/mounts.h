// Serving mounted routes (mount.h) from lakeqa's own HTTP core; private to src/server.
#pragma once

#include <string>
#include <vector>

#include "lakeqa/server/mount.h"
#include "server/http_core.h"

namespace lakeqa::server {

// Serves `req` with the first mount whose prefix matches its path; false when none matches (the caller
// answers 404). Mounts are tried after /v1 and /mcp, so they can never shadow the tool API.
bool ServeMount(const std::vector<Mount>& mounts, const HttpRequest& req, HttpResponse& res);
// Whether `path` belongs to a mount that is served without the bearer token.
bool IsPublicMountPath(const std::vector<Mount>& mounts, const std::string& path);

}  // namespace lakeqa::server
