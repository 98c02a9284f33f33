// Record/replay cassettes: a JSONL file of {"key": sha256(canonical request), "response": ...}. Recording
// wraps a live client and appends every answered request; replay answers from the file alone, so a run is
// re-played bit-for-bit offline. Entries with the same key are served in recorded order.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "lakeqa/llm/chat.h"

namespace lakeqa::llm {

// Hex SHA-256 of the request's stable parts: model, system prompt, tool schemas, tool_choice, the first
// message (the task's question) and the turn's position (assistant messages so far). Tool results are
// left out on purpose: they carry sandbox paths and the remaining-time line, which differ between runs,
// and a replayed run must still find its answers. The full request's hash is stored beside each entry.
std::string RequestKey(const ChatRequest& request);

enum class CassetteMode { kRecord, kReplay };

class CassetteClient : public ChatClient {
 public:
  // kRecord: `inner` answers; each answer is appended (one flushed, fsynced line) to `path`.
  // kReplay: `inner` may be null; a request not in the file is kNotFound naming its key.
  static Result<std::unique_ptr<CassetteClient>> Open(const std::string& path, CassetteMode mode,
                                                      std::unique_ptr<ChatClient> inner);
  ~CassetteClient() override;

  Result<ChatResponse> Complete(const ChatRequest& request) override;
  std::string Provider() const override;
  size_t recorded() const { return entries_; }

 private:
  CassetteClient() = default;
  std::string path_;
  CassetteMode mode_ = CassetteMode::kReplay;
  std::unique_ptr<ChatClient> inner_;
  std::map<std::string, std::deque<Json>> replay_;
  std::mutex mu_;
  int fd_ = -1;
  size_t entries_ = 0;
};

}  // namespace lakeqa::llm
