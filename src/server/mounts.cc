#include "server/mounts.h"
#include "lakeqa/common/hex.h"
#include "lakeqa/common/strings.h"

#include <cctype>
#include <string_view>

namespace lakeqa::server {
namespace {

bool EqualsFolded(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ToLowerAscii(a) == ToLowerAscii(b);
}

// Percent-decoding of a path or a query component ('+' is a space only in a query).
std::string Decode(std::string_view s, bool query) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexDigitValue(s[i + 1]) >= 0 && HexDigitValue(s[i + 2]) >= 0) {
      out += static_cast<char>(HexDigitValue(s[i + 1]) * 16 + HexDigitValue(s[i + 2]));
      i += 2;
    } else if (query && s[i] == '+') {
      out += ' ';
    } else {
      out += s[i];
    }
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

bool ServeMount(const std::vector<Mount>& mounts, const HttpRequest& req, HttpResponse& res) {
  std::string path = Decode(req.path, false);
  for (const Mount& m : mounts) {
    if (!m.Matches(path)) continue;
    MountRequest r;
    r.method = req.method;
    r.path = path;
    std::string_view q = req.query;
    while (!q.empty()) {
      size_t amp = q.find('&');
      std::string_view part = q.substr(0, amp);
      q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
      if (part.empty()) continue;
      size_t eq = part.find('=');
      r.params.emplace_back(Decode(part.substr(0, eq), true),
                            eq == std::string_view::npos ? "" : Decode(part.substr(eq + 1), true));
    }
    r.headers = req.headers;  // names already lower-cased by the core
    r.body = req.body;
    r.peer = req.peer;
    MountResponse out;
    m.handler(r, out);
    res.status = out.status;
    for (auto& [k, v] : out.headers) res.SetHeader(k, v);
    res.SetHeader("Content-Type", out.content_type);
    res.body = std::move(out.body);
    return true;
  }
  return false;
}

}  // namespace lakeqa::server
