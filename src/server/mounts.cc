#include "server/mounts.h"

#include <cctype>

namespace lakeqa::server {
namespace {

bool EqualsFolded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

std::string RegexEscape(const std::string& s) {
  static const std::string kSpecial = R"(\^$.|?*+()[]{})";
  std::string out;
  for (char c : s) {
    if (kSpecial.find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string MountRequest::Param(std::string_view name, std::string fallback) const {
  for (const auto& [k, v] : params) {
    if (k == name) return v;
  }
  return fallback;
}

std::string MountRequest::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (EqualsFolded(k, name)) return v;
  }
  return "";
}

bool IsPublicMountPath(const std::vector<Mount>& mounts, const std::string& path) {
  for (const Mount& m : mounts) {
    if (m.Matches(path)) return m.public_paths;
  }
  return false;
}

void RegisterMounts(httplib::Server& server, const std::vector<Mount>& mounts) {
  for (const Mount& m : mounts) {
    std::string pattern = RegexEscape(m.prefix) + (m.exact ? "" : ".*");
    MountHandler handler = m.handler;
    auto adapt = [handler](const httplib::Request& req, httplib::Response& res) {
      MountRequest r;
      r.method = req.method;
      r.path = req.path;
      for (const auto& [k, v] : req.params) r.params.emplace_back(k, v);
      for (const auto& [k, v] : req.headers) {
        std::string lower;
        for (char c : k) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        r.headers.emplace_back(std::move(lower), v);
      }
      r.body = req.body;
      r.peer = req.remote_addr;
      MountResponse out;
      handler(r, out);
      res.status = out.status;
      for (const auto& [k, v] : out.headers) res.set_header(k, v);
      res.set_content(out.body, out.content_type);
    };
    server.Get(pattern, adapt);
    server.Post(pattern, adapt);
    server.Put(pattern, adapt);
    server.Patch(pattern, adapt);
    server.Delete(pattern, adapt);
  }
}

}  // namespace lakeqa::server
