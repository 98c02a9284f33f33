// The writer's in-memory buffer: documents inverted into per-term postings until a flush writes them
// as one segment. Terms are interned once; adding a token to a known term appends to its one buffer.
// Indexing is dominated by cache misses on the term table and the postings (millions of distinct terms:
// ids, numbers, names), so both are laid out to touch as few cache lines per token as possible: an
// open-addressing table of (hash, term id) slots, keys in one arena, and per term a single interleaved
// buffer [doc, tf, positions...] plus the current document's tf slot kept inline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "index/segment.h"
#include "lakeqa/index/schema.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::index {

class MemSegment {
 public:
  MemSegment(const Schema& schema, const text::AnalyzerOptions& analyzer);
  Status Add(const Document& doc);
  uint32_t num_docs() const { return num_docs_; }
  size_t bytes() const { return bytes_; }
  uint32_t Delete(std::string_view id);
  // Writes the segment files; deletes made while buffered go to `deletes`.
  Status Write(const std::string& dir, const std::string& name, DeleteBitmap* deletes) const;

 private:
  struct Postings {
    std::vector<uint32_t> data;      // per document: doc, tf, then tf positions
    uint32_t last_doc = UINT32_MAX;  // the document of the last entry
    uint32_t tf_at = 0;              // index of its tf in data
    uint32_t docs = 0;
  };
  struct Slot {
    uint32_t hash = 0;  // upper bits of the key's hash
    uint32_t id = 0;    // term id + 1; 0 = empty
  };
  Postings& Intern(std::string_view key);
  // The term id of `key`, or -1.
  int64_t Find(std::string_view key, uint64_t hash) const;
  std::string_view Key(uint32_t id) const {
    return std::string_view(arena_).substr(key_offsets_[id], key_offsets_[id + 1] - key_offsets_[id]);
  }
  void Grow();

  const Schema& schema_;
  text::Analyzer analyzer_;
  std::vector<Slot> slots_;               // power-of-two size, at most half full
  std::string arena_;                     // the keys, back to back
  std::vector<uint64_t> key_offsets_{0};  // key i is arena_[key_offsets_[i], key_offsets_[i + 1])
  std::vector<Postings> postings_;
  std::vector<std::vector<uint8_t>> norms_;
  std::string stored_;
  std::vector<uint64_t> stored_offsets_{0};
  std::vector<bool> deleted_;
  uint32_t num_docs_ = 0;
  size_t bytes_ = 0;
  std::string key_;
  std::vector<uint32_t> base_, length_;
  std::vector<std::pair<int, std::string_view>> stored_fields_;
};

}  // namespace lakeqa::index
