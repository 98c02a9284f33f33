// Cassettes: JSONL of {"key", "request_model", "response"}; appended with one write + fsync per entry so a
// killed run keeps every answer it paid for.
#include "lakeqa/llm/cassette.h"

#include <cerrno>

#include <fcntl.h>
#include <openssl/sha.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/lines.h"
#include "lakeqa/common/posix_io.h"

namespace lakeqa::llm {

namespace {
std::string Sha256Hex(const std::string& text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : digest) out += kHex[c >> 4], out += kHex[c & 15];
  return out;
}
}  // namespace

std::string RequestKey(const ChatRequest& request) {
  Json full = request.ToJson();
  size_t assistant_turns = 0;
  for (const Message& m : request.messages) assistant_turns += m.role == Role::kAssistant;
  Json key = {
      {"model", full["model"]},  {"system", full["system"]},
      {"tools", full["tools"]},  {"first_message", request.messages.empty() ? Json() : full["messages"][0]},
      {"turn", assistant_turns}, {"tool_choice", full["tool_choice"]}};
  return Sha256Hex(key.dump());
}

Result<std::unique_ptr<CassetteClient>> CassetteClient::Open(const std::string& path, CassetteMode mode,
                                                             std::unique_ptr<ChatClient> inner) {
  std::unique_ptr<CassetteClient> c(new CassetteClient());
  c->path_ = path;
  c->mode_ = mode;
  c->inner_ = std::move(inner);
  if (mode == CassetteMode::kRecord && c->inner_ == nullptr) {
    return InvalidArgument("cassette " + path + ": recording needs a live client");
  }
  if (PathExists(path)) {
    LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    LineReader reader(text);
    while (reader.Next()) {
      Json j = Json::parse(reader.line(), nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j.contains("response")) {
        // A torn last line is what a kill during an append leaves; anything else is damage.
        if (!reader.complete()) break;
        return ParseError("cassette " + path + ":" + std::to_string(reader.number()) +
                          ": not a cassette entry");
      }
      c->replay_[j["key"].get<std::string>()].push_back(j["response"]);
      ++c->entries_;
    }
  } else if (mode == CassetteMode::kReplay) {
    return NotFound("cassette " + path + ": no such file (record one with --record)");
  }
  if (mode == CassetteMode::kRecord) {
    c->fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (c->fd_ < 0) return ErrnoStatus(errno, "cassette " + path);
  }
  return c;
}

CassetteClient::~CassetteClient() {
  if (fd_ >= 0) ::close(fd_);
}

std::string CassetteClient::Provider() const { return inner_ ? inner_->Provider() : "cassette"; }

Result<ChatResponse> CassetteClient::Complete(const ChatRequest& request) {
  std::string key = RequestKey(request);
  {
    // Entries already on file answer first, in recorded order, in both modes: re-running a recorded
    // run spends nothing on the turns it already paid for.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = replay_.find(key);
    if (it != replay_.end() && !it->second.empty()) {
      Json resp = std::move(it->second.front());
      it->second.pop_front();
      return ChatResponse::FromJson(resp);
    }
  }
  if (mode_ == CassetteMode::kReplay) {
    return NotFound("cassette " + path_ + ": no recorded response for request " + key + " (model " +
                    request.model + ", " + std::to_string(request.messages.size()) + " messages)");
  }
  LAKEQA_ASSIGN_OR_RETURN(ChatResponse resp, inner_->Complete(request));
  std::string line = Json{{"key", key},
                          {"model", request.model},
                          {"request_sha256", Sha256Hex(request.ToJson().dump())},
                          {"response", resp.ToJson()}}
                         .dump() +
                     "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (!WriteFully(fd_, line)) return ErrnoStatus(errno, "cassette " + path_);
  ::fsync(fd_);
  ++entries_;
  return resp;
}

}  // namespace lakeqa::llm
