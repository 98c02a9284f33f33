// A small HTTP/1.1 server core for lakeqa's API and MCP endpoints. One event-loop thread accepts
// connections and reads every request head and body without blocking, each against a total deadline, so a
// slow or idle client (slowloris) holds a connection slot for a bounded time and never a worker; only
// complete requests reach the bounded worker pool, and responses are written back by the loop.
// It replaces cpp-httplib's server, which binds with SO_REUSEPORT (a busy port was shared, not refused),
// listens with a backlog of 5 and gives each connection a worker for as long as the client keeps it open.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/exec/sandbox.h"
#include "lakeqa/server/server.h"

namespace lakeqa::server {

struct HttpRequest {
  std::string method, target, path, query;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  std::string body;
  std::string peer;  // the client's address (no port)
  // Set when the client closes its connection before the answer is written (cancellation).
  std::shared_ptr<exec::CancelToken> closed;
  // The value of the header (case-insensitive name), or "" when absent.
  std::string Header(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  void SetHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

using HttpHandler = std::function<void(const HttpRequest&, HttpResponse&)>;

// Why a request head could not be parsed: the HTTP status to answer and a message.
struct HeadError {
  int status = 0;
  std::string message;
};

// Parses a request head (request line and headers, without the blank line). Exposed for tests.
bool ParseRequestHead(std::string_view head, HttpRequest* req, HeadError* error);

// The standard reason phrase of a status code.
const char* ReasonPhrase(int status);

class HttpCore {
 public:
  HttpCore(HttpLimits limits, HttpHandler handler);
  ~HttpCore();
  HttpCore(const HttpCore&) = delete;
  HttpCore& operator=(const HttpCore&) = delete;

  // Binds host:port (port 0 picks one) without SO_REUSEPORT, so a port another process listens on is
  // refused ("address in use"), and listens with limits.backlog.
  Status Bind(const std::string& host, int port);
  int port() const { return port_; }
  // Starts the loop and the workers; returns at once.
  void Start();
  // Closes the listener and every connection, waits for running handlers. Idempotent.
  void Stop();

  struct Loop;

 private:
  HttpLimits limits_;
  HttpHandler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::unique_ptr<Loop> loop_;
};

}  // namespace lakeqa::server
