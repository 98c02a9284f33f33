// Dispatching /api/ requests to the endpoint groups, the browser-facing checks in front of them, and the
// UI's static files.
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <cctype>

#include "lakeqa/common/strings.h"

#include "workbench/internal.h"

namespace lakeqa::workbench {
namespace {

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  for (auto s : Split(path, '/')) {
    if (!s.empty()) out.push_back(s);
  }
  return out;
}

// "{}" matches one segment; a last "{+}" matches the rest of the path, slashes included (a run's task ids
// may hold "/", which the page sends as %2F and the server has decoded by now).
bool Match(std::string_view pattern, std::string_view path, std::vector<std::string>& args) {
  auto p = Segments(pattern), s = Segments(path);
  bool rest = !p.empty() && p.back() == "{+}";
  if (rest ? s.size() < p.size() : p.size() != s.size()) return false;
  std::vector<std::string> out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == "{+}") {
      std::string tail;
      for (size_t j = i; j < s.size(); ++j) tail += (j > i ? "/" : "") + std::string(s[j]);
      out.push_back(std::move(tail));
    } else if (p[i] == "{}") {
      out.emplace_back(s[i]);
    } else if (p[i] != s[i]) {
      return false;
    }
  }
  args = std::move(out);
  return true;
}

// An id in an API path never has "." or ".." segments: refused by name, so "../" in an id can neither
// reach another route nor read as one.
Status CheckSegments(std::string_view path) {
  for (auto s : Split(path, '/')) {
    if (s == "." || s == "..")
      return InvalidArgument("the path " + std::string(path) + " holds a \"" + std::string(s) +
                             "\" segment: ids in API paths are percent-encoded and never \".\" or \"..\"");
  }
  return Status::Ok();
}

// A user name for the audit log: printable, at most 64 bytes.
Status CheckWho(const std::string& who) {
  if (who.empty())
    return InvalidArgument(
        "\"who\" (your name, for the audit log) is required: set it at the top of the page");
  if (who.size() > 64) return InvalidArgument("\"who\" must be at most 64 bytes");
  for (unsigned char c : who) {
    if (c < 0x20 || c == 0x7f) return InvalidArgument("\"who\" must not contain control characters");
  }
  return Status::Ok();
}

server::MountResponse ToHttp(const ApiReply& r) {
  server::MountResponse out;
  out.status = r.status;
  out.body = DumpJson(r.body);
  out.headers.emplace_back("Cache-Control", "no-store");
  return out;
}

// The page's import map is an inline script: the Content-Security-Policy allows it by its hash, and no other
// inline script.
std::string ImportMapHash(std::string_view html) {
  const std::string open = "<script type=\"importmap\">";
  size_t a = html.find(open);
  size_t b = a == std::string_view::npos ? a : html.find("</script>", a);
  if (b == std::string_view::npos) return "";
  std::string_view body = html.substr(a + open.size(), b - a - open.size());
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(body.data()), body.size(), digest);
  unsigned char b64[64];
  int n = EVP_EncodeBlock(b64, digest, SHA256_DIGEST_LENGTH);
  return "'sha256-" + std::string(reinterpret_cast<char*>(b64), static_cast<size_t>(n)) + "'";
}

server::MountResponse ServeAsset(const server::MountRequest& req) {
  server::MountResponse out;
  if (req.method != "GET" && req.method != "HEAD") {
    out.status = 405;
    out.body =
        DumpJson(ErrorJson(Unsupported(req.method + " " + req.path + ": the UI's files are read-only")));
    return out;
  }
  std::string rel = req.path.substr(std::string_view("/ui/").size());
  if (rel.empty()) rel = "index.html";
  for (const Asset& a : Assets()) {
    if (a.path == rel) {
      out.content_type = std::string(a.content_type);
      out.body = std::string(a.data);
      // The page is small and changes with the binary; the libraries are pinned by version.
      out.headers.emplace_back("Cache-Control", rel.rfind("vendor/", 0) == 0 ? "max-age=86400" : "no-cache");
      out.headers.emplace_back("X-Content-Type-Options", "nosniff");
      if (rel == "index.html") {
        static const std::string hash = ImportMapHash(a.data);
        out.headers.emplace_back(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self' " + hash +
                "; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
                "frame-ancestors 'none'");
      }
      return out;
    }
  }
  out.status = 404;
  std::string hint =
      rel.rfind("vendor/", 0) == 0
          ? " (the front-end libraries are missing from this build: run scripts/setup, then rebuild)"
          : "";
  out.body = DumpJson(ErrorJson(NotFound("no UI file " + req.path + hint)));
  return out;
}

}  // namespace

ApiReply Workbench::Impl::Dispatch(const server::MountRequest& http) {
  // Host, Origin and the token were checked by the HTTP server in front of every mount (the flags of
  // `serve` and `ui` are one set). On top of that every API request carries a header a cross-site form
  // cannot send, so a browser must preflight it, and this server grants no CORS except to --allowed-origin.
  if (http.Header("x-lakeqa-client").empty())
    return ErrorReply(
        Status(ErrorCode::kPermissionDenied,
               "API requests must carry the header X-Lakeqa-Client (the workbench page sends it)"));
  if (Status st = CheckSegments(http.path); !st.ok()) return ErrorReply(st);
  std::vector<std::string> args;
  const Route* route = nullptr;
  bool path_known = false;
  for (const Route& r : routes) {
    std::vector<std::string> a;
    if (!Match(r.pattern, http.path, a)) continue;
    path_known = true;
    if (r.method == http.method) {
      route = &r;
      args = std::move(a);
      break;
    }
  }
  if (!route) {
    if (path_known)
      return {405, ErrorJson(Unsupported(http.method + " is not allowed on " + http.path +
                                         " (docs/ui.md lists the API)"))};
    return ErrorReply(
        NotFound("no API route " + http.method + " " + http.path + " (docs/ui.md lists the API)"));
  }
  Json body = Json::object();
  if (http.body.find_first_not_of(" \t\r\n") != std::string::npos) {
    auto j = ParseJson(http.body, "request body");
    if (!j.ok()) return ErrorReply(j.status());
    if (!j->is_object()) return ErrorReply(InvalidArgument("the request body must be a JSON object"));
    body = std::move(*j);
  }
  std::string who = body.contains("who") && body["who"].is_string() ? body["who"].get<std::string>() : "";
  if (who.empty()) who = http.Header("x-lakeqa-user");
  who = std::string(Trim(who));
  if (route->mutates) {
    if (Status st = CheckWho(who); !st.ok()) return ErrorReply(st);
  }
  ApiRequest req{http, std::move(args), std::move(body), who};
  Result<ApiReply> r = route->handler(*this, req);
  if (!r.ok()) return ErrorReply(r.status());
  return *r;
}

server::MountResponse Workbench::Handle(const server::MountRequest& request) {
  if (request.path.rfind("/api/", 0) == 0) return ToHttp(impl_->Dispatch(request));
  if (request.path.rfind("/ui/", 0) == 0) return ServeAsset(request);
  server::MountResponse out;
  if (request.path == "/" || request.path == "/ui") {
    out.status = 302;
    out.headers.emplace_back("Location", "/ui/");
    out.content_type = "text/plain";
    out.body = "the workbench is at /ui/\n";
    return out;
  }
  return ToHttp(ErrorReply(NotFound("no route " + request.method + " " + request.path)));
}

std::vector<server::Mount> Workbench::Mounts() {
  auto handle = [this](const server::MountRequest& req, server::MountResponse& res) { res = Handle(req); };
  return {server::Mount{"/api/", false, false, handle}, server::Mount{"/ui/", false, true, handle},
          server::Mount{"/ui", true, true, handle}, server::Mount{"/", true, true, handle}};
}

}  // namespace lakeqa::workbench
