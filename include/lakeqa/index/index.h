// The on-disk text index: a folder of immutable segments named by a manifest (index.json). A writer
// adds documents into an in-memory buffer, flushes it as a new segment, records deletes as per-segment
// bitmaps, and commits by writing every new file, fsyncing it, then atomically replacing the manifest:
// a crash at any point leaves the previous commit readable. Readers memory-map the committed segments
// and never see uncommitted work. One writer per folder (write.lock); any number of readers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json.h"  // Writer holds the ranking by value
#include "lakeqa/common/status.h"
#include "lakeqa/index/ranking.h"
#include "lakeqa/index/schema.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::index {

class Segment;
class DeleteBitmap;
class MemSegment;

inline constexpr std::string_view kManifestName = "index.json";
inline constexpr int kFormatVersion = 1;
// The analyzer's token output changed (2: year spans as one canonical term plus every year): an index
// written with another version is rebuilt, since its terms no longer match the queries'.
inline constexpr int kAnalysisVersion = 2;
// Positions skipped between the values of a multi-valued field, so phrases never span two values.
inline constexpr uint32_t kValuePositionGap = 100;

struct WriterOptions {
  size_t max_buffered_docs = 100000;
  size_t max_buffered_bytes = 128u << 20;  // estimate of the buffer's memory
  text::AnalyzerOptions analyzer;
};

struct SegmentInfo {
  std::string name;
  uint32_t docs = 0;
  uint32_t deleted = 0;
  uint64_t del_gen = 0;  // 0: no deletes file
};

class IndexWriter {
 public:
  // Creates the index in `dir` (made if missing) or opens the existing one, whose schema must have the
  // same layout as `schema` (Schema::SameLayout) and whose analysis version must be kAnalysisVersion;
  // `schema`'s weights and b replace the stored ones. Files left by a crashed writer (not named by the
  // manifest) are removed.
  static Result<std::unique_ptr<IndexWriter>> Open(const std::string& dir, const Schema& schema,
                                                   WriterOptions options = {});
  ~IndexWriter();

  // Buffers a document; may flush a segment (invisible until Commit).
  Status Add(const Document& doc);
  // Deletes every document with this id that was added before the call (committed or not).
  // Returns how many were deleted.
  Result<uint32_t> Delete(std::string_view id);
  // Flushes the buffer and publishes everything atomically.
  Status Commit();
  // Commits, then rewrites all segments as one without deleted documents, and commits again.
  Status Merge();
  // The ranking parameters the next commit records in the manifest (validated against the schema).
  Status SetRanking(const RankingParams& ranking);

  const Schema& schema() const { return schema_; }
  const std::vector<SegmentInfo>& segments() const { return infos_; }
  uint64_t generation() const { return generation_; }

 private:
  IndexWriter() = default;
  Status Flush();
  Status WriteManifest();
  void RemoveUnreferenced();
  std::string NewSegmentName();

  std::string dir_;
  Schema schema_;
  WriterOptions options_;
  int lock_fd_ = -1;
  uint64_t generation_ = 0;
  uint64_t next_segment_ = 1;
  std::vector<SegmentInfo> infos_;
  std::vector<std::shared_ptr<Segment>> segs_;
  std::vector<std::unique_ptr<DeleteBitmap>> deletes_;
  std::vector<bool> deletes_dirty_;
  std::unique_ptr<MemSegment> buffer_;
  Json ranking_;  // null: the schema's defaults
};

struct ReaderOptions {
  bool verify_checksums = true;  // CRC every file on open (reads it all once)
};

// A point-in-time view of the last commit. Thread-safe for concurrent searches.
class IndexReader {
 public:
  static Result<std::shared_ptr<IndexReader>> Open(const std::string& dir, ReaderOptions options = {});
  ~IndexReader();

  const Schema& schema() const { return schema_; }
  // The manifest's ranking parameters, or the schema's defaults when it records none.
  const RankingParams& ranking() const { return ranking_; }
  uint64_t generation() const { return generation_; }
  uint64_t num_docs() const;  // live documents
  size_t num_segments() const { return segs_.size(); }
  const Segment& segment(size_t i) const { return *segs_[i]; }
  const DeleteBitmap& deletes(size_t i) const { return *deletes_[i]; }
  const std::string& dir() const { return dir_; }

 private:
  IndexReader() = default;
  std::string dir_;
  Schema schema_;
  RankingParams ranking_;
  uint64_t generation_ = 0;
  std::vector<std::shared_ptr<Segment>> segs_;
  std::vector<std::unique_ptr<DeleteBitmap>> deletes_;
};

}  // namespace lakeqa::index
