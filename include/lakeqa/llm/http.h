// HTTP POST for model APIs over libcurl: request timeouts, streamed bodies (Server-Sent Events) and
// retries with exponential backoff and full jitter on 429, 5xx and connection errors, honouring
// `retry-after`. Shared by every provider so they all behave the same under rate limits.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::llm {

struct HttpOptions {
  double timeout_s = 300;  // whole request, streaming included
  double connect_timeout_s = 10;
  int max_retries = 6;         // attempts after the first
  int base_backoff_ms = 1000;  // sleep U(0, min(cap, base * 2^n)) unless the server says retry-after
  int max_backoff_ms = 60000;
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;                            // for streamed requests: the whole raw stream
};

// One POST, no retries. `on_data` (optional) sees body bytes as they arrive (for streaming); the body is
// also accumulated. A transport failure (refused, reset, timeout) is an error; any HTTP status is not.
Result<HttpResponse> HttpPost(const std::string& url, const std::vector<std::string>& headers,
                              const std::string& body, const HttpOptions& options,
                              const std::function<void(std::string_view)>& on_data = {});

// Seconds to wait from a retry-after header ("7" or an HTTP date); -1 when absent or unparseable.
double RetryAfterSeconds(const std::map<std::string, std::string>& headers);

// POST with retries. `attempt` is called once per try (so a streaming parser can reset its state).
// Returns the final response (which may still be a 4xx); 429/5xx after the last retry becomes
// kRateLimited / kUnavailable with the server's message.
Result<HttpResponse> PostWithRetries(const std::string& url, const std::vector<std::string>& headers,
                                     const std::string& body, const HttpOptions& options,
                                     const std::function<void(std::string_view)>& on_data = {},
                                     const std::function<void()>& on_attempt = {});

// Splits a Server-Sent Events stream into events. Feed bytes as they arrive; each complete event
// (blank-line terminated) calls on_event(event_name, data) with multi-line data joined by '\n'.
class SseParser {
 public:
  explicit SseParser(std::function<void(const std::string&, const std::string&)> on_event)
      : on_event_(std::move(on_event)) {}
  void Feed(std::string_view bytes);
  void Finish();  // flushes a final event without a trailing blank line
  void Reset() { buffer_.clear(), event_.clear(), data_.clear(), has_data_ = false; }

 private:
  void Line(std::string_view line);
  std::function<void(const std::string&, const std::string&)> on_event_;
  std::string buffer_, event_, data_;
  bool has_data_ = false;
};

// Maps a non-2xx status and body to a Status naming the provider's own error message.
Status HttpError(long status, const std::string& body, std::string_view url);
// A streamed request's answer when the server ignored "stream" and sent one JSON document
// (content-type application/json): that document, or a parse error. nullopt for an event stream.
Result<std::optional<Json>> WholeJsonBody(const HttpResponse& resp, std::string_view url);

// A chat request's POST with retries, the same for every provider. With `sse` null (a non-streamed
// request) the answer must be one JSON document. With `sse`, the body is fed to it as it arrives and
// flushed at the end, and nullopt is returned, unless the server ignored "stream" and sent one JSON
// document (WholeJsonBody), which is returned. Before each try `sse` is reset and `on_attempt` called (the
// caller resets its stream state there). A non-2xx answer becomes HttpError.
Result<std::optional<Json>> PostChat(const std::string& url, const std::vector<std::string>& headers,
                                     const std::string& body, const HttpOptions& options, SseParser* sse,
                                     const std::function<void()>& on_attempt = {});

}  // namespace lakeqa::llm
