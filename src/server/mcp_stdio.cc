// MCP over stdio. The reader answers quick methods itself, in order; tools/call runs on its own thread so
// that a ping (or a notifications/cancelled for that very call) is handled while the tool runs.
#include <condition_variable>
#include <thread>

#include "server/mcp_internal.h"

namespace lakeqa::server {

namespace {
// Tool calls running at once; the reader waits for a free slot before it starts another.
constexpr int kMaxConcurrentCalls = 16;
}  // namespace

Status RunMcpStdio(SessionManager& sessions, std::istream& in, std::ostream& out, InputLimits limits) {
  McpConnection conn(sessions, limits, "");
  std::mutex out_mu;
  auto write = [&](const Json& j) {
    std::lock_guard<std::mutex> lock(out_mu);
    out << DumpJson(j) << "\n";
    out.flush();
  };
  McpCallContext ctx;
  ctx.notify = write;
  std::mutex run_mu;
  std::condition_variable run_cv;
  int running = 0;

  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto parsed = ParseJsonBounded(line, "JSON-RPC message", limits.json);
    if (!parsed.ok()) {
      write(mcp::RpcError(nullptr,
                          parsed.status().code() == ErrorCode::kParseError ? mcp::kParseError : mcp::kInvalidRequest,
                          parsed.status().message()));
      continue;
    }
    Json msg = std::move(*parsed);
    bool async = msg.is_object() && msg.contains("id") && msg.value("method", "") == "tools/call";
    if (!async) {
      if (auto r = conn.Handle(msg, ctx)) write(*r);
      continue;
    }
    {
      std::unique_lock<std::mutex> lock(run_mu);
      run_cv.wait(lock, [&] { return running < kMaxConcurrentCalls; });
      ++running;
    }
    std::thread([&, msg = std::move(msg)] {
      if (auto r = conn.Handle(msg, ctx)) write(*r);
      std::lock_guard<std::mutex> lock(run_mu);
      --running;
      run_cv.notify_all();
    }).detach();
  }
  // End of input: answer what is running (the client may have sent its last requests and closed).
  std::unique_lock<std::mutex> lock(run_mu);
  run_cv.wait(lock, [&] { return running == 0; });
  // The session (its sandbox and trace) stays: the caller decides whether to keep the folder.
  return Status::Ok();
}

}  // namespace lakeqa::server
