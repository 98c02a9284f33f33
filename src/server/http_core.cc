#include "server/http_core.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "lakeqa/common/strings.h"
#include "lakeqa/exec/sandbox.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lakeqa::server {
namespace {

using Clock = std::chrono::steady_clock;

// HTTP's optional whitespace (RFC 9110, OWS: spaces and tabs) around a header value; not lakeqa::Trim,
// which also takes line ends.
std::string_view TrimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

std::string Serialize(const HttpResponse& res, bool close) {
  std::string out = "HTTP/1.1 " + std::to_string(res.status) + " " + ReasonPhrase(res.status) + "\r\n";
  bool has_type = false;
  for (const auto& [k, v] : res.headers) {
    if (ToLowerAscii(k) == "content-type") has_type = true;
    out += k + ": " + v + "\r\n";
  }
  if (!has_type && !res.body.empty()) out += "Content-Type: application/json\r\n";
  if (res.status != 204 && res.status != 304)
    out += "Content-Length: " + std::to_string(res.body.size()) + "\r\n";
  out += close ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
  out += res.body;
  return out;
}

HttpResponse ErrorResponse(int status, const std::string& code, const std::string& message) {
  HttpResponse r;
  r.status = status;
  r.body = R"({"error":{"code":")" + code + R"(","message":)" + Json(message).dump() + "}}";
  return r;
}

std::string PeerAddress(const sockaddr_storage& ss) {
  char buf[INET6_ADDRSTRLEN] = {0};
  if (ss.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&ss)->sin_addr, buf, sizeof buf);
  } else if (ss.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&ss)->sin6_addr, buf, sizeof buf);
  }
  return buf;
}

}  // namespace

std::string HttpRequest::Header(std::string_view name) const {
  std::string n = ToLowerAscii(name);
  for (const auto& [k, v] : headers) {
    if (k == n) return v;
  }
  return "";
}

bool HttpRequest::HasHeader(std::string_view name) const {
  std::string n = ToLowerAscii(name);
  for (const auto& [k, v] : headers) {
    if (k == n) return true;
  }
  return false;
}

const char* ReasonPhrase(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
  }
}

bool ParseRequestHead(std::string_view head, HttpRequest* req, HeadError* error) {
  auto fail = [&](int status, std::string m) {
    error->status = status;
    error->message = std::move(m);
    return false;
  };
  size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != line.npos)
    return fail(400, "malformed request line (expected METHOD TARGET HTTP/1.1)");
  req->method = std::string(line.substr(0, sp1));
  req->target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  std::string_view version = line.substr(sp2 + 1);
  if (req->method.empty() || !std::all_of(req->method.begin(), req->method.end(), IsTokenChar))
    return fail(400, "malformed method in the request line");
  if (version != "HTTP/1.1" && version != "HTTP/1.0")
    return fail(505, "only HTTP/1.1 and HTTP/1.0 are served");
  if (req->target.empty() || req->target[0] != '/') return fail(400, "the request target must be a path");
  size_t q = req->target.find('?');
  req->path = req->target.substr(0, q);
  req->query = q == std::string::npos ? "" : req->target.substr(q + 1);
  req->headers.clear();
  if (version == "HTTP/1.0") req->headers.emplace_back(":version", "1.0");
  size_t at = eol == std::string_view::npos ? head.size() : eol + 2;
  while (at < head.size()) {
    size_t end = head.find("\r\n", at);
    if (end == std::string_view::npos) end = head.size();
    std::string_view h = head.substr(at, end - at);
    at = end + 2;
    if (h.empty()) continue;
    if (h.front() == ' ' || h.front() == '\t') return fail(400, "folded header lines are not accepted");
    size_t colon = h.find(':');
    if (colon == std::string_view::npos || colon == 0) return fail(400, "malformed header line (no name)");
    std::string_view name = h.substr(0, colon);
    if (!std::all_of(name.begin(), name.end(), IsTokenChar)) return fail(400, "malformed header name");
    std::string_view value = TrimOws(h.substr(colon + 1));
    for (char c : value) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
        return fail(400, "control character in header " + std::string(name));
    }
    req->headers.emplace_back(ToLowerAscii(name), std::string(value));
    if (req->headers.size() > 100) return fail(431, "more than 100 header lines");
  }
  return true;
}

struct HttpCore::Loop {
  // kDrain: a refusal was written and the sending side shut; what the client still sends is read and dropped.
  enum class State { kHead, kBody, kBusy, kWrite, kDrain };
  struct Conn {
    uint64_t id = 0;
    int fd = -1;
    std::string peer;
    State state = State::kHead;
    std::string in, out;
    size_t out_off = 0;
    size_t body_len = 0;
    HttpRequest req;
    bool close_after = false;
    bool linger = false;  // close by draining first (Refuse): the client may still be sending
    uint64_t drained = 0;
    Clock::time_point linger_end;  // the latest moment a drain may last
    int served = 0;
    Clock::time_point deadline;
    std::shared_ptr<exec::CancelToken> closed;
  };
  struct Job {
    int fd;
    uint64_t id;
    HttpRequest req;
    bool close;
  };
  struct Done {
    int fd;
    uint64_t id;
    std::string bytes;
    bool close;
  };

  HttpLimits limits;
  HttpHandler handler;
  int listen_fd = -1;
  int epoll_fd = -1;
  int wake_fd = -1;
  std::atomic<bool> stopping{false};
  std::thread thread;
  std::vector<std::thread> workers;
  std::map<int, std::unique_ptr<Conn>> conns;
  std::map<std::string, int> per_peer;
  uint64_t next_id = 1;

  std::mutex mu;  // guards jobs, done, workers_stop
  std::condition_variable cv;
  std::deque<Job> jobs;
  std::vector<Done> done;
  bool workers_stop = false;

  void Wake() {
    uint64_t one = 1;
    (void)!::write(wake_fd, &one, sizeof one);
  }

  void Run() {
    epoll_event evs[64];
    auto last_sweep = Clock::now();
    while (!stopping) {
      int n = ::epoll_wait(epoll_fd, evs, 64, 100);
      for (int i = 0; i < n; ++i) {
        int fd = evs[i].data.fd;
        if (fd == listen_fd) {
          Accept();
        } else if (fd == wake_fd) {
          uint64_t v;
          (void)!::read(wake_fd, &v, sizeof v);
          Completions();
        } else {
          Event(fd, evs[i].events);
        }
      }
      auto now = Clock::now();
      if (now - last_sweep >= std::chrono::milliseconds(100)) {
        last_sweep = now;
        Sweep(now);
      }
    }
    std::vector<int> fds;
    for (auto& [fd, c] : conns) fds.push_back(fd);
    for (int fd : fds) Close(fd);
  }

  void Accept() {
    while (true) {
      sockaddr_storage ss{};
      socklen_t len = sizeof ss;
      int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or EMFILE: the connection waits in the backlog
      std::string peer = PeerAddress(ss);
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (conns.size() >= limits.max_connections ||
          per_peer[peer] >= static_cast<int>(limits.max_connections_per_client)) {
        // Best effort: a short refusal the client can read, then close.
        std::string r = Serialize(
            ErrorResponse(503, "resource_exhausted",
                          "too many open connections (limits: " + std::to_string(limits.max_connections) +
                              " in all, " + std::to_string(limits.max_connections_per_client) +
                              " per client)"),
            true);
        (void)!::send(fd, r.data(), r.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        ::close(fd);
        if (per_peer[peer] == 0) per_peer.erase(peer);
        continue;
      }
      auto c = std::make_unique<Conn>();
      c->id = next_id++;
      c->fd = fd;
      c->peer = peer;
      c->deadline = Clock::now() + std::chrono::milliseconds(limits.header_timeout_ms);
      epoll_event ev{};
      ev.events = EPOLLIN | EPOLLRDHUP;
      ev.data.fd = fd;
      ::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev);
      ++per_peer[peer];
      conns[fd] = std::move(c);
    }
  }

  void Close(int fd) {
    auto it = conns.find(fd);
    if (it == conns.end()) return;
    if (it->second->closed) it->second->closed->Cancel();
    ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
    ::close(fd);
    auto p = per_peer.find(it->second->peer);
    if (p != per_peer.end() && --p->second <= 0) per_peer.erase(p);
    conns.erase(it);
  }

  void Watch(Conn& c, uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    ev.data.fd = c.fd;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c.fd, &ev);
  }

  void Event(int fd, uint32_t events) {
    auto it = conns.find(fd);
    if (it == conns.end()) return;
    Conn& c = *it->second;
    if (c.state == State::kBusy) {
      // The client went away while its request runs: tell the handler (cancellation), close when done.
      if (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
        if (c.closed) c.closed->Cancel();
        c.close_after = true;
        ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);  // HUP would otherwise be reported again and again
      }
      return;
    }
    if (c.state == State::kWrite) {
      if (events & (EPOLLHUP | EPOLLERR)) return Close(fd);
      return Flush(c);
    }
    if (c.state == State::kDrain) return Drain(c);
    // Reading a head or a body.
    bool was_empty = c.in.empty();
    char buf[65536];
    while (true) {
      ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n > 0) {
        c.in.append(buf, static_cast<size_t>(n));
        if (c.in.size() > limits.max_header_bytes + limits.max_body_bytes + sizeof buf) break;
        continue;
      }
      if (n == 0) return Close(fd);
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR) continue;
      return Close(fd);
    }
    if (c.state == State::kHead && was_empty && !c.in.empty())
      c.deadline = Clock::now() + std::chrono::milliseconds(limits.header_timeout_ms);
    Process(c);
  }

  // Answers at once (an error found by the loop) and closes after writing, lingering: the request's body
  // (or the rest of its head) may still be on its way.
  void Refuse(Conn& c, const HttpResponse& res) {
    c.out = Serialize(res, true);
    c.out_off = 0;
    c.close_after = true;
    c.linger = true;
    c.state = State::kWrite;
    c.deadline = Clock::now() + std::chrono::milliseconds(limits.write_timeout_ms);
    Flush(c);
  }

  void Process(Conn& c) {
    if (c.state == State::kHead) {
      size_t end = c.in.find("\r\n\r\n");
      if (end == std::string::npos || end > limits.max_header_bytes) {
        if (c.in.size() > limits.max_header_bytes || end != std::string::npos)
          Refuse(c, ErrorResponse(431, "resource_exhausted",
                                  "the request head is over the limit of " +
                                      std::to_string(limits.max_header_bytes) + " bytes"));
        return;
      }
      HeadError err;
      c.req = HttpRequest();
      if (!ParseRequestHead(std::string_view(c.in).substr(0, end), &c.req, &err))
        return Refuse(c, ErrorResponse(err.status, "invalid_argument", err.message));
      c.in.erase(0, end + 4);
      c.req.peer = c.peer;
      if (c.req.HasHeader("transfer-encoding"))
        return Refuse(c, ErrorResponse(411, "unsupported",
                                       "chunked request bodies are not accepted; send Content-Length"));
      std::string cl = c.req.Header("content-length");
      uint64_t len = 0;
      if (!cl.empty()) {
        char* stop = nullptr;
        errno = 0;
        len = std::strtoull(cl.c_str(), &stop, 10);
        if (*stop != '\0' || errno != 0 || !std::isdigit(static_cast<unsigned char>(cl[0])))
          return Refuse(c, ErrorResponse(400, "invalid_argument", "malformed Content-Length '" + cl + "'"));
      }
      if (len > limits.max_body_bytes)
        return Refuse(
            c, ErrorResponse(413, "resource_exhausted",
                             "the request body of " + std::to_string(len) + " bytes is over the limit of " +
                                 std::to_string(limits.max_body_bytes) + " bytes (--max-body-bytes)"));
      c.body_len = len;
      c.state = State::kBody;
      c.deadline = Clock::now() + std::chrono::milliseconds(limits.body_timeout_ms);
      if (ToLowerAscii(c.req.Header("expect")) == "100-continue" && c.in.size() < len) {
        static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)!::send(c.fd, kContinue, sizeof kContinue - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      }
    }
    if (c.state == State::kBody) {
      if (c.in.size() < c.body_len) return;
      c.req.body = c.in.substr(0, c.body_len);
      c.in.erase(0, c.body_len);
      std::string conn_hdr = ToLowerAscii(c.req.Header("connection"));
      bool http10 = c.req.HasHeader(":version");
      bool close = conn_hdr == "close" || (http10 && conn_hdr != "keep-alive") ||
                   c.served + 1 >= static_cast<int>(limits.max_requests_per_connection);
      c.closed = std::make_shared<exec::CancelToken>();
      c.req.closed = c.closed;
      c.state = State::kBusy;
      Watch(c, EPOLLRDHUP);
      {
        std::lock_guard<std::mutex> lock(mu);
        if (jobs.size() < limits.max_queued) {
          jobs.push_back(Job{c.fd, c.id, std::move(c.req), close});
          cv.notify_one();
          return;
        }
      }
      Refuse(c, ErrorResponse(503, "unavailable",
                              "the server is busy (" + std::to_string(limits.max_queued) +
                                  " requests already wait for a worker); retry shortly"));
    }
  }

  void Flush(Conn& c) {
    while (c.out_off < c.out.size()) {
      ssize_t n = ::send(c.fd, c.out.data() + c.out_off, c.out.size() - c.out_off, MSG_NOSIGNAL);
      if (n > 0) {
        c.out_off += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        Watch(c, EPOLLOUT | EPOLLRDHUP);
        return;
      }
      return Close(c.fd);
    }
    if (c.close_after) return c.linger ? Linger(c) : Close(c.fd);
    // Keep-alive: wait for the next request (bytes already read are a pipelined request).
    ++c.served;
    c.out.clear();
    c.out_off = 0;
    c.closed.reset();
    c.state = State::kHead;
    c.deadline = Clock::now() +
                 std::chrono::milliseconds(c.in.empty() ? limits.idle_timeout_ms : limits.header_timeout_ms);
    Watch(c, EPOLLIN | EPOLLRDHUP);
    if (!c.in.empty()) Process(c);
  }

  // Closing a socket with unread bytes makes the kernel send a reset, and a client still sending its body
  // then fails with ECONNRESET/EPIPE before it reads the refusal already written. So, as nginx does: shut
  // the sending side (the client sees the end of the answer), read and drop what arrives until the client
  // closes, goes quiet for linger_ms, sends max_linger_bytes, or the body timeout passes; then close.
  void Linger(Conn& c) {
    ::shutdown(c.fd, SHUT_WR);
    c.state = State::kDrain;
    c.in.clear();
    c.drained = 0;
    auto now = Clock::now();
    c.linger_end = now + std::chrono::milliseconds(limits.body_timeout_ms);
    c.deadline = std::min(c.linger_end, now + std::chrono::milliseconds(limits.linger_ms));
    Watch(c, EPOLLIN | EPOLLRDHUP);
    Drain(c);
  }

  void Drain(Conn& c) {
    char buf[65536];
    while (true) {
      ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        c.drained += static_cast<uint64_t>(n);
        if (c.drained > limits.max_linger_bytes) return Close(c.fd);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      return Close(c.fd);  // the client closed (0) or the connection failed
    }
    c.deadline = std::min(c.linger_end, Clock::now() + std::chrono::milliseconds(limits.linger_ms));
  }

  void Completions() {
    std::vector<Done> ready;
    {
      std::lock_guard<std::mutex> lock(mu);
      ready.swap(done);
    }
    for (auto& d : ready) {
      auto it = conns.find(d.fd);
      if (it == conns.end() || it->second->id != d.id) continue;  // the client left meanwhile
      Conn& c = *it->second;
      c.out = std::move(d.bytes);
      c.out_off = 0;
      c.close_after = c.close_after || d.close;
      c.state = State::kWrite;
      c.deadline = Clock::now() + std::chrono::milliseconds(limits.write_timeout_ms);
      Flush(c);
    }
  }

  void Sweep(Clock::time_point now) {
    std::vector<int> expired;
    for (auto& [fd, c] : conns) {
      if (c->state != State::kBusy && now > c->deadline) expired.push_back(fd);
    }
    for (int fd : expired) {
      Conn& c = *conns[fd];
      if ((c.state == State::kHead && !c.in.empty()) || c.state == State::kBody) {
        // A request that did not arrive in time: say so (best effort), then close.
        std::string r = Serialize(
            ErrorResponse(408, "timeout",
                          c.state == State::kBody ? "the request body did not arrive within " +
                                                        std::to_string(limits.body_timeout_ms) + " ms"
                                                  : "the request head did not arrive within " +
                                                        std::to_string(limits.header_timeout_ms) + " ms"),
            true);
        (void)!::send(fd, r.data(), r.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      Close(fd);
    }
  }

  void Work() {
    while (true) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [this] { return workers_stop || !jobs.empty(); });
        if (jobs.empty()) return;
        job = std::move(jobs.front());
        jobs.pop_front();
      }
      HttpResponse res;
      try {
        handler(job.req, res);
      } catch (const std::exception& e) {
        res = ErrorResponse(500, "internal", std::string("unhandled exception: ") + e.what());
      }
      std::string bytes = Serialize(res, job.close);
      {
        std::lock_guard<std::mutex> lock(mu);
        done.push_back(Done{job.fd, job.id, std::move(bytes), job.close});
      }
      Wake();
    }
  }
};

HttpCore::HttpCore(HttpLimits limits, HttpHandler handler) : limits_(limits), handler_(std::move(handler)) {}

HttpCore::~HttpCore() {
  Stop();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

Status HttpCore::Bind(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  std::string h = host == "localhost" ? "127.0.0.1" : host;
  int rc = ::getaddrinfo(h.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) return InvalidArgument("cannot resolve listen host '" + host + "': " + ::gai_strerror(rc));
  std::string where =
      (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
  int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    ::freeaddrinfo(res);
    return ErrnoStatus(errno, "socket for " + where);
  }
  // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT; on Linux it never
  // lets two sockets listen on one port. SO_REUSEPORT (which would) is deliberately not set.
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd, res->ai_addr, res->ai_addrlen) != 0) {
    int e = errno;
    ::freeaddrinfo(res);
    ::close(fd);
    if (e == EADDRINUSE)
      return Status(ErrorCode::kAlreadyExists,
                    "cannot listen on " + where + ": address in use (another process listens on that port)");
    return ErrnoStatus(e, "cannot listen on " + where);
  }
  ::freeaddrinfo(res);
  if (::listen(fd, limits_.backlog) != 0) {
    int e = errno;
    ::close(fd);
    return ErrnoStatus(e, "listen on " + where);
  }
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  port_ = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                   : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  listen_fd_ = fd;
  return Status::Ok();
}

void HttpCore::Start() {
  loop_ = std::make_unique<Loop>();
  Loop& l = *loop_;
  l.limits = limits_;
  l.handler = handler_;
  l.listen_fd = listen_fd_;
  l.epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  l.wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  for (int fd : {l.listen_fd, l.wake_fd}) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    ::epoll_ctl(l.epoll_fd, EPOLL_CTL_ADD, fd, &ev);
  }
  for (size_t i = 0; i < std::max<size_t>(1, limits_.workers); ++i)
    l.workers.emplace_back([&l] { l.Work(); });
  l.thread = std::thread([&l] { l.Run(); });
}

void HttpCore::Stop() {
  if (!loop_) return;
  Loop& l = *loop_;
  l.stopping = true;
  l.Wake();
  if (l.thread.joinable()) l.thread.join();
  {
    std::lock_guard<std::mutex> lock(l.mu);
    l.workers_stop = true;
    l.jobs.clear();
  }
  l.cv.notify_all();
  for (auto& t : l.workers)
    if (t.joinable()) t.join();
  ::close(l.epoll_fd);
  ::close(l.wake_fd);
  loop_.reset();
}

}  // namespace lakeqa::server
