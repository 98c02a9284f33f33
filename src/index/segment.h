// One immutable segment: four framed files <name>.tdi (term dictionary), <name>.pst (postings),
// <name>.nrm (field lengths) and <name>.sto (stored fields), plus deletions in <name>_<gen>.del, which
// change after the segment is written. docs/index-format.md has the byte layout.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "index/codec.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/schema.h"

namespace lakeqa::index {

inline constexpr std::string_view kDictMagic = "LQXTDI01";
inline constexpr std::string_view kPostingsMagic = "LQXPST01";
inline constexpr std::string_view kNormsMagic = "LQXNRM01";
inline constexpr std::string_view kStoredMagic = "LQXSTO01";
inline constexpr std::string_view kDeletesMagic = "LQXDEL01";
inline constexpr uint32_t kBlockSize = 128;
inline constexpr size_t kDictEntrySize = 32;
inline constexpr size_t kSkipEntrySize = 16;

// A term key is one field byte then the term: text terms of field i use byte i, keyword terms byte
// 0x40 + i, document ids byte 0x7F. Sorting keys groups a field's terms together, so a prefix range
// of one field is one contiguous run of the dictionary.
inline char TextFieldByte(int field) { return static_cast<char>(field); }
inline char KeywordFieldByte(int field) { return static_cast<char>(0x40 + field); }
inline constexpr char kIdFieldByte = 0x7F;

struct TermInfo {
  uint64_t postings_off = 0;
  uint32_t df = 0;
  uint32_t max_tf = 0;
  uint8_t min_norm = 0;
};

class Segment {
 public:
  static Result<std::shared_ptr<Segment>> Open(const std::string& dir, const std::string& name,
                                               size_t num_fields, bool verify_checksums);

  const std::string& name() const { return name_; }
  uint32_t num_docs() const { return num_docs_; }
  uint32_t num_terms() const { return num_terms_; }
  std::string_view Key(uint32_t i) const;
  TermInfo Info(uint32_t i) const;
  // Dictionary index of key, or -1.
  int64_t Find(std::string_view key) const { return Find(key, 0, num_terms_); }
  // The same among the dictionary indexes [lo, hi) (a range known to hold key if any does), and the
  // first index there whose key is >= key in *lower_bound (for lookups of ascending keys).
  int64_t Find(std::string_view key, uint32_t lo, uint32_t hi, uint32_t* lower_bound = nullptr) const;
  // [first, last) dictionary indexes of the keys starting with prefix.
  std::pair<uint32_t, uint32_t> PrefixRange(std::string_view prefix) const;

  const uint8_t* norms(size_t field) const { return norms_ + field * num_docs_; }
  uint64_t sum_length(size_t field) const;
  uint64_t docs_with_field(size_t field) const;

  const uint8_t* postings() const { return postings_file_.body(); }
  uint64_t postings_size() const { return postings_file_.body_size(); }

  // The stored record of doc: id and (field index, value) pairs, views into the mapping.
  Status Stored(uint32_t doc, std::string_view* id,
                std::vector<std::pair<int, std::string_view>>* fields) const;
  Result<std::string_view> StoredId(uint32_t doc) const;
  std::string_view StoredRecord(uint32_t doc) const;

 private:
  Status Validate(size_t num_fields);

  std::string name_;
  MappedFile dict_file_, postings_file_, norms_file_, stored_file_;
  uint32_t num_docs_ = 0, num_terms_ = 0;
  const uint8_t* entries_ = nullptr;
  const uint8_t* keys_ = nullptr;
  uint64_t keys_size_ = 0;
  const uint8_t* norm_stats_ = nullptr;
  const uint8_t* norms_ = nullptr;
  const uint8_t* stored_offsets_ = nullptr;
};

// Encodes a stored record: varint id length, id, varint pair count, then (u8 field, varint length,
// bytes) per pair.
void EncodeStored(std::string_view id, const std::vector<std::pair<int, std::string_view>>& fields,
                  std::string& out);

// Writes a segment's files. Terms must come in strictly increasing key order.
class SegmentBuilder {
 public:
  Status Open(const std::string& dir, const std::string& name);
  // docs ascending; positions holds tfs[0] positions for docs[0], then tfs[1] for docs[1], ...;
  // norms is the term's field's length bytes (nullptr for keyword and id terms).
  Status AddTerm(std::string_view key, const uint32_t* docs, const uint32_t* tfs, size_t n,
                 const uint32_t* positions, const uint8_t* norms);
  Status AddStored(std::string_view record);
  // norms[f] has num_docs bytes (or is empty: all zero).
  Status Finish(uint32_t num_docs, const std::vector<std::vector<uint8_t>>& norms);

 private:
  std::string dir_, name_;
  FileWriter postings_, stored_;
  std::string entries_, keys_, last_key_, block_, skips_;
  std::vector<uint64_t> stored_offsets_;
  uint32_t num_terms_ = 0;
};

std::string SegmentFile(const std::string& dir, const std::string& name, std::string_view ext);

// Deleted documents of one segment.
class DeleteBitmap {
 public:
  DeleteBitmap() = default;
  explicit DeleteBitmap(uint32_t num_docs) : num_docs_(num_docs), words_((num_docs + 63) / 64, 0) {}
  bool Get(uint32_t doc) const { return !words_.empty() && (words_[doc >> 6] >> (doc & 63)) & 1; }
  // True if newly deleted.
  bool Set(uint32_t doc);
  uint32_t count() const { return count_; }
  uint32_t num_docs() const { return num_docs_; }

  Status Write(const std::string& path) const;
  static Result<DeleteBitmap> Read(const std::string& path, uint32_t num_docs, bool verify_checksum);

 private:
  uint32_t num_docs_ = 0;
  uint32_t count_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace lakeqa::index
