// Character encodings of text files: detection on the head (BOM, valid UTF-8, UTF-16 by its NUL pattern,
// else Latin-1) and streaming conversion to UTF-8, so every later stage sees UTF-8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lakeqa {

enum class Encoding { kUtf8, kUtf8Bom, kUtf16Le, kUtf16Be, kLatin1 };

std::string_view EncodingName(Encoding e);

// complete: head is the whole file (else its last bytes may be a cut UTF-8 sequence).
Encoding DetectEncoding(std::string_view head, bool complete);

// UTF-16 without a byte order mark, told by NULs in every other byte of mostly-ASCII text.
// Returns kUtf16Le, kUtf16Be, or kUtf8 for "not UTF-16".
Encoding GuessUtf16WithoutBom(std::string_view head);

// Streaming conversion to UTF-8; a code unit or surrogate pair split between chunks is carried over.
class Transcoder {
 public:
  explicit Transcoder(Encoding e) : enc_(e) {}
  // Returns a view valid until the next call.
  std::string_view Convert(std::string_view in);
  size_t BufferedBytes() const { return out_.capacity() + carry_.capacity(); }

 private:
  Encoding enc_;
  bool bom_checked_ = false;
  std::string out_, carry_;
};

}  // namespace lakeqa
