#include <random>

#include <fcntl.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/server/server.h"

namespace lakeqa::server {
namespace {

// 128 random bits as hex: session ids are capabilities over HTTP, so they must not be guessable.
std::string RandomId() {
  unsigned char b[16];
  bool ok = false;
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ok = ::read(fd, b, sizeof b) == static_cast<ssize_t>(sizeof b);
    ::close(fd);
  }
  if (!ok) {
    std::random_device rd;
    for (auto& x : b)
      x = static_cast<unsigned char>(rd());
  }
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (unsigned char c : b) {
    s.push_back(kHex[c >> 4]);
    s.push_back(kHex[c & 15]);
  }
  return s;
}

}  // namespace

SessionManager::SessionManager(tools::ToolSet& tools, std::string sessions_dir, tools::SessionLimits limits,
                               size_t max_sessions)
    : tools_(tools), dir_(std::move(sessions_dir)), limits_(limits), max_sessions_(max_sessions) {}

SessionManager::~SessionManager() = default;

Result<std::shared_ptr<tools::Session>> SessionManager::Create() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (sessions_.size() >= max_sessions_)
      return ResourceExhausted("too many open sessions (" + std::to_string(max_sessions_) +
                               "); close some first");
  }
  std::string id = RandomId();
  LAKEQA_ASSIGN_OR_RETURN(auto s, tools::Session::Create(dir_, id, limits_));
  std::shared_ptr<tools::Session> shared(std::move(s));
  std::lock_guard<std::mutex> lock(mu_);
  sessions_[id] = shared;
  return shared;
}

Result<std::shared_ptr<tools::Session>> SessionManager::Get(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return NotFound("no session '" + id + "' (create one with POST /v1/sessions)");
  return it->second;
}

Status SessionManager::Close(const std::string& id) {
  std::shared_ptr<tools::Session> s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return NotFound("no session '" + id + "'");
    s = it->second;
    sessions_.erase(it);
  }
  // Wait for a call in flight to finish before removing its files.
  std::lock_guard<std::mutex> busy(s->mutex());
  return RemoveAll(s->dir());
}

size_t SessionManager::size() {
  std::lock_guard<std::mutex> lock(mu_);
  return sessions_.size();
}

}  // namespace lakeqa::server
