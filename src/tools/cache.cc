#include "lakeqa/tools/cache.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <memory>

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::tools {
namespace {

std::string Hex(const unsigned char* d, unsigned n) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out.push_back(kDigits[d[i] >> 4]);
    out.push_back(kDigits[d[i] & 15]);
  }
  return out;
}

class Digest {
 public:
  explicit Digest(const EVP_MD* md) : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    EVP_DigestInit_ex(ctx_.get(), md, nullptr);
  }
  void Update(std::string_view s) { EVP_DigestUpdate(ctx_.get(), s.data(), s.size()); }
  std::string Final() {
    unsigned char h[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    EVP_DigestFinal_ex(ctx_.get(), h, &n);
    return Hex(h, n);
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

std::string Sha256(std::string_view s) {
  Digest d(EVP_sha256());
  d.Update(s);
  return d.Final();
}

bool IsPlainMd5(const std::string& etag) {
  if (etag.size() != 32) return false;
  for (char c : etag) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

Result<CacheEntry> DownloadCache::Fetch(lake::Store& store, const lake::ObjectInfo& object,
                                        std::chrono::steady_clock::time_point deadline,
                                        const std::function<bool()>& stop) {
  std::string name =
      Sha256(store.Uri() + "\n" + object.key + "\n" + object.etag + "\n" + std::to_string(object.size));
  std::string shard = dir_ + "/" + name.substr(0, 2);
  std::string path = shard + "/" + name;
  std::string sum_path = path + ".sha256";
  CacheEntry entry;
  entry.path = path;
  entry.size = object.size;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<uint64_t>(st.st_size) == object.size) {
    auto sum = ReadFile(sum_path, 128);
    if (sum.ok() && sum->size() == 64) {
      entry.sha256 = *sum;
      entry.hit = true;
      return entry;
    }
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(shard));
  ::chmod(dir_.c_str(), 0700);
  ::chmod(shard.c_str(), 0700);
  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return ErrnoStatus(errno, "creating cache file " + tmp);
  Digest sha(EVP_sha256()), md5(EVP_md5());
  uint64_t got = 0;
  Status write_error;
  bool timed_out = false, stopped = false;
  Status st_read = store.ReadStream(object.key, [&](std::string_view chunk) {
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      return false;
    }
    if (stop && stop()) {
      stopped = true;
      return false;
    }
    size_t off = 0;
    while (off < chunk.size()) {
      ssize_t n = ::write(fd, chunk.data() + off, chunk.size() - off);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        write_error = ErrnoStatus(errno, "writing cache file " + tmp);
        return false;
      }
      off += static_cast<size_t>(n);
    }
    sha.Update(chunk);
    md5.Update(chunk);
    got += chunk.size();
    return true;
  });
  bool synced = ::fsync(fd) == 0;
  ::close(fd);
  auto fail = [&](Status s) {
    ::unlink(tmp.c_str());
    return s;
  };
  if (!st_read.ok()) return fail(st_read.WithContext("downloading " + object.key));
  if (!write_error.ok()) return fail(write_error);
  if (stopped) return fail(Status(ErrorCode::kCancelled, "downloading " + object.key + " was cancelled"));
  if (timed_out)
    return fail(
        Status(ErrorCode::kTimeout, "downloading " + object.key + " took longer than the call's time limit"));
  if (!synced) return fail(ErrnoStatus(errno, "syncing cache file " + tmp));
  if (got != object.size)
    return fail(Corrupt("downloading " + object.key + ": read " + std::to_string(got) +
                        " bytes, the store listed " + std::to_string(object.size)));
  std::string md5_hex = md5.Final();
  if (IsPlainMd5(object.etag) && ToLowerAscii(object.etag) != md5_hex)
    return fail(Corrupt("downloading " + object.key + ": MD5 " + md5_hex + " does not match the ETag " +
                        object.etag));
  entry.sha256 = sha.Final();
  // Read-only for everyone who may read it at all: the sandbox user through its group, else the owner.
  if (reader_gid_ >= 0 &&
      ::chown(tmp.c_str(), static_cast<uid_t>(-1), static_cast<gid_t>(reader_gid_)) == 0) {
    ::chmod(tmp.c_str(), 0440);
  } else {
    ::chmod(tmp.c_str(), 0400);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail(ErrnoStatus(errno, "renaming cache file " + tmp));
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(sum_path, entry.sha256));
  return entry;
}

}  // namespace lakeqa::tools
