// An S3-compatible bucket (AWS, MinIO, s3rver, ...). Requests are signed with AWS Signature V4, or sent
// unsigned for public buckets (--s3-anonymous). Throttling (429/503 SlowDown), 5xx answers, timeouts and
// dropped connections are retried with exponential backoff and full jitter; 403 and 404 fail at once with
// S3's own message. One libcurl easy handle per thread, so the store may be used from many threads.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>

#include "lakeqa/lake/store.h"

namespace lakeqa::lake {

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
};

class S3Store : public Store {
 public:
  // bucket and an optional key prefix under it ("" or "some/prefix").
  S3Store(std::string bucket, std::string prefix, S3Options options);
  ~S3Store() override;

  Result<ListPage> List(const ListOptions& options) override;
  Result<ObjectInfo> Stat(std::string_view key) override;
  Result<std::string> ReadRange(std::string_view key, uint64_t offset, uint64_t length) override;
  Status ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset = 0) override;
  // A streamed ranged read: bytes [offset, offset+length), length 0 = to the end.
  Status ReadStream(std::string_view key, const ChunkSink& sink, uint64_t offset, uint64_t length);
  Status Write(std::string_view key, std::string_view data) override;
  std::string Uri() const override;
  bool IsRemote() const override { return true; }

  // Requests sent (including retries), for cost reporting and tests.
  uint64_t requests() const { return requests_.load(); }
  // Creates the bucket (tests and `lake synth` into a fresh server).
  Status CreateBucket();

 private:
  struct Request;
  Result<HttpResponse> Send(Request& req, const ChunkSink* sink);
  std::string FullKey(std::string_view key) const;

  std::string bucket_, prefix_;
  S3Options options_;
  std::atomic<uint64_t> requests_{0};
};

}  // namespace lakeqa::lake
