// The writer's in-memory buffer: documents inverted into per-term postings until a flush writes them
// as one segment. Terms are interned once; adding a token to a known term appends to its vectors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Postings {
    std::vector<uint32_t> docs, tfs, positions;
  };
  Postings& Intern(std::string_view key);

  const Schema& schema_;
  text::Analyzer analyzer_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> term_ids_;
  std::vector<std::string> keys_;
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
