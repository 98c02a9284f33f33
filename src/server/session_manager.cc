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
    for (auto& x : b) x = static_cast<unsigned char>(rd());
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
                               SessionPolicy policy)
    : tools_(tools), dir_(std::move(sessions_dir)), limits_(limits), policy_(policy) {}

SessionManager::~SessionManager() = default;

Result<std::shared_ptr<tools::Session>> SessionManager::Create(const std::string& client) {
  (void)SweepExpired();
  {
    std::lock_guard<std::mutex> lock(mu_);
    size_t all = 0, mine = 0;
    for (const auto& [id, e] : sessions_) {
      all += e.counted ? 1 : 0;
      mine += e.counted && !client.empty() && e.client == client ? 1 : 0;
    }
    if (all >= policy_.max_sessions)
      return ResourceExhausted("too many open sessions (" + std::to_string(policy_.max_sessions) +
                               ", --max-sessions); close some first or wait for idle ones to expire after " +
                               std::to_string(policy_.idle_ttl_s) + " s");
    if (!client.empty() && mine >= policy_.max_per_client)
      return ResourceExhausted("client " + client + " already has " + std::to_string(mine) +
                               " open sessions (--max-sessions-per-client); close some first");
  }
  return Add(client, true);
}

Result<std::shared_ptr<tools::Session>> SessionManager::CreateForCall() { return Add("", false); }

Result<std::shared_ptr<tools::Session>> SessionManager::Add(const std::string& client, bool counted) {
  std::string id = RandomId();
  LAKEQA_ASSIGN_OR_RETURN(auto s, tools::Session::Create(dir_, id, limits_));
  std::shared_ptr<tools::Session> shared(std::move(s));
  std::lock_guard<std::mutex> lock(mu_);
  sessions_[id] = Entry{shared, client, std::chrono::steady_clock::now(), counted};
  return shared;
}

Result<std::shared_ptr<tools::Session>> SessionManager::Get(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end())
    return NotFound("no session '" + id + "' (closed, expired after " + std::to_string(policy_.idle_ttl_s) +
                    " s idle, or never created)");
  it->second.last_used = std::chrono::steady_clock::now();
  return it->second.session;
}

Status SessionManager::Close(const std::string& id) {
  std::shared_ptr<tools::Session> s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return NotFound("no session '" + id + "'");
    s = it->second.session;
    sessions_.erase(it);
  }
  // Wait for a call in flight to finish before removing its files.
  std::lock_guard<std::mutex> busy(s->mutex());
  return RemoveAll(s->dir());
}

std::vector<std::string> SessionManager::SweepExpired() {
  std::vector<std::shared_ptr<tools::Session>> gone;
  std::vector<std::string> ids;
  if (policy_.idle_ttl_s <= 0) return ids;
  auto cutoff = std::chrono::steady_clock::now() - std::chrono::seconds(policy_.idle_ttl_s);
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      // A session in a call is in use, however long the call takes.
      std::unique_lock<std::mutex> busy(it->second.session->mutex(), std::try_to_lock);
      // Sessions without a client (stdio's, in-process ones) last as long as the process.
      if (busy.owns_lock() && !it->second.client.empty() && it->second.last_used < cutoff) {
        busy.unlock();
        ids.push_back(it->first);
        gone.push_back(it->second.session);
        it = sessions_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& s : gone) {
    std::lock_guard<std::mutex> busy(s->mutex());
    (void)RemoveAll(s->dir());
  }
  return ids;
}

size_t SessionManager::size() {
  std::lock_guard<std::mutex> lock(mu_);
  return sessions_.size();
}

}  // namespace lakeqa::server
