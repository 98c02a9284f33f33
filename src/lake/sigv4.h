// AWS Signature Version 4 for S3 requests (header-based auth). Kept apart from the HTTP code so that it
// can be checked against AWS's published example signatures.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace lakeqa::lake {

std::string Sha256Hex(std::string_view data);
// RFC 3986 percent-encoding as SigV4 wants it; '/' is kept when encode_slash is false (paths).
std::string UriEncode(std::string_view s, bool encode_slash);

struct SigV4Request {
  std::string method;                        // "GET"
  std::string canonical_uri;                 // already encoded path, "/bucket/key"
  std::map<std::string, std::string> query;  // decoded names and values
  std::map<std::string, std::string>
      headers;                 // lower-case names; must include host, x-amz-date, x-amz-content-sha256
  std::string payload_sha256;  // hex, or "UNSIGNED-PAYLOAD"
};

// The Authorization header value.
std::string SignV4(const SigV4Request& req, std::string_view access_key, std::string_view secret_key,
                   std::string_view region, std::string_view amz_date /* 20130524T000000Z */,
                   std::string_view service = "s3");
// Canonical query string (sorted, encoded): also what goes on the URL.
std::string CanonicalQuery(const std::map<std::string, std::string>& query);

}  // namespace lakeqa::lake
