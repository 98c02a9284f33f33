// MCP over stdio. The reader answers quick methods itself, in order; tools/call runs on its own thread so
// that a ping (or a notifications/cancelled for that very call) is handled while the tool runs.
#include <condition_variable>
#include <set>
#include <thread>

#include <pthread.h>
#include <signal.h>

#include "server/mcp_internal.h"

namespace lakeqa::server {

namespace {
// Tool calls running at once; the reader waits for a free slot before it starts another.
constexpr int kMaxConcurrentCalls = 16;
// How much of each end of an oversized line is kept to find its id (FindJsonRpcId).
constexpr size_t kIdWindow = 64 << 10;

// One line of input, never holding more than `max` bytes of it: a longer line is read to its end and
// dropped, keeping only its first and last kIdWindow bytes.
struct Line {
  std::string text;
  bool oversized = false;
  uint64_t bytes = 0;
  std::string head, tail;
};

// False at the end of input with nothing read. Like std::getline, a last line without '\n' counts.
bool ReadLine(std::istream& in, uint64_t max, Line* line) {
  line->text.clear();
  line->head.clear();
  line->tail.clear();
  line->oversized = false;
  line->bytes = 0;
  std::streambuf* sb = in.rdbuf();
  bool any = false;
  while (true) {
    int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    ++line->bytes;
    char ch = static_cast<char>(c);
    if (!line->oversized) {
      line->text.push_back(ch);
      if (line->text.size() <= max) continue;
      line->oversized = true;
      line->head = line->text.substr(0, kIdWindow);
      line->tail = line->text.substr(line->text.size() - std::min(line->text.size(), kIdWindow));
      std::string().swap(line->text);
      continue;
    }
    line->tail.push_back(ch);
    if (line->tail.size() >= 2 * kIdWindow) line->tail.erase(0, line->tail.size() - kIdWindow);
  }
}

// Writes one line without SIGPIPE: a client that closed our stdout makes the write fail (EPIPE) instead of
// killing the process, whose temporary folders would stay behind. The signal is blocked in this thread for
// the write only, and one it raised is consumed, so sandboxes forked by other threads keep the default.
bool WriteLine(std::ostream& out, const std::string& text) {
  sigset_t pipe, old;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &old);
  out << text << "\n";
  out.flush();
  bool ok = static_cast<bool>(out);
  if (!ok && !sigismember(&old, SIGPIPE)) {
    timespec none{0, 0};
    (void)sigtimedwait(&pipe, nullptr, &none);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

}  // namespace

Status RunMcpStdio(SessionManager& sessions, std::istream& in, std::ostream& out, InputLimits limits) {
  McpConnection conn(sessions, limits, "");
  std::mutex out_mu;
  bool out_broken = false;  // the client closed our stdout (EPIPE): nobody reads answers any more
  auto write = [&](const Json& j) {
    std::lock_guard<std::mutex> lock(out_mu);
    if (!out_broken && !WriteLine(out, DumpJson(j))) out_broken = true;
  };
  auto broken = [&] {
    std::lock_guard<std::mutex> lock(out_mu);
    return out_broken;
  };
  McpCallContext ctx;
  ctx.notify = write;
  std::mutex run_mu;
  std::condition_variable run_cv;
  int running = 0;
  std::set<std::shared_ptr<exec::CancelToken>> calls;  // of the running tools/call, to stop them all
  auto wait_for_calls = [&](bool cancel) {
    std::unique_lock<std::mutex> lock(run_mu);
    if (cancel)
      for (const auto& t : calls) t->Cancel();
    run_cv.wait(lock, [&] { return running == 0; });
  };

  Status ended = Status::Ok();
  Line line;
  while (!broken() && ReadLine(in, limits.json.max_bytes, &line)) {
    if (line.oversized) {
      std::string why = "JSON-RPC message: " + std::to_string(line.bytes) + " bytes is over the limit of " +
                        std::to_string(limits.json.max_bytes) + " bytes (--max-body-bytes)";
      // The client waits for an answer with this id: without it, it would wait for its own timeout.
      Json id = mcp::FindJsonRpcId(line.head, line.tail);
      if (!id.is_null()) {
        write(mcp::RpcError(id, mcp::kInvalidRequest, why));
        continue;
      }
      // No reply can name the request, so the connection ends: the client sees it closed at once.
      ended = ResourceExhausted(why + ", and its id could not be read (looked for in its first and last " +
                                std::to_string(kIdWindow >> 10) + " KiB): closing the connection");
      break;
    }
    if (line.text.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto parsed = ParseJsonBounded(line.text, "JSON-RPC message", limits.json);
    if (!parsed.ok()) {
      write(mcp::RpcError(
          nullptr, parsed.status().code() == ErrorCode::kParseError ? mcp::kParseError : mcp::kInvalidRequest,
          parsed.status().message()));
      continue;
    }
    Json msg = std::move(*parsed);
    bool async = msg.is_object() && msg.contains("id") && msg.value("method", "") == "tools/call";
    if (!async) {
      if (auto r = conn.Handle(msg, ctx)) write(*r);
      continue;
    }
    auto token = std::make_shared<exec::CancelToken>();
    {
      std::unique_lock<std::mutex> lock(run_mu);
      run_cv.wait(lock, [&] { return running < kMaxConcurrentCalls; });
      ++running;
      calls.insert(token);
    }
    std::thread([&, token, msg = std::move(msg)] {
      McpCallContext call_ctx = ctx;
      call_ctx.cancelled = token;  // notifications/cancelled for this id sets it too
      if (auto r = conn.Handle(msg, call_ctx)) write(*r);
      std::lock_guard<std::mutex> lock(run_mu);
      calls.erase(token);
      --running;
      run_cv.notify_all();
    }).detach();
  }
  if (ended.ok() && broken())
    ended = Status(ErrorCode::kNetworkError,
                   "standard output was closed by the client: no answer can be delivered");
  // End of input: answer what is running (the client may have sent its last requests and closed). A
  // connection that ends for another reason stops its calls: their answers could not be sent.
  wait_for_calls(!ended.ok());
  // The session (its sandbox and trace) stays: the caller decides whether to keep the folder.
  return ended;
}

}  // namespace lakeqa::server
