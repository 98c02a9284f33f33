#include "lakeqa/exec/sandbox.h"

namespace lakeqa::exec {

void CancelToken::Cancel() {
  std::lock_guard lock(mu_);
  if (cancelled_.exchange(true)) return;
  for (auto& [id, fn] : hooks_) fn();
}

CancelToken::Hook CancelToken::OnCancel(std::function<void()> fn) {
  std::lock_guard lock(mu_);
  if (cancelled_.load()) fn();
  uint64_t id = next_++;
  hooks_.emplace(id, std::move(fn));
  return Hook(this, id);
}

CancelToken::Hook::~Hook() {
  if (token_ == nullptr) return;
  std::lock_guard lock(token_->mu_);
  token_->hooks_.erase(id_);
}

}  // namespace lakeqa::exec
