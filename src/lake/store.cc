#include "lakeqa/lake/store.h"

#include <cstdlib>
#include <filesystem>

#include "lakeqa/common/strings.h"
#include "lakeqa/lake/local_store.h"
#include "lakeqa/lake/s3_store.h"

namespace lakeqa::lake {

Status ValidateKey(std::string_view key) {
  if (key.empty()) return InvalidArgument("empty object key");
  if (key.front() == '/') return InvalidArgument("object key must be relative: " + std::string(key));
  if (key.find('\0') != std::string_view::npos) return InvalidArgument("object key contains NUL");
  for (std::string_view seg : Split(key, '/')) {
    if (seg.empty()) return InvalidArgument("object key has an empty segment: " + std::string(key));
    if (seg == "." || seg == "..") {
      return InvalidArgument("object key must not contain '.' or '..' segments: " + std::string(key));
    }
  }
  return Status::Ok();
}

Status Store::ListAll(std::string_view prefix, const std::function<Status(const ObjectInfo&)>& visit) {
  ListOptions opts;
  opts.prefix = std::string(prefix);
  for (;;) {
    LAKEQA_ASSIGN_OR_RETURN(ListPage page, List(opts));
    for (const ObjectInfo& o : page.objects) LAKEQA_RETURN_IF_ERROR(visit(o));
    if (page.next_continuation_token.empty()) return Status::Ok();
    opts.continuation_token = std::move(page.next_continuation_token);
  }
}

Result<std::unique_ptr<Store>> OpenStore(std::string_view uri, const S3Options& s3) {
  if (uri.empty()) return InvalidArgument("empty lake URI");
  if (StartsWith(uri, "s3://")) {
    std::string_view rest = uri.substr(5);
    size_t slash = rest.find('/');
    std::string bucket(rest.substr(0, slash));
    std::string prefix = slash == std::string_view::npos ? "" : std::string(rest.substr(slash + 1));
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    if (bucket.empty()) return InvalidArgument("s3 URI has no bucket: " + std::string(uri));
    S3Options opts = s3;
    if (opts.endpoint.empty()) {
      if (const char* e = std::getenv("AWS_ENDPOINT_URL")) opts.endpoint = e;
    }
    if (opts.region.empty() || opts.region == "us-east-1") {
      if (const char* r = std::getenv("AWS_REGION")) opts.region = r;
      else if (const char* d = std::getenv("AWS_DEFAULT_REGION")) opts.region = d;
    }
    if (opts.region.empty()) opts.region = "us-east-1";
    return std::unique_ptr<Store>(new S3Store(std::move(bucket), std::move(prefix), std::move(opts)));
  }
  std::string_view path = uri;
  if (StartsWith(uri, "file://")) path = uri.substr(7);
  if (uri.find("://") != std::string_view::npos && !StartsWith(uri, "file://")) {
    return InvalidArgument("unsupported lake URI scheme (use a path, file:// or s3://): " + std::string(uri));
  }
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(std::filesystem::path(path), ec);
  if (ec) return InvalidArgument("bad lake path " + std::string(path) + ": " + ec.message());
  return std::unique_ptr<Store>(new LocalStore(abs.lexically_normal().string()));
}

}  // namespace lakeqa::lake
