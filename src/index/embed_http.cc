// The OpenAI-compatible embeddings client: POST {base_url}/v1/embeddings {"model", "input": [...]} with
// libcurl, in batches, retrying 429, 5xx and transport failures with exponential backoff and jitter
// (honouring Retry-After / retry-after-ms, capped by max_backoff).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

#include <curl/curl.h>

#include "lakeqa/common/http_header.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/index/embedder.h"

namespace lakeqa::index {
namespace {

struct Response {
  long status = 0;
  std::string body;
  std::string retry_after, retry_after_ms;
};

size_t OnBody(char* p, size_t size, size_t n, void* ud) {
  auto* r = static_cast<Response*>(ud);
  // A runaway body is not an embeddings response: 256 MiB is far above any batch we send.
  if (r->body.size() + size * n > (256u << 20)) return 0;
  r->body.append(p, size * n);
  return size * n;
}

size_t OnHeader(char* p, size_t size, size_t n, void* ud) {
  auto* r = static_cast<Response*>(ud);
  std::string name;
  std::string_view value;
  if (ParseHeaderLine(std::string_view(p, size * n), name, value)) {
    if (name == "retry-after") r->retry_after = value;
    if (name == "retry-after-ms") r->retry_after_ms = value;
  }
  return size * n;
}

// Seconds or milliseconds from a header; -1 when absent or not a number (an HTTP-date is ignored).
double HeaderMs(const std::string& v, double scale) {
  if (v.empty()) return -1;
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(d >= 0) || !std::isfinite(d)) return -1;
  return d * scale;
}

std::string ServerMessage(const std::string& body) {
  auto j = ParseJson(body, "response");
  if (j.ok() && j->is_object() && j->contains("error")) {
    const Json& e = (*j)["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string())
      return e["message"].get<std::string>();
    if (e.is_string()) return e.get<std::string>();
  }
  return body.substr(0, 300);
}

}  // namespace

Result<std::unique_ptr<HttpEmbedder>> HttpEmbedder::Create(HttpEmbedderOptions options) {
  if (options.base_url.empty()) return InvalidArgument("embeddings: base_url is empty");
  if (options.model.empty()) return InvalidArgument("embeddings: model is empty");
  if (options.batch_size == 0) return InvalidArgument("embeddings: batch_size must be > 0");
  if (options.max_retries < 0) return InvalidArgument("embeddings: max_retries must be >= 0");
  while (!options.base_url.empty() && options.base_url.back() == '/') options.base_url.pop_back();
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  return std::unique_ptr<HttpEmbedder>(new HttpEmbedder(std::move(options)));
}

Result<std::vector<std::vector<float>>> HttpEmbedder::Embed(const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out;
  out.reserve(texts.size());
  for (size_t first = 0; first < texts.size(); first += options_.batch_size) {
    size_t count = std::min(options_.batch_size, texts.size() - first);
    LAKEQA_ASSIGN_OR_RETURN(auto batch, EmbedBatch(texts, first, count));
    for (auto& v : batch) out.push_back(std::move(v));
  }
  return out;
}

Result<std::vector<std::vector<float>>> HttpEmbedder::EmbedBatch(const std::vector<std::string>& texts,
                                                                 size_t first, size_t count) {
  const std::string url = options_.base_url + "/v1/embeddings";
  Json body = {{"model", options_.model}, {"input", Json::array()}};
  for (size_t i = first; i < first + count; ++i) {
    // The API rejects empty strings; a space embeds as "nothing" on every server we know.
    body["input"].push_back(texts[i].empty() ? std::string(" ") : texts[i]);
  }
  const std::string payload = DumpJson(body);
  std::string auth;
  if (const char* key = std::getenv(options_.api_key_env.c_str()); key && *key)
    auth = std::string("Authorization: Bearer ") + key;

  static thread_local std::mt19937_64 rng{std::random_device{}()};
  Status last;
  for (int attempt = 0;; ++attempt) {
    Response resp;
    CURL* curl = curl_easy_init();
    if (!curl) return Internal("embeddings: curl_easy_init failed");
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");
    if (!auth.empty()) headers = curl_slist_append(headers, auth.c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, payload.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout.count()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &resp);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &resp);
    CURLcode rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    ++stats_.requests;

    bool retryable = false;
    if (rc != CURLE_OK) {
      ErrorCode code = rc == CURLE_OPERATION_TIMEDOUT ? ErrorCode::kTimeout
                       : rc == CURLE_WRITE_ERROR      ? ErrorCode::kResourceExhausted
                                                      : ErrorCode::kNetworkError;
      last = Status(code, "embeddings: POST " + url + ": " + curl_easy_strerror(rc));
      retryable = code != ErrorCode::kResourceExhausted;
    } else if (resp.status == 429 || resp.status >= 500) {
      last = Status(resp.status == 429 ? ErrorCode::kRateLimited : ErrorCode::kUnavailable,
                    "embeddings: POST " + url + ": HTTP " + std::to_string(resp.status) + ": " +
                        ServerMessage(resp.body));
      retryable = true;
    } else if (resp.status != 200) {
      ErrorCode code = resp.status == 401   ? ErrorCode::kUnauthenticated
                       : resp.status == 403 ? ErrorCode::kPermissionDenied
                       : resp.status == 404 ? ErrorCode::kNotFound
                                            : ErrorCode::kInvalidArgument;
      return Status(code, "embeddings: POST " + url + ": HTTP " + std::to_string(resp.status) + ": " +
                              ServerMessage(resp.body));
    } else {
      // 200: parse {"data": [{"index", "embedding": [...]}, ...], "usage": {...}}.
      auto where = "embeddings response from " + url;
      auto j = ParseJson(resp.body, where);
      if (!j.ok()) return j.status();
      auto bad = [&](const std::string& what) { return ParseError(where + ": " + what); };
      if (!j->is_object() || !j->contains("data") || !(*j)["data"].is_array())
        return bad("no \"data\" array");
      const Json& data = (*j)["data"];
      if (data.size() != count)
        return bad(std::to_string(data.size()) + " embeddings for " + std::to_string(count) + " inputs");
      std::vector<std::vector<float>> out(count);
      for (const Json& item : data) {
        if (!item.is_object() || !item.contains("index") || !item["index"].is_number_integer())
          return bad("an item has no integer \"index\"");
        int64_t idx = item["index"].get<int64_t>();
        if (idx < 0 || static_cast<size_t>(idx) >= count || !out[static_cast<size_t>(idx)].empty())
          return bad("index " + std::to_string(idx) + " is out of range or repeated");
        if (!item.contains("embedding") || !item["embedding"].is_array() || item["embedding"].empty())
          return bad("item " + std::to_string(idx) + " has no \"embedding\" array");
        std::vector<float>& v = out[static_cast<size_t>(idx)];
        v.reserve(item["embedding"].size());
        for (const Json& x : item["embedding"]) {
          if (!x.is_number())
            return bad("item " + std::to_string(idx) + " has a non-number in its embedding");
          double d = x.get<double>();
          if (!std::isfinite(d)) return bad("item " + std::to_string(idx) + " has a non-finite value");
          v.push_back(static_cast<float>(d));
        }
        if (dim_ == 0) dim_ = v.size();
        if (v.size() != dim_)
          return bad("item " + std::to_string(idx) + " has " + std::to_string(v.size()) +
                     " dimensions, expected " + std::to_string(dim_));
        L2Normalize(v);
      }
      if (j->contains("usage") && (*j)["usage"].is_object()) {
        const Json& u = (*j)["usage"];
        if (u.contains("prompt_tokens") && u["prompt_tokens"].is_number_unsigned())
          stats_.prompt_tokens += u["prompt_tokens"].get<uint64_t>();
      }
      return out;
    }
    if (!retryable || attempt >= options_.max_retries)
      return attempt > 0 ? last.WithContext("after " + std::to_string(attempt + 1) + " attempts") : last;
    ++stats_.retries;
    double cap = static_cast<double>(options_.max_backoff.count());
    double wait = HeaderMs(resp.retry_after_ms, 1.0);
    if (wait < 0) wait = HeaderMs(resp.retry_after, 1000.0);
    if (wait < 0) {
      double base = static_cast<double>(options_.initial_backoff.count()) * std::pow(2.0, attempt);
      wait = std::min(cap, base) * std::uniform_real_distribution<double>(0.5, 1.0)(rng);
    }
    wait = std::min(wait, cap);
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(wait)));
  }
}

}  // namespace lakeqa::index
