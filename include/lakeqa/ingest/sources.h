// Streaming readers for the raw sources the lake builder ingests: bzip2 (concatenated streams, as the
// Wikipedia multistream dumps are), the MediaWiki XML export schema (one <page> at a time, bounded), the
// multistream index, and PostgreSQL pg_dump text (CREATE TABLE / COPY blocks, as CMDBench ships its
// tables). Each reader holds at most one item (a page, a row) plus a bounded buffer in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::ingest {

// Receives decompressed or parsed data; a non-OK status stops the reader and is returned by it.
using ByteSink = std::function<Status(std::string_view chunk)>;

// Incremental bzip2 decoder. Concatenated streams decode as one (a multistream dump read from its
// start is a valid single input). Errors name the compressed byte offset.
class Bz2Decoder {
 public:
  Bz2Decoder();
  ~Bz2Decoder();
  Bz2Decoder(const Bz2Decoder&) = delete;
  Bz2Decoder& operator=(const Bz2Decoder&) = delete;

  // Decodes `in`, passing output to sink in chunks of at most 1 MiB.
  Status Feed(std::string_view in, const ByteSink& sink);
  // Call at end of input: an error when the input ended inside a stream (truncated) or held no stream.
  Status Finish();
  uint64_t compressed_bytes() const { return consumed_; }
  uint64_t streams_completed() const { return streams_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  uint64_t consumed_ = 0;
  uint64_t streams_ = 0;
  bool in_stream_ = false;
};

// Reads [offset, offset+length) of a local file (length 0: to the end) through a decoder (when
// `bz2`) or as is, into sink. Streams; never holds the file.
Status ReadLocalFile(const std::string& path, uint64_t offset, uint64_t length, bool bz2,
                     const ByteSink& sink);

// One <page> of a MediaWiki XML export.
struct WikiPage {
  std::string title;
  int ns = 0;
  uint64_t id = 0;
  uint64_t revision_id = 0;
  std::string timestamp;  // of the (last) revision, as written: "2024-05-01T12:00:00Z"
  std::string redirect;   // <redirect title="..."/>; empty when the page is not a redirect
  std::string text;       // wikitext, entities decoded
  uint64_t offset = 0;    // byte offset of "<page>" in the decompressed input the reader was fed
};

// Parses one "<page>...</page>" element. Errors say which element is malformed.
Result<WikiPage> ParseWikiPage(std::string_view page_xml);

// Splits a decompressed MediaWiki XML stream into pages as bytes arrive. A malformed page is reported
// to on_error and skipped; reading goes on with the next page. A page larger than max_page_bytes is
// skipped with an error, and the buffer never grows past that bound.
class WikiXmlReader {
 public:
  using PageSink = std::function<Status(WikiPage&& page)>;
  using ErrorSink = std::function<void(const Status& error, uint64_t offset)>;

  WikiXmlReader(PageSink on_page, ErrorSink on_error, size_t max_page_bytes = 64u << 20);
  Status Feed(std::string_view chunk);
  // An error when the input ended inside a <page> (the partial page is not delivered).
  Status Finish();
  uint64_t pages() const { return pages_; }

 private:
  Status Drain();
  PageSink on_page_;
  ErrorSink on_error_;
  size_t max_page_bytes_;
  std::string buffer_;
  uint64_t buffer_offset_ = 0;  // input offset of buffer_[0]
  bool skipping_ = false;       // inside an over-long page, discarding until its </page>
  uint64_t skip_start_ = 0;
  size_t resume_ = 0;  // where to resume looking for "</page>" of the page at buffer_[0]
  uint64_t pages_ = 0;
  bool saw_markup_ = false;
};

// Distinct stream offsets of a multistream index ("offset:page_id:title" lines, bz2-compressed or
// plain), in file order, delivered one by one (the index of the full English Wikipedia has ~25 M lines
// and ~250 k distinct offsets).
Status ReadMultistreamOffsets(const std::string& index_path,
                              const std::function<Status(uint64_t)>& on_offset);

// Default index path of a multistream dump: "x-multistream.xml.bz2" → "x-multistream-index.txt.bz2".
std::string DefaultMultistreamIndexPath(const std::string& dump_path);

// pg_dump plain-text format: tables and their COPY rows.
struct PgTable {
  std::string schema;
  std::string name;
  std::vector<std::string> columns;
};
struct PgField {
  std::string value;
  bool null = false;
};

// Streams a pg_dump file: on_table when a COPY block starts (columns from the COPY column list), on_row
// for each row (fields unescaped: \t \n \\ \NNN \xHH ..., "\N" null), on_end at "\.". Callbacks returning
// an error stop the read. A malformed row (wrong field count) is reported via on_error and skipped.
struct PgDumpCallbacks {
  std::function<Status(const PgTable&)> on_table;
  std::function<Status(const PgTable&, std::vector<PgField>&&)> on_row;
  std::function<Status(const PgTable&, uint64_t rows)> on_end;
  std::function<void(const PgTable&, const Status&)> on_error;
};
Status ReadPgDump(const std::string& path, const PgDumpCallbacks& callbacks);

// Unescapes one COPY text-format field.
PgField PgUnescape(std::string_view field);

}  // namespace lakeqa::ingest
