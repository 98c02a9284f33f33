// Iterates one term's postings in one segment, a block of 128 documents at a time. The skip entries
// (last doc, max tf, min length per block) let Advance jump over blocks without decoding them and give
// the searcher block-level score upper bounds.
#pragma once

#include <cstdint>
#include <vector>

#include "index/segment.h"

namespace lakeqa::index {

class PostingCursor {
 public:
  static constexpr uint32_t kEnd = UINT32_MAX;

  void Init(const Segment& seg, const TermInfo& info);
  uint32_t doc() const { return doc_; }
  uint32_t tf() const { return tfs_[idx_]; }
  uint32_t df() const { return df_; }
  void Next();
  // Moves to the first doc >= target.
  void Advance(uint32_t target);
  // Moves the block pointer (only) to the block that may hold target; false when past the last block.
  bool ShallowAdvance(uint32_t target);
  uint32_t block_max_tf() const { return SkipU32(shallow_, 8); }
  uint8_t block_min_norm() const { return skips_[shallow_ * kSkipEntrySize + 12]; }
  uint32_t block_last_doc() const { return SkipU32(shallow_, 0); }
  // Positions of the current doc (decoded on demand, ascending).
  const std::vector<uint32_t>& Positions();
  // Set when the postings failed to decode (only possible for a file read without checksum checks).
  bool corrupt() const { return corrupt_; }

 private:
  uint32_t SkipU32(uint32_t block, int off) const { return GetU32(skips_ + block * kSkipEntrySize + off); }
  void LoadBlock(uint32_t block);
  void Fail();

  const uint8_t* skips_ = nullptr;
  const uint8_t* data_ = nullptr;  // block data region of this term
  const uint8_t* end_ = nullptr;   // end of the postings file
  uint32_t num_docs_ = 0;
  uint32_t df_ = 0, num_blocks_ = 0;
  uint32_t block_ = 0, shallow_ = 0, n_ = 0, idx_ = 0;
  uint32_t doc_ = kEnd;
  uint32_t docs_[kBlockSize];
  uint32_t tfs_[kBlockSize];
  const uint8_t* pos_ptr_ = nullptr;  // positions of doc pos_idx_
  uint32_t pos_idx_ = 0;
  int64_t pos_loaded_for_ = -1;  // idx_ whose positions are in positions_
  std::vector<uint32_t> positions_;
  bool corrupt_ = false;
};

}  // namespace lakeqa::index
