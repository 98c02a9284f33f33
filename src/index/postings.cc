#include "index/postings.h"

namespace lakeqa::index {

void PostingCursor::Init(const Segment& seg, const TermInfo& info) {
  num_docs_ = seg.num_docs();
  df_ = info.df;
  num_blocks_ = (df_ + kBlockSize - 1) / kBlockSize;
  skips_ = seg.postings() + info.postings_off;
  data_ = skips_ + static_cast<uint64_t>(num_blocks_) * kSkipEntrySize;
  end_ = seg.postings() + seg.postings_size();
  corrupt_ = false;
  shallow_ = 0;
  LoadBlock(0);
}

void PostingCursor::Fail() {
  corrupt_ = true;
  doc_ = kEnd;
  block_ = shallow_ = num_blocks_;
  n_ = idx_ = 0;
}

void PostingCursor::LoadBlock(uint32_t block) {
  if (block >= num_blocks_) {
    doc_ = kEnd;
    block_ = num_blocks_;
    shallow_ = num_blocks_ > 0 ? num_blocks_ - 1 : 0;
    return;
  }
  block_ = block;
  if (shallow_ < block) shallow_ = block;
  n_ = std::min<uint32_t>(kBlockSize, df_ - block * kBlockSize);
  const uint8_t* p = data_ + SkipU32(block, 4);
  if (p >= end_) return Fail();
  uint32_t prev = block == 0 ? 0 : SkipU32(block - 1, 0);
  for (uint32_t i = 0; i < n_; ++i) {
    uint32_t delta;
    p = GetVarint32(p, end_, &delta);
    if (p == nullptr || (i + block > 0 && delta == 0)) return Fail();
    prev += delta;
    docs_[i] = prev;
  }
  for (uint32_t i = 0; i < n_; ++i) {
    p = GetVarint32(p, end_, &tfs_[i]);
    if (p == nullptr || tfs_[i] == 0) return Fail();
  }
  if (docs_[n_ - 1] != SkipU32(block, 0) || docs_[n_ - 1] >= num_docs_) return Fail();
  pos_ptr_ = p;
  pos_idx_ = 0;
  pos_loaded_for_ = -1;
  idx_ = 0;
  doc_ = docs_[0];
}

void PostingCursor::Next() {
  if (doc_ == kEnd) return;
  if (++idx_ < n_) {
    doc_ = docs_[idx_];
    return;
  }
  LoadBlock(block_ + 1);
}

bool PostingCursor::ShallowAdvance(uint32_t target) {
  if (shallow_ < block_) shallow_ = block_;
  while (shallow_ < num_blocks_ && SkipU32(shallow_, 0) < target) ++shallow_;
  if (shallow_ >= num_blocks_) {
    shallow_ = num_blocks_ - 1;
    return false;
  }
  return true;
}

void PostingCursor::Advance(uint32_t target) {
  if (doc_ >= target) return;
  if (SkipU32(block_, 0) < target) {
    uint32_t b = block_ + 1;
    while (b < num_blocks_ && SkipU32(b, 0) < target) ++b;
    LoadBlock(b);
    if (doc_ == kEnd) return;
  }
  while (docs_[idx_] < target) ++idx_;  // the block's last doc is >= target
  doc_ = docs_[idx_];
}

const std::vector<uint32_t>& PostingCursor::Positions() {
  if (pos_loaded_for_ == static_cast<int64_t>(idx_)) return positions_;
  positions_.clear();
  if (doc_ == kEnd) return positions_;
  // Positions of earlier docs in the block are skipped, never decoded into the buffer.
  while (pos_idx_ < idx_) {
    for (uint32_t j = 0; j < tfs_[pos_idx_]; ++j) {
      uint32_t skip;
      pos_ptr_ = GetVarint32(pos_ptr_, end_, &skip);
      if (pos_ptr_ == nullptr) {
        Fail();
        return positions_;
      }
    }
    ++pos_idx_;
  }
  uint32_t prev = 0;
  for (uint32_t j = 0; j < tfs_[idx_]; ++j) {
    uint32_t delta;
    pos_ptr_ = GetVarint32(pos_ptr_, end_, &delta);
    if (pos_ptr_ == nullptr) {
      Fail();
      positions_.clear();
      return positions_;
    }
    prev += delta;
    positions_.push_back(prev);
  }
  ++pos_idx_;
  pos_loaded_for_ = idx_;
  return positions_;
}

}  // namespace lakeqa::index
