// Binding mounted routes (mount.h) to cpp-httplib; private to src/server.
#pragma once

#include <string>
#include <vector>

#include <httplib.h>

#include "lakeqa/server/mount.h"

namespace lakeqa::server {

// Registers every mount for GET, POST, PUT, PATCH and DELETE, after the routes already registered.
void RegisterMounts(httplib::Server& server, const std::vector<Mount>& mounts);
// Whether `path` belongs to a mount that is served without the bearer token.
bool IsPublicMountPath(const std::vector<Mount>& mounts, const std::string& path);

}  // namespace lakeqa::server
