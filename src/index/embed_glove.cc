// GloVe: the JSON → binary converter (a streaming scanner: simdjson's parsers need the whole 307 MB
// document and its structural index in memory, this needs the vocabulary's strings only) and the
// memory-mapped SIF embedder.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lakeqa/index/embedder.h"
#include "lakeqa/text/analyzer.h"

namespace lakeqa::index {
namespace {

// Header layout (little-endian), docs/vectors.md:
//   0 magic[8] "LQXGLV01" | 8 u32 dim | 12 u32 count | 16 u32 dtype (0 = float32) | 20 u32 reserved
//   24 u64 vectors_offset | 32 u64 vocab_offset | 40 u64 strings_offset | 48 u64 strings_size
//   56 u32 crc of bytes 0..55 (simple FNV-1a, catches a truncated or foreign header) | 60 u32 0
// Vocab entry (16 bytes, sorted by word bytes): u32 string offset, u32 length, u32 row, u32 rank.
constexpr size_t kEntrySize = 16;
constexpr uint32_t kMaxDim = 4096;
constexpr size_t kMaxWordBytes = 1024;

uint32_t Fnv(const uint8_t* p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}
template <typename T>
void Put(std::string& s, size_t off, T v) {
  std::memcpy(s.data() + off, &v, sizeof v);
}
template <typename T>
T Get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A pull scanner over a JSON file read in 1 MiB chunks. Errors name the file and byte offset.
class JsonScanner {
 public:
  JsonScanner(FILE* f, std::string path) : f_(f), path_(std::move(path)), buf_(1 << 20, '\0') {}

  uint64_t offset() const { return consumed_ + pos_; }
  Status Error(const std::string& what) const {
    return ParseError(path_ + ": byte " + std::to_string(offset()) + ": " + what);
  }
  // Next non-space byte, not consumed; -1 at end of file.
  int Peek() {
    for (;;) {
      while (pos_ < len_) {
        char c = buf_[pos_];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return static_cast<unsigned char>(c);
        ++pos_;
      }
      if (!Fill()) return -1;
    }
  }
  Status Expect(char c) {
    int p = Peek();
    if (p != static_cast<unsigned char>(c))
      return Error(std::string("expected '") + c + "', found " +
                   (p < 0 ? "end of file" : "'" + std::string(1, static_cast<char>(p)) + "'"));
    ++pos_;
    return Status::Ok();
  }
  // True (and consumed) when the next byte is c.
  bool Accept(char c) {
    if (Peek() != static_cast<unsigned char>(c)) return false;
    ++pos_;
    return true;
  }
  Status ReadString(std::string& out) {
    LAKEQA_RETURN_IF_ERROR(Expect('"'));
    out.clear();
    for (;;) {
      int c = Raw();
      if (c < 0) return Error("unterminated string");
      if (c == '"') return Status::Ok();
      if (c < 0x20) return Error("control character in string");
      if (out.size() > kMaxWordBytes)
        return Error("string longer than " + std::to_string(kMaxWordBytes) + " bytes");
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        continue;
      }
      int e = Raw();
      switch (e) {
        case '"':
        case '\\':
        case '/': out.push_back(static_cast<char>(e)); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          uint32_t cp;
          LAKEQA_RETURN_IF_ERROR(Hex4(cp));
          if (cp >= 0xD800 && cp < 0xDC00) {
            uint32_t lo;
            if (Raw() != '\\' || Raw() != 'u') return Error("unpaired surrogate in \\u escape");
            LAKEQA_RETURN_IF_ERROR(Hex4(lo));
            if (lo < 0xDC00 || lo >= 0xE000) return Error("bad low surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default: return Error("bad escape in string");
      }
    }
  }
  Status ReadNumber(double& v) {
    Peek();
    num_.clear();
    for (;;) {
      if (pos_ == len_ && !Fill()) break;
      char c = buf_[pos_];
      if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) break;
      if (num_.size() > 64) return Error("number too long");
      num_.push_back(c);
      ++pos_;
    }
    auto [p, ec] = std::from_chars(num_.data(), num_.data() + num_.size(), v);
    if (num_.empty() || ec != std::errc() || p != num_.data() + num_.size())
      return Error("expected a number");
    return Status::Ok();
  }
  // Skips any value (depth-bounded).
  Status SkipValue(int depth = 0) {
    if (depth > 64) return Error("nesting too deep");
    int c = Peek();
    if (c == '"') {
      std::string s;
      return ReadString(s);
    }
    if (c == '[' || c == '{') {
      char close = c == '[' ? ']' : '}';
      ++pos_;
      if (Accept(close)) return Status::Ok();
      do {
        if (close == '}') {
          std::string k;
          LAKEQA_RETURN_IF_ERROR(ReadString(k));
          LAKEQA_RETURN_IF_ERROR(Expect(':'));
        }
        LAKEQA_RETURN_IF_ERROR(SkipValue(depth + 1));
      } while (Accept(','));
      return Expect(close);
    }
    if (c == 't' || c == 'f' || c == 'n') {
      std::string word;
      while (Peek() >= 'a' && Peek() <= 'z' && word.size() < 6) word.push_back(static_cast<char>(Raw()));
      if (word == "true" || word == "false" || word == "null") return Status::Ok();
      return Error("bad literal '" + word + "'");
    }
    double d;
    return ReadNumber(d);
  }

 private:
  bool Fill() {
    consumed_ += len_;
    pos_ = 0;
    len_ = std::fread(buf_.data(), 1, buf_.size(), f_);
    return len_ > 0;
  }
  int Raw() {
    if (pos_ == len_ && !Fill()) return -1;
    return static_cast<unsigned char>(buf_[pos_++]);
  }
  Status Hex4(uint32_t& cp) {
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      int c = Raw();
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) return Error("bad \\u escape");
      cp = cp * 16 + static_cast<uint32_t>(d);
    }
    return Status::Ok();
  }
  static void AppendUtf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  FILE* f_;
  std::string path_;
  std::string buf_;
  std::string num_;
  size_t pos_ = 0, len_ = 0;
  uint64_t consumed_ = 0;
};

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<FILE, FileCloser>;

struct VocabEntry {
  uint32_t str_off, len, row, rank;
};

// The words read so far: their strings end to end, one entry a word, and the set that refuses a repeat.
struct GloveVocab {
  std::string pool;
  std::vector<VocabEntry> entries;
  std::unordered_set<std::string> seen;
};

// The "vectors" object: {"word": [v_0 .. v_dim-1, norm, rank], ...}. Each vector is written to fout as it
// is read (the vocabulary is what stays in memory), in file order; the rank sits at word_index.
Status ReadVectors(JsonScanner& js, int64_t dim, int64_t word_index, GloveVocab& v, FILE* fout,
                   const std::string& tmp) {
  std::string word;
  std::vector<float> row;
  LAKEQA_RETURN_IF_ERROR(js.Expect('{'));
  if (!js.Accept('}')) {
    do {
      LAKEQA_RETURN_IF_ERROR(js.ReadString(word));
      LAKEQA_RETURN_IF_ERROR(js.Expect(':'));
      LAKEQA_RETURN_IF_ERROR(js.Expect('['));
      row.clear();
      int64_t rank = -1, i = 0;
      if (!js.Accept(']')) {
        do {
          double d;
          LAKEQA_RETURN_IF_ERROR(js.ReadNumber(d));
          if (i < dim) {
            if (!std::isfinite(d)) return js.Error("non-finite value in the vector of '" + word + "'");
            row.push_back(static_cast<float>(d));
          } else if (i == word_index) {
            if (d < 0 || d != std::floor(d) || d > 1e9)
              return js.Error("bad rank in the vector of '" + word + "'");
            rank = static_cast<int64_t>(d);
          }
          ++i;
        } while (js.Accept(','));
        LAKEQA_RETURN_IF_ERROR(js.Expect(']'));
      }
      if (static_cast<int64_t>(row.size()) != dim)
        return js.Error("vector of '" + word + "' has " + std::to_string(row.size()) + " values, expected " +
                        std::to_string(dim));
      if (rank < 0) rank = static_cast<int64_t>(v.entries.size());  // no rank: file order
      if (word.empty()) return js.Error("empty word");
      if (!v.seen.insert(word).second) return js.Error("word '" + word + "' appears twice");
      if (v.pool.size() + word.size() > UINT32_MAX) return js.Error("vocabulary strings exceed 4 GiB");
      v.entries.push_back({static_cast<uint32_t>(v.pool.size()), static_cast<uint32_t>(word.size()),
                           static_cast<uint32_t>(v.entries.size()), static_cast<uint32_t>(rank)});
      v.pool += word;
      if (std::fwrite(row.data(), sizeof(float), row.size(), fout) != row.size())
        return ErrnoStatus(errno, tmp);
    } while (js.Accept(','));
    LAKEQA_RETURN_IF_ERROR(js.Expect('}'));
  }
  return Status::Ok();
}

// After the vectors: the vocabulary sorted by word (for binary search) and the strings, then the header
// at offset 0, flushed and synced. Returns the strings' offset.
Result<uint64_t> WriteVocabAndHeader(GloveVocab& v, int64_t dim, FILE* fout, const std::string& tmp) {
  std::string header(kGloveHeaderSize, '\0');
  std::sort(v.entries.begin(), v.entries.end(), [&](const VocabEntry& a, const VocabEntry& b) {
    return std::string_view(v.pool).substr(a.str_off, a.len) <
           std::string_view(v.pool).substr(b.str_off, b.len);
  });
  const uint64_t vectors_offset = kGloveHeaderSize;
  const uint64_t vocab_offset =
      vectors_offset + v.entries.size() * static_cast<uint64_t>(dim) * sizeof(float);
  const uint64_t strings_offset = vocab_offset + v.entries.size() * kEntrySize;
  std::string entries(v.entries.size() * kEntrySize, '\0');
  for (size_t i = 0; i < v.entries.size(); ++i) {
    Put(entries, i * kEntrySize + 0, v.entries[i].str_off);
    Put(entries, i * kEntrySize + 4, v.entries[i].len);
    Put(entries, i * kEntrySize + 8, v.entries[i].row);
    Put(entries, i * kEntrySize + 12, v.entries[i].rank);
  }
  if (std::fwrite(entries.data(), 1, entries.size(), fout) != entries.size() ||
      std::fwrite(v.pool.data(), 1, v.pool.size(), fout) != v.pool.size())
    return ErrnoStatus(errno, tmp);
  std::memcpy(header.data(), kGloveMagic, 8);
  Put(header, 8, static_cast<uint32_t>(dim));
  Put(header, 12, static_cast<uint32_t>(v.entries.size()));
  Put(header, 16, uint32_t{0});
  Put(header, 24, vectors_offset);
  Put(header, 32, vocab_offset);
  Put(header, 40, strings_offset);
  Put(header, 48, static_cast<uint64_t>(v.pool.size()));
  Put(header, 56, Fnv(reinterpret_cast<const uint8_t*>(header.data()), 56));
  if (std::fseek(fout, 0, SEEK_SET) != 0 ||
      std::fwrite(header.data(), 1, header.size(), fout) != header.size() || std::fflush(fout) != 0 ||
      ::fsync(::fileno(fout)) != 0)
    return ErrnoStatus(errno, tmp);
  return strings_offset;
}

}  // namespace

Result<GloveConvertReport> ConvertGloveJson(const std::string& in, const std::string& out) {
  FilePtr fin(std::fopen(in.c_str(), "rb"));
  if (!fin) return ErrnoStatus(errno, in);
  const std::string tmp = out + ".tmp." + std::to_string(::getpid());
  FilePtr fout(std::fopen(tmp.c_str(), "wb"));
  if (!fout) return ErrnoStatus(errno, tmp);
  struct Cleanup {
    const std::string& p;
    bool keep = false;
    ~Cleanup() {
      if (!keep) std::remove(p.c_str());
    }
  } cleanup{tmp};

  std::string header(kGloveHeaderSize, '\0');
  if (std::fwrite(header.data(), 1, header.size(), fout.get()) != header.size())
    return ErrnoStatus(errno, tmp);

  JsonScanner js(fin.get(), in);
  int64_t dim = -1, declared_size = -1, norm_index = -1, word_index = -1;
  GloveVocab vocab;
  bool have_vectors = false;
  std::string key;

  LAKEQA_RETURN_IF_ERROR(js.Expect('{'));
  if (!js.Accept('}')) {
    do {
      LAKEQA_RETURN_IF_ERROR(js.ReadString(key));
      LAKEQA_RETURN_IF_ERROR(js.Expect(':'));
      auto read_int = [&](int64_t& v) -> Status {
        double d;
        LAKEQA_RETURN_IF_ERROR(js.ReadNumber(d));
        if (d < 0 || d > 1e9 || d != std::floor(d))
          return js.Error("'" + key + "' must be a non-negative integer");
        v = static_cast<int64_t>(d);
        return Status::Ok();
      };
      if (key == "dimensions") {
        LAKEQA_RETURN_IF_ERROR(read_int(dim));
        if (dim < 1 || dim > kMaxDim)
          return js.Error("'dimensions' must be in 1.." + std::to_string(kMaxDim));
      } else if (key == "size") {
        LAKEQA_RETURN_IF_ERROR(read_int(declared_size));
      } else if (key == "l2NormIndex") {
        LAKEQA_RETURN_IF_ERROR(read_int(norm_index));
      } else if (key == "wordIndex") {
        LAKEQA_RETURN_IF_ERROR(read_int(word_index));
      } else if (key == "vectors") {
        if (dim < 0) return js.Error("'vectors' comes before 'dimensions'");
        // Where the rank sits in each array; the package puts it after the vector and its norm.
        if (word_index < 0) word_index = dim + 1;
        if (word_index < dim) return js.Error("'wordIndex' points inside the vector");
        have_vectors = true;
        LAKEQA_RETURN_IF_ERROR(ReadVectors(js, dim, word_index, vocab, fout.get(), tmp));
      } else {
        LAKEQA_RETURN_IF_ERROR(
            js.SkipValue());  // "words" (the rank order, carried per vector), "unkVector", ...
      }
    } while (js.Accept(','));
    LAKEQA_RETURN_IF_ERROR(js.Expect('}'));
  }
  if (js.Peek() != -1) return js.Error("trailing content after the top-level object");
  if (std::ferror(fin.get())) return ErrnoStatus(errno, in);
  if (!have_vectors) return ParseError(in + ": no 'vectors' object");
  if (vocab.entries.empty()) return ParseError(in + ": 'vectors' is empty");
  if (declared_size >= 0 && static_cast<size_t>(declared_size) != vocab.entries.size())
    return ParseError(in + ": 'size' says " + std::to_string(declared_size) + " words, 'vectors' has " +
                      std::to_string(vocab.entries.size()));

  LAKEQA_ASSIGN_OR_RETURN(uint64_t strings_offset, WriteVocabAndHeader(vocab, dim, fout.get(), tmp));
  if (std::fclose(fout.release()) != 0) return ErrnoStatus(errno, tmp);
  if (std::rename(tmp.c_str(), out.c_str()) != 0) return ErrnoStatus(errno, out);
  cleanup.keep = true;

  GloveConvertReport r;
  r.words = vocab.entries.size();
  r.dim = static_cast<size_t>(dim);
  r.json_bytes = js.offset();
  r.out_bytes = strings_offset + vocab.pool.size();
  return r;
}

struct GloveEmbedder::Impl {
  std::string path;
  void* map = nullptr;
  size_t map_size = 0;
  uint32_t dim = 0, count = 0;
  const float* vectors = nullptr;  // count * dim (the mapping is 8-byte aligned at offset 64)
  const uint8_t* entries = nullptr;
  const char* strings = nullptr;
  double harmonic = 1;  // H_N
  std::mutex mu;        // guards analyzer (libstemmer and the token buffers are per instance)
  text::Analyzer analyzer{[] {
    text::AnalyzerOptions o;
    o.stem = false;
    return o;
  }()};
  ~Impl() {
    if (map) ::munmap(map, map_size);
  }
  std::string_view Word(size_t i) const {
    const uint8_t* e = entries + i * kEntrySize;
    return {strings + Get<uint32_t>(e), Get<uint32_t>(e + 4)};
  }
};

GloveEmbedder::GloveEmbedder() : impl_(std::make_unique<Impl>()) {}
GloveEmbedder::~GloveEmbedder() = default;
size_t GloveEmbedder::dim() const { return impl_->dim; }
size_t GloveEmbedder::vocab_size() const { return impl_->count; }

std::string DefaultGlovePath(const std::string& source_dir) {
  if (const char* env = std::getenv("LAKEQA_GLOVE"); env && *env) return env;
  return source_dir + "/.deps/glove/glove100.bin";
}

Result<std::unique_ptr<GloveEmbedder>> GloveEmbedder::Open(const std::string& path) {
  std::unique_ptr<GloveEmbedder> g(new GloveEmbedder());
  Impl& im = *g->impl_;
  im.path = path;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return ErrnoStatus(e, path);
  }
  auto bad = [&](const std::string& what) { return Corrupt(path + ": " + what); };
  if (static_cast<uint64_t>(st.st_size) < kGloveHeaderSize) {
    ::close(fd);
    return bad("shorter than the 64-byte header");
  }
  im.map_size = static_cast<size_t>(st.st_size);
  im.map = ::mmap(nullptr, im.map_size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (im.map == MAP_FAILED) {
    im.map = nullptr;
    return ErrnoStatus(errno, path);
  }
  const auto* base = static_cast<const uint8_t*>(im.map);
  if (std::memcmp(base, kGloveMagic, 8) != 0) return bad("not a lakeqa GloVe file (bad magic)");
  if (Get<uint32_t>(base + 56) != Fnv(base, 56)) return bad("header checksum mismatch");
  im.dim = Get<uint32_t>(base + 8);
  im.count = Get<uint32_t>(base + 12);
  if (Get<uint32_t>(base + 16) != 0)
    return Unsupported(path + ": vector type " + std::to_string(Get<uint32_t>(base + 16)));
  uint64_t vo = Get<uint64_t>(base + 24), eo = Get<uint64_t>(base + 32), so = Get<uint64_t>(base + 40),
           ss = Get<uint64_t>(base + 48);
  if (im.dim == 0 || im.dim > kMaxDim || im.count == 0) return bad("bad dim or count in the header");
  if (vo != kGloveHeaderSize || eo != vo + uint64_t{im.count} * im.dim * sizeof(float) ||
      so != eo + uint64_t{im.count} * kEntrySize || so + ss != im.map_size)
    return bad("section offsets do not match the file size (truncated?)");
  im.vectors = reinterpret_cast<const float*>(base + vo);
  im.entries = base + eo;
  im.strings = reinterpret_cast<const char*>(base + so);
  // One pass over the vocabulary: bounds and strict order, so lookups can trust it.
  for (uint32_t i = 0; i < im.count; ++i) {
    const uint8_t* e = im.entries + size_t{i} * kEntrySize;
    uint64_t off = Get<uint32_t>(e), len = Get<uint32_t>(e + 4);
    if (off + len > ss || len == 0) return bad("vocabulary entry " + std::to_string(i) + " is out of bounds");
    if (Get<uint32_t>(e + 8) >= im.count)
      return bad("vocabulary entry " + std::to_string(i) + " names a missing row");
    if (i > 0 && !(im.Word(i - 1) < im.Word(i)))
      return bad("vocabulary is not sorted at entry " + std::to_string(i));
  }
  double h = 0;
  for (uint32_t i = 1; i <= im.count; ++i) h += 1.0 / i;
  im.harmonic = h;
  ::madvise(im.map, im.map_size, MADV_RANDOM);
  return g;
}

const float* GloveEmbedder::Lookup(std::string_view word, uint32_t* rank) const {
  const Impl& im = *impl_;
  size_t lo = 0, hi = im.count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = im.Word(mid).compare(word);
    if (c == 0) {
      const uint8_t* e = im.entries + mid * kEntrySize;
      if (rank) *rank = Get<uint32_t>(e + 12);
      return im.vectors + size_t{Get<uint32_t>(e + 8)} * im.dim;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return nullptr;
}

double GloveEmbedder::SifWeight(uint32_t rank) const {
  double p = 1.0 / ((static_cast<double>(rank) + 1.0) * impl_->harmonic);
  return kSifA / (kSifA + p);
}

Result<std::vector<std::vector<float>>> GloveEmbedder::Embed(const std::vector<std::string>& texts) {
  Impl& im = *impl_;
  std::vector<std::vector<float>> out;
  out.reserve(texts.size());
  std::lock_guard<std::mutex> lock(im.mu);
  std::vector<double> acc(im.dim);
  for (const std::string& text : texts) {
    std::fill(acc.begin(), acc.end(), 0.0);
    const auto& tokens = im.analyzer.Analyze(text);
    // An identifier found whole in the vocabulary ("covid-19") stands for its parts.
    uint32_t covered_position = UINT32_MAX;
    size_t used = 0;
    for (const text::Token& t : tokens) {
      if (t.kind == text::TokenKind::kPart && t.position == covered_position) continue;
      uint32_t rank = 0;
      const float* v = Lookup(im.analyzer.Term(t), &rank);
      if (!v) continue;
      if (t.kind == text::TokenKind::kCompound) covered_position = t.position;
      double w = SifWeight(rank);
      for (uint32_t j = 0; j < im.dim; ++j) acc[j] += w * v[j];
      ++used;
    }
    std::vector<float> e(im.dim);
    for (uint32_t j = 0; j < im.dim; ++j)
      e[j] = static_cast<float>(used ? acc[j] / static_cast<double>(used) : 0.0);
    L2Normalize(e);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace lakeqa::index
