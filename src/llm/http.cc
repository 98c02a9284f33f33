// libcurl POST with streaming, timeouts and retries for the model providers.
#include "lakeqa/llm/http.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>

#include <curl/curl.h>

#include "lakeqa/common/http_header.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::llm {
namespace {

struct CallState {
  HttpResponse* resp;
  const std::function<void(std::string_view)>* on_data;
};

size_t OnBody(char* ptr, size_t size, size_t nmemb, void* user) {
  auto* st = static_cast<CallState*>(user);
  size_t n = size * nmemb;
  st->resp->body.append(ptr, n);
  if (*st->on_data) (*st->on_data)(std::string_view(ptr, n));
  return n;
}

size_t OnHeader(char* ptr, size_t size, size_t nmemb, void* user) {
  auto* st = static_cast<CallState*>(user);
  size_t n = size * nmemb;
  std::string_view line(ptr, n);
  // A new status line (after a 100-continue or a redirect) starts a fresh header set.
  if (line.starts_with("HTTP/")) st->resp->headers.clear();
  std::string name;
  std::string_view value;
  if (ParseHeaderLine(line, name, value)) st->resp->headers[name] = std::string(value);
  return n;
}

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool Retryable(long status) { return status == 429 || status == 408 || status >= 500; }

double JitteredBackoffMs(const HttpOptions& o, int attempt) {
  // Full jitter: U(0, min(cap, base * 2^n)), so many parallel tasks hitting one rate limit spread out.
  thread_local std::mt19937_64 rng{std::random_device{}()};
  double ceiling =
      std::min<double>(o.max_backoff_ms, double(o.base_backoff_ms) * double(1u << std::min(attempt, 20)));
  return std::uniform_real_distribution<double>(0, ceiling)(rng);
}

}  // namespace

Result<HttpResponse> HttpPost(const std::string& url, const std::vector<std::string>& headers,
                              const std::string& body, const HttpOptions& options,
                              const std::function<void(std::string_view)>& on_data) {
  GlobalInit();
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return Internal("curl_easy_init failed");
  HttpResponse resp;
  CallState st{&resp, &on_data};
  curl_slist* hl = nullptr;
  for (const auto& h : headers) hl = curl_slist_append(hl, h.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hl);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &st);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &st);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: we run many threads
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
  curl_slist_free_all(hl);
  curl_easy_cleanup(curl);
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    return Status(ErrorCode::kTimeout,
                  "POST " + url + ": no complete answer within " + std::to_string(options.timeout_s) + " s");
  }
  if (rc != CURLE_OK) {
    return Status(ErrorCode::kNetworkError, "POST " + url + ": " + curl_easy_strerror(rc));
  }
  return resp;
}

double RetryAfterSeconds(const std::map<std::string, std::string>& headers) {
  auto it = headers.find("retry-after");
  if (it == headers.end() || it->second.empty()) return -1;
  const std::string& v = it->second;
  char* end = nullptr;
  double s = std::strtod(v.c_str(), &end);
  if (end != v.c_str() && *end == '\0') return std::max(0.0, s);
  // HTTP-date form: "Wed, 21 Oct 2015 07:28:00 GMT".
  std::tm tm{};
  if (strptime(v.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm) != nullptr) {
    double d = std::difftime(timegm(&tm), std::time(nullptr));
    return std::max(0.0, d);
  }
  return -1;
}

Result<std::optional<Json>> WholeJsonBody(const HttpResponse& resp, std::string_view url) {
  auto ct = resp.headers.find("content-type");
  if (ct == resp.headers.end() || !ct->second.starts_with("application/json")) return std::optional<Json>();
  Json j = Json::parse(resp.body, nullptr, false);
  if (j.is_discarded())
    return ParseError(std::string(url) + ": response is not JSON: " + resp.body.substr(0, 200));
  return std::optional<Json>(std::move(j));
}

Result<std::optional<Json>> PostChat(const std::string& url, const std::vector<std::string>& headers,
                                     const std::string& body, const HttpOptions& options, SseParser* sse,
                                     const std::function<void()>& on_attempt) {
  if (sse == nullptr) {
    LAKEQA_ASSIGN_OR_RETURN(HttpResponse resp, PostWithRetries(url, headers, body, options));
    if (resp.status / 100 != 2) return HttpError(resp.status, resp.body, url);
    Json j = Json::parse(resp.body, nullptr, false);
    if (j.is_discarded()) return ParseError(url + ": response is not JSON: " + resp.body.substr(0, 200));
    return std::optional<Json>(std::move(j));
  }
  LAKEQA_ASSIGN_OR_RETURN(HttpResponse resp,
                          PostWithRetries(
                              url, headers, body, options, [&](std::string_view bytes) { sse->Feed(bytes); },
                              [&] {
                                sse->Reset();
                                if (on_attempt) on_attempt();
                              }));
  if (resp.status / 100 != 2) return HttpError(resp.status, resp.body, url);
  LAKEQA_ASSIGN_OR_RETURN(std::optional<Json> whole, WholeJsonBody(resp, url));
  if (!whole) sse->Finish();
  return whole;
}

Status HttpError(long status, const std::string& body, std::string_view url) {
  // Both providers wrap errors as {"error": {"message": ..., "type"/"code": ...}}.
  std::string message;
  Json j = Json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("error")) {
    const Json& e = j["error"];
    if (e.is_object()) {
      message = e.value("message", "");
      std::string type = e.contains("type") && e["type"].is_string() ? e["type"].get<std::string>() : "";
      if (!type.empty()) message = type + ": " + message;
    } else if (e.is_string()) {
      message = e.get<std::string>();
    }
  }
  if (message.empty()) message = body.substr(0, 300);
  std::string text = "POST " + std::string(url) + ": HTTP " + std::to_string(status) + ": " + message;
  ErrorCode code = ErrorCode::kInvalidArgument;
  if (status == 401) code = ErrorCode::kUnauthenticated;
  else if (status == 403) code = ErrorCode::kPermissionDenied;
  else if (status == 404) code = ErrorCode::kNotFound;
  else if (status == 408) code = ErrorCode::kTimeout;
  else if (status == 413) code = ErrorCode::kResourceExhausted;
  else if (status == 429) code = ErrorCode::kRateLimited;
  else if (status >= 500) code = ErrorCode::kUnavailable;
  return Status(code, std::move(text));
}

Result<HttpResponse> PostWithRetries(const std::string& url, const std::vector<std::string>& headers,
                                     const std::string& body, const HttpOptions& options,
                                     const std::function<void(std::string_view)>& on_data,
                                     const std::function<void()>& on_attempt) {
  for (int attempt = 0;; ++attempt) {
    if (on_attempt) on_attempt();
    Result<HttpResponse> r = HttpPost(url, headers, body, options, on_data);
    bool last = attempt >= options.max_retries;
    double wait_ms = -1;
    if (!r.ok()) {
      bool transient =
          r.status().code() == ErrorCode::kNetworkError || r.status().code() == ErrorCode::kTimeout;
      if (!transient || last) return r.status();
      LAKEQA_LOG_WARN("{} (attempt {}), retrying", r.status().ToString(), attempt + 1);
    } else if (Retryable(r->status)) {
      if (last) return HttpError(r->status, r->body, url);
      double ra = RetryAfterSeconds(r->headers);
      if (ra >= 0) wait_ms = std::min<double>(ra * 1000, options.max_backoff_ms);
      LAKEQA_LOG_WARN("POST {}: HTTP {} (attempt {}), retrying", url, r->status, attempt + 1);
    } else {
      return r;
    }
    if (wait_ms < 0) wait_ms = JitteredBackoffMs(options, attempt);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(wait_ms * 1000)));
  }
}

void SseParser::Feed(std::string_view bytes) {
  buffer_.append(bytes);
  size_t start = 0;
  for (;;) {
    size_t nl = buffer_.find('\n', start);
    if (nl == std::string::npos) break;
    std::string_view line(buffer_.data() + start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Line(line);
    start = nl + 1;
  }
  buffer_.erase(0, start);
}

void SseParser::Finish() {
  if (!buffer_.empty()) {
    std::string rest = std::move(buffer_);
    buffer_.clear();
    Line(rest);
  }
  Line("");
}

void SseParser::Line(std::string_view line) {
  if (line.empty()) {
    if (has_data_) on_event_(event_, data_);
    event_.clear();
    data_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // comment / keep-alive
  size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "event") {
    event_ = std::string(value);
  } else if (field == "data") {
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
  }
}

}  // namespace lakeqa::llm
