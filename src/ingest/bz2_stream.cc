// Streaming bzip2 with libbz2. Multistream dumps are many bz2 streams back to back; after each
// BZ_STREAM_END the decoder is reset and continues with the next stream's "BZh" header.
#include <bzlib.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lakeqa/common/lines.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/ingest/sources.h"

namespace lakeqa::ingest {
namespace {

std::string HexByte(unsigned char c) {
  const char* d = "0123456789ABCDEF";
  return {d[c >> 4], d[c & 15]};
}

}  // namespace

struct Bz2Decoder::State {
  bz_stream strm{};
  bool initialised = false;
  std::string out;

  Status Init() {
    std::memset(&strm, 0, sizeof strm);
    int rc = BZ2_bzDecompressInit(&strm, 0, 0);
    if (rc != BZ_OK) return Status(ErrorCode::kResourceExhausted, "bz2: cannot initialise decoder");
    initialised = true;
    return Status::Ok();
  }
  void End() {
    if (initialised) BZ2_bzDecompressEnd(&strm);
    initialised = false;
  }
  ~State() { End(); }
};

Bz2Decoder::Bz2Decoder() : state_(std::make_unique<State>()) { state_->out.resize(1 << 20); }
Bz2Decoder::~Bz2Decoder() = default;

Status Bz2Decoder::Feed(std::string_view in, const ByteSink& sink) {
  State& st = *state_;
  while (!in.empty()) {
    if (!in_stream_) {
      // Between streams: the next bytes must start a stream ("BZh1".."BZh9"). Checked on the first
      // byte so trailing garbage is reported at its offset rather than as a decoder error.
      if (in[0] != 'B') {
        return ParseError("bz2: unexpected byte 0x" + HexByte(static_cast<unsigned char>(in[0])) +
                          " at compressed offset " + std::to_string(consumed_) + " (not a bzip2 stream)");
      }
      LAKEQA_RETURN_IF_ERROR(st.Init());
      in_stream_ = true;
    }
    st.strm.next_in = const_cast<char*>(in.data());
    st.strm.avail_in = static_cast<unsigned>(std::min<size_t>(in.size(), 1u << 30));
    st.strm.next_out = st.out.data();
    st.strm.avail_out = static_cast<unsigned>(st.out.size());
    unsigned before = st.strm.avail_in;
    int rc = BZ2_bzDecompress(&st.strm);
    size_t used = before - st.strm.avail_in;
    size_t produced = st.out.size() - st.strm.avail_out;
    if (rc != BZ_OK && rc != BZ_STREAM_END) {
      const char* what = rc == BZ_DATA_ERROR         ? "corrupt data (BZ_DATA_ERROR)"
                         : rc == BZ_DATA_ERROR_MAGIC ? "bad stream header (BZ_DATA_ERROR_MAGIC)"
                         : rc == BZ_MEM_ERROR        ? "out of memory"
                                                     : "decoder error";
      st.End();
      in_stream_ = false;
      return ParseError("bz2: " + std::string(what) + " near compressed offset " +
                        std::to_string(consumed_ + used));
    }
    consumed_ += used;
    in.remove_prefix(used);
    if (produced > 0) LAKEQA_RETURN_IF_ERROR(sink(std::string_view(st.out.data(), produced)));
    if (rc == BZ_STREAM_END) {
      st.End();
      in_stream_ = false;
      ++streams_;
    } else if (used == 0 && produced == 0) {
      return Internal("bz2: decoder made no progress");
    }
  }
  return Status::Ok();
}

Status Bz2Decoder::Finish() {
  if (in_stream_) {
    // Flush anything decodable: libbz2 only emits a block once it is complete, so there is nothing more.
    state_->End();
    in_stream_ = false;
    return ParseError("bz2: input truncated inside stream " + std::to_string(streams_ + 1) + " after " +
                      std::to_string(consumed_) + " compressed bytes");
  }
  if (streams_ == 0) return ParseError("bz2: empty input (no bzip2 stream)");
  return Status::Ok();
}

Status ReadLocalFile(const std::string& path, uint64_t offset, uint64_t length, bool bz2,
                     const ByteSink& sink) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, path);
  std::string buf(1 << 20, '\0');
  Bz2Decoder decoder;
  Status result;
  uint64_t pos = offset, left = length == 0 ? UINT64_MAX : length;
  while (left > 0) {
    ssize_t n = ::pread(fd, buf.data(), std::min<uint64_t>(buf.size(), left), static_cast<off_t>(pos));
    if (n < 0) {
      if (errno == EINTR) continue;
      result = ErrnoStatus(errno, path);
      break;
    }
    if (n == 0) break;
    pos += static_cast<uint64_t>(n);
    left -= static_cast<uint64_t>(n);
    std::string_view chunk(buf.data(), static_cast<size_t>(n));
    result = bz2 ? decoder.Feed(chunk, sink) : sink(chunk);
    if (!result.ok()) break;
  }
  ::close(fd);
  if (result.ok() && bz2) result = decoder.Finish();
  return result;
}

std::string DefaultMultistreamIndexPath(const std::string& dump_path) {
  std::string base = dump_path;
  for (std::string_view ext : {".bz2", ".xml"}) {
    if (EndsWith(base, ext)) base.resize(base.size() - ext.size());
  }
  return base + "-index.txt.bz2";
}

Status ReadMultistreamOffsets(const std::string& index_path,
                              const std::function<Status(uint64_t)>& on_offset) {
  ChunkedLines lines(1u << 20);
  uint64_t line_no = 0;
  bool have_last = false;
  uint64_t last = 0;
  auto line = [&](std::string_view l) -> Status {
    ++line_no;
    if (Trim(l).empty()) return Status::Ok();
    size_t colon = l.find(':');
    uint64_t off = 0;
    bool ok = colon != std::string_view::npos && colon > 0;
    for (size_t i = 0; ok && i < colon; ++i) {
      if (l[i] < '0' || l[i] > '9' || off > (UINT64_MAX - 9) / 10) ok = false;
      else off = off * 10 + static_cast<uint64_t>(l[i] - '0');
    }
    if (!ok) {
      return ParseError(index_path + ":" + std::to_string(line_no) + ": not an 'offset:page_id:title' line");
    }
    if (have_last && off == last) return Status::Ok();
    if (have_last && off < last) {
      return ParseError(index_path + ":" + std::to_string(line_no) + ": offset " + std::to_string(off) +
                        " goes backwards (previous " + std::to_string(last) + ")");
    }
    have_last = true;
    last = off;
    return on_offset(off);
  };
  auto sink = [&](std::string_view chunk) -> Status {
    LAKEQA_RETURN_IF_ERROR(lines.Feed(chunk, line));
    if (lines.overflow()) return ParseError(index_path + ": line longer than 1 MiB");
    return Status::Ok();
  };
  bool bz2 = EndsWith(index_path, ".bz2");
  Status s = ReadLocalFile(index_path, 0, 0, bz2, sink);
  if (!s.ok()) return s.WithContext(index_path);
  return lines.Finish(line);
}

}  // namespace lakeqa::ingest
