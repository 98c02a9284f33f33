#include "lake/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <cstdio>

namespace lakeqa::lake {
namespace {

std::string Hex(const unsigned char* p, size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[p[i] >> 4];
    out[2 * i + 1] = kDigits[p[i] & 15];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), d);
  return Hex(d, sizeof d);
}

std::string UriEncode(std::string_view s, bool encode_slash) {
  std::string out;
  out.reserve(s.size() * 3 / 2);
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~' || (c == '/' && !encode_slash)) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string CanonicalQuery(const std::map<std::string, std::string>& query) {
  // std::map sorts by decoded name; SigV4 sorts by encoded name. They agree for the names S3 uses
  // (ASCII letters and '-').
  std::string out;
  for (const auto& [k, v] : query) {
    if (!out.empty()) out += '&';
    out += UriEncode(k, true) + "=" + UriEncode(v, true);
  }
  return out;
}

std::string SignV4(const SigV4Request& req, std::string_view access_key, std::string_view secret_key,
                   std::string_view region, std::string_view amz_date, std::string_view service) {
  std::string canonical_headers, signed_headers;
  for (const auto& [k, v] : req.headers) {
    canonical_headers += k + ":" + v + "\n";
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += k;
  }
  std::string canonical = req.method + "\n" + req.canonical_uri + "\n" + CanonicalQuery(req.query) + "\n" +
                          canonical_headers + "\n" + signed_headers + "\n" + req.payload_sha256;
  std::string date(amz_date.substr(0, 8));
  std::string scope = date + "/" + std::string(region) + "/" + std::string(service) + "/aws4_request";
  std::string to_sign =
      "AWS4-HMAC-SHA256\n" + std::string(amz_date) + "\n" + scope + "\n" + Sha256Hex(canonical);
  std::string k = Hmac("AWS4" + std::string(secret_key), date);
  k = Hmac(k, region);
  k = Hmac(k, service);
  k = Hmac(k, "aws4_request");
  std::string sig = Hmac(k, to_sign);
  return "AWS4-HMAC-SHA256 Credential=" + std::string(access_key) + "/" + scope +
         ", SignedHeaders=" + signed_headers +
         ", Signature=" + Hex(reinterpret_cast<const unsigned char*>(sig.data()), sig.size());
}

}  // namespace lakeqa::lake
