#include "lakeqa/lake/s3_store.h"

#include <curl/curl.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>

#include "lake/s3_xml.h"
#include "lake/sigv4.h"
#include "lakeqa/common/log.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::lake {
namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// One easy handle per thread, reused so connections stay alive between requests.
CURL* ThreadCurl() {
  struct Holder {
    CURL* h = nullptr;
    ~Holder() {
      if (h) curl_easy_cleanup(h);
    }
  };
  thread_local Holder holder;
  if (!holder.h) holder.h = curl_easy_init();
  curl_easy_reset(holder.h);
  return holder.h;
}

std::string AmzDate() {
  std::time_t t = std::time(nullptr);
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

int64_t ParseHttpDateMs(const std::string& s) {
  struct tm tm {};
  if (strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S", &tm) == nullptr) return 0;
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

bool Retryable(long status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

struct S3Store::Request {
  std::string method = "GET";
  std::string key;  // full key in the bucket ("" for bucket-level requests)
  std::map<std::string, std::string> query;
  std::map<std::string, std::string> extra_headers;  // lower-case
  std::string_view body;
  std::string what;  // for error messages: s3://bucket/key
};

S3Store::S3Store(std::string bucket, std::string prefix, S3Options options)
    : bucket_(std::move(bucket)), prefix_(std::move(prefix)), options_(std::move(options)) {
  GlobalInit();
  if (!options_.endpoint.empty()) options_.path_style = true;
  if (!options_.anonymous) {
    if (options_.access_key.empty()) options_.access_key = Env("AWS_ACCESS_KEY_ID");
    if (options_.secret_key.empty()) options_.secret_key = Env("AWS_SECRET_ACCESS_KEY");
    if (options_.session_token.empty()) options_.session_token = Env("AWS_SESSION_TOKEN");
  }
}

S3Store::~S3Store() = default;

std::string S3Store::Uri() const { return "s3://" + bucket_ + (prefix_.empty() ? "" : "/" + prefix_); }

std::string S3Store::FullKey(std::string_view key) const {
  return prefix_.empty() ? std::string(key) : prefix_ + "/" + std::string(key);
}

namespace {
struct CallbackState {
  HttpResponse* resp;
  const ChunkSink* sink;
  CURL* curl;
  uint64_t delivered = 0;
  bool sink_stopped = false;
};

size_t OnBody(char* ptr, size_t size, size_t n, void* user) {
  auto* st = static_cast<CallbackState*>(user);
  size_t len = size * n;
  long code = 0;
  curl_easy_getinfo(st->curl, CURLINFO_RESPONSE_CODE, &code);
  if (st->sink && code >= 200 && code < 300) {
    st->delivered += len;
    if (!(*st->sink)(std::string_view(ptr, len))) {
      st->sink_stopped = true;
      return 0;  // aborts the transfer; reported as a write error we recognise
    }
    return len;
  }
  if (st->resp->body.size() < (64u << 20)) st->resp->body.append(ptr, len);
  return len;
}

size_t OnHeader(char* ptr, size_t size, size_t n, void* user) {
  auto* resp = static_cast<HttpResponse*>(user);
  std::string_view line(ptr, size * n);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name = ToLowerAscii(Trim(line.substr(0, colon)));
    resp->headers[name] = std::string(Trim(line.substr(colon + 1)));
  } else if (StartsWith(line, "HTTP/")) {
    resp->headers.clear();  // a new response (after 100-continue or a redirect)
  }
  return size * n;
}
}  // namespace

Result<HttpResponse> S3Store::Send(Request& req, const ChunkSink* sink) {
  std::string host, base;
  std::string endpoint = options_.endpoint;
  if (endpoint.empty()) endpoint = "https://s3." + options_.region + ".amazonaws.com";
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  size_t scheme_end = endpoint.find("://");
  std::string scheme = scheme_end == std::string::npos ? "https" : endpoint.substr(0, scheme_end);
  std::string authority = scheme_end == std::string::npos ? endpoint : endpoint.substr(scheme_end + 3);
  std::string path;
  if (options_.path_style) {
    host = authority;
    path = "/" + UriEncode(bucket_, true) + (req.key.empty() ? "" : "/" + UriEncode(req.key, false));
  } else {
    host = bucket_ + "." + authority;
    path = "/" + UriEncode(req.key, false);
  }
  std::string query = CanonicalQuery(req.query);
  std::string url = scheme + "://" + host + path + (query.empty() ? "" : "?" + query);

  std::mt19937_64 rng(std::random_device{}());
  uint64_t resume_from = 0;  // bytes already handed to the sink by an earlier attempt
  std::string what = req.what.empty() ? Uri() : req.what;
  for (int attempt = 0;; ++attempt) {
    HttpResponse resp;
    CURL* curl = ThreadCurl();
    std::map<std::string, std::string> headers = req.extra_headers;
    if (resume_from > 0) {
      // Resume a broken stream where it stopped; the original request may already carry a range.
      uint64_t start = resume_from;
      auto it = headers.find("range");
      if (it != headers.end()) start += std::strtoull(it->second.c_str() + 6, nullptr, 10);
      headers["range"] = "bytes=" + std::to_string(start) + "-";
    }
    std::string payload_hash = Sha256Hex(req.body);
    headers["host"] = host;
    headers["x-amz-content-sha256"] = payload_hash;  // curl does not send it; s3rver and AWS require it
    headers["x-amz-date"] = AmzDate();
    if (!options_.anonymous && !options_.session_token.empty())
      headers["x-amz-security-token"] = options_.session_token;
    curl_slist* list = nullptr;
    if (!options_.anonymous) {
      if (options_.access_key.empty() || options_.secret_key.empty()) {
        return Status(ErrorCode::kUnauthenticated,
                      what +
                          ": no S3 credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or use "
                          "--s3-anonymous for a public bucket)");
      }
      SigV4Request sreq{req.method, path, req.query, headers, payload_hash};
      headers["authorization"] =
          SignV4(sreq, options_.access_key, options_.secret_key, options_.region, headers["x-amz-date"]);
    }
    for (const auto& [k, v] : headers) {
      if (k == "host") continue;
      list = curl_slist_append(list, (k + ": " + v).c_str());
    }
    list = curl_slist_append(list, "Expect:");
    CallbackState state{&resp, sink, curl};
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(sink ? 0 : options_.request_timeout_ms));
    // Streams may run long; a stalled one is caught by the low-speed limit instead.
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options_.request_timeout_ms / 1000));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &resp);
    if (req.method == "HEAD") {
      curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (req.method == "PUT") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PUT");
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
    }
    requests_.fetch_add(1);
    CURLcode rc = curl_easy_perform(curl);
    curl_slist_free_all(list);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
    resume_from += state.delivered;

    bool retry = false;
    Status failure;
    if (rc != CURLE_OK) {
      if (state.sink_stopped) return resp;  // the caller asked to stop: not an error
      ErrorCode code = (rc == CURLE_OPERATION_TIMEDOUT) ? ErrorCode::kTimeout : ErrorCode::kNetworkError;
      failure = Status(code, what + ": " + curl_easy_strerror(rc) + " (" + url + ")");
      retry = true;
    } else if (Retryable(resp.status)) {
      std::string s3code = XmlText(resp.body, "Code");
      failure = Status(
          resp.status == 429 || s3code == "SlowDown" ? ErrorCode::kRateLimited : ErrorCode::kUnavailable,
          what + ": HTTP " + std::to_string(resp.status) + (s3code.empty() ? "" : " " + s3code) + " after " +
              std::to_string(attempt + 1) + " attempts");
      retry = true;
    } else if (resp.status >= 400 || resp.status == 0) {
      std::string s3code = XmlText(resp.body, "Code");
      std::string msg = XmlText(resp.body, "Message");
      std::string detail = what + ": HTTP " + std::to_string(resp.status) +
                           (s3code.empty() ? "" : " " + s3code) + (msg.empty() ? "" : ": " + msg);
      if (resp.status == 403) return Status(ErrorCode::kPermissionDenied, detail);
      if (resp.status == 401) return Status(ErrorCode::kUnauthenticated, detail);
      if (resp.status == 404) return Status(ErrorCode::kNotFound, detail);
      if (resp.status == 416) return Status(ErrorCode::kInvalidArgument, detail);
      return Status(ErrorCode::kIoError, detail);
    } else {
      return resp;
    }
    if (!retry || attempt >= options_.max_retries) return failure;
    // Exponential backoff with full jitter (AWS architecture blog): sleep U(0, min(cap, base * 2^n)).
    uint64_t cap = 20000;
    uint64_t ceiling =
        std::min<uint64_t>(cap, static_cast<uint64_t>(options_.base_backoff_ms) << std::min(attempt, 16));
    uint64_t sleep_ms = ceiling ? rng() % (ceiling + 1) : 0;
    LAKEQA_LOG_DEBUG("retrying {} in {} ms: {}", what, sleep_ms, failure.ToString());
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
}

Result<ListPage> S3Store::List(const ListOptions& options) {
  Request req;
  req.query["list-type"] = "2";
  std::string full_prefix = prefix_.empty() ? options.prefix : prefix_ + "/" + options.prefix;
  if (!full_prefix.empty()) req.query["prefix"] = full_prefix;
  if (options.delimiter) req.query["delimiter"] = std::string(1, *options.delimiter);
  req.query["max-keys"] = std::to_string(options.max_keys ? options.max_keys : 1000);
  if (!options.continuation_token.empty()) req.query["continuation-token"] = options.continuation_token;
  req.what = Uri() + " (list " + options.prefix + ")";
  LAKEQA_ASSIGN_OR_RETURN(HttpResponse resp, Send(req, nullptr));
  LAKEQA_ASSIGN_OR_RETURN(ListPage page, ParseListObjectsV2(resp.body));
  if (!prefix_.empty()) {
    size_t strip = prefix_.size() + 1;
    for (auto& o : page.objects) o.key = o.key.substr(std::min(strip, o.key.size()));
    for (auto& p : page.common_prefixes) p = p.substr(std::min(strip, p.size()));
  }
  return page;
}

Result<ObjectInfo> S3Store::Stat(std::string_view key) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  Request req;
  req.method = "HEAD";
  req.key = FullKey(key);
  req.what = Uri() + "/" + std::string(key);
  LAKEQA_ASSIGN_OR_RETURN(HttpResponse resp, Send(req, nullptr));
  ObjectInfo info;
  info.key = std::string(key);
  info.size = std::strtoull(resp.headers["content-length"].c_str(), nullptr, 10);
  info.etag = resp.headers["etag"];
  if (info.etag.size() >= 2 && info.etag.front() == '"')
    info.etag = info.etag.substr(1, info.etag.size() - 2);
  info.mtime_ms = ParseHttpDateMs(resp.headers["last-modified"]);
  return info;
}

Result<std::string> S3Store::ReadRange(std::string_view key, uint64_t offset, uint64_t length) {
  std::string out;
  Status s = ReadStream(
      key,
      [&](std::string_view chunk) {
        out.append(chunk);
        return true;
      },
      offset, length);
  if (!s.ok()) {
    // Reading past the end of an object is an empty read, as locally.
    if (s.code() == ErrorCode::kInvalidArgument && s.message().find("416") != std::string::npos)
      return std::string();
    return s;
  }
  return out;
}

Status S3Store::ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset) {
  return ReadStream(key, sink, offset, 0);
}

Status S3Store::ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset, uint64_t length) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  Request req;
  req.key = FullKey(key);
  req.what = Uri() + "/" + std::string(key);
  if (offset > 0 || length > 0) {
    req.extra_headers["range"] =
        "bytes=" + std::to_string(offset) + "-" + (length > 0 ? std::to_string(offset + length - 1) : "");
  }
  uint64_t remaining = length;
  ChunkSink bounded = [&](std::string_view chunk) {
    // A server that ignores Range (or a resumed stream) must not deliver more than asked.
    if (length > 0) {
      if (remaining == 0) return false;
      if (chunk.size() > remaining) chunk = chunk.substr(0, remaining);
      remaining -= chunk.size();
    }
    return sink(chunk);
  };
  LAKEQA_ASSIGN_OR_RETURN(HttpResponse resp, Send(req, &bounded));
  (void)resp;
  return Status::Ok();
}

Status S3Store::Write(std::string_view key, std::string_view data) {
  LAKEQA_RETURN_IF_ERROR(ValidateKey(key));
  Request req;
  req.method = "PUT";
  req.key = FullKey(key);
  req.body = data;
  req.what = Uri() + "/" + std::string(key);
  LAKEQA_ASSIGN_OR_RETURN(HttpResponse resp, Send(req, nullptr));
  (void)resp;
  return Status::Ok();
}

Status S3Store::CreateBucket() {
  Request req;
  req.method = "PUT";
  req.what = "s3://" + bucket_;
  auto r = Send(req, nullptr);
  // 409 means the bucket is there already; if it is someone else's, the first write says so clearly.
  if (!r.ok() && r.status().message().find("HTTP 409") == std::string::npos) return r.status();
  return Status::Ok();
}

}  // namespace lakeqa::lake
