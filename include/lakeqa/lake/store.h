// All lake I/O goes through Store (as LevelDB's Env): a local folder and an S3-compatible bucket look
// the same to everything above this module. Keys are '/'-separated and relative to the store's root
// ("datagov/<dataset>/files/rows.txt"); they never start with '/' and never contain "..".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::lake {

struct ObjectInfo {
  std::string key;  // relative to the store root
  uint64_t size = 0;
  std::string etag;      // S3 ETag (quotes stripped) or, locally, "<mtime_ns>-<size>-<inode>"
  int64_t mtime_ms = 0;  // last modified, milliseconds since the epoch
};

struct ListOptions {
  std::string prefix;
  // With a delimiter ('/'), keys sharing the part up to the next delimiter after the prefix are rolled
  // up into common_prefixes, as S3 ListObjectsV2 does.
  std::optional<char> delimiter;
  uint32_t max_keys = 1000;        // page size
  std::string continuation_token;  // from a previous page; empty for the first
};

struct ListPage {
  std::vector<ObjectInfo> objects;           // sorted by key (byte order)
  std::vector<std::string> common_prefixes;  // each ends with the delimiter
  std::string next_continuation_token;       // empty when this is the last page
  // Entries skipped with a reason (an unreadable folder, a symlink loop, a FIFO); the listing goes on.
  std::vector<std::string> warnings;
};

// Receives a streamed read chunk by chunk; return false to stop early (not an error).
using ChunkSink = std::function<bool(std::string_view chunk)>;

class Store {
 public:
  virtual ~Store() = default;

  virtual Result<ListPage> List(const ListOptions& options) = 0;
  virtual Result<ObjectInfo> Stat(std::string_view key) = 0;
  // Bytes [offset, offset+length) — fewer at end of object; length 0 means "to the end".
  virtual Result<std::string> ReadRange(std::string_view key, uint64_t offset, uint64_t length) = 0;
  // Streams the whole object (or from offset) in chunks, never holding it all in memory.
  virtual Status ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset = 0) = 0;
  // Writes the object atomically: readers see the old object or the new, never a partial one.
  virtual Status Write(std::string_view key, std::string_view data) = 0;
  // Human-readable root, e.g. "file:///data/lake" or "s3://bucket/prefix".
  virtual std::string Uri() const = 0;
  // Whether requests are remote (the index builder then uses many concurrent requests).
  virtual bool IsRemote() const = 0;

  // Convenience: every object under prefix (all pages, no delimiter), in key order, delivered one by one.
  Status ListAll(std::string_view prefix, const std::function<Status(const ObjectInfo&)>& visit);
};

struct S3Options {
  std::string endpoint;  // "http://127.0.0.1:4568"; empty = https://s3.<region>.amazonaws.com
  std::string region = "us-east-1";
  bool path_style = false;  // forced on when an endpoint is given
  bool anonymous = false;   // unsigned requests (public buckets)
  // Credentials; when empty they come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN.
  std::string access_key, secret_key, session_token;
  int max_retries = 5;
  int connect_timeout_ms = 5000;
  int request_timeout_ms = 60000;
  int base_backoff_ms = 100;
};

// "file:///abs/path", "/abs/path", "rel/path" → LocalStore; "s3://bucket[/prefix]" → S3Store.
// Options fill in from the environment (AWS_REGION, AWS_ENDPOINT_URL) when not set.
Result<std::unique_ptr<Store>> OpenStore(std::string_view uri, const S3Options& s3 = {});

// Rejects keys that are absolute, contain "..", empty segments or NUL: hostile paths never reach a store.
Status ValidateKey(std::string_view key);

}  // namespace lakeqa::lake
