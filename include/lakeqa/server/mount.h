// Routes mounted on the HTTP server beside the tool API (the workbench UI mounts its API and assets here).
// Requests and responses are plain structs, so a mounted handler does not depend on the HTTP library.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lakeqa::server {

struct MountRequest {
  std::string method;                                        // "GET", "POST", ...
  std::string path;                                          // decoded path, without the query string
  std::vector<std::pair<std::string, std::string>> params;   // decoded query parameters, in order
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::string peer;  // the client's address

  // The first value of a query parameter / header (name case-insensitive), or `fallback`.
  std::string Param(std::string_view name, std::string fallback = "") const;
  std::string Header(std::string_view name) const;
};

struct MountResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

using MountHandler = std::function<void(const MountRequest&, MountResponse&)>;

struct Mount {
  std::string prefix;  // "/api/wb/" serves every path below it; with `exact`, only the path itself
  bool exact = false;
  // Served without the bearer token: only for paths that return no data (the UI's static assets).
  bool public_paths = false;
  MountHandler handler;

  bool Matches(std::string_view path) const {
    return exact ? path == prefix : path.substr(0, prefix.size()) == prefix;
  }
};

}  // namespace lakeqa::server
