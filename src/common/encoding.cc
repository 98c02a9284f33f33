#include "lakeqa/common/encoding.h"

#include "lakeqa/common/strings.h"

namespace lakeqa {

std::string_view EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kUtf8: return "utf-8";
    case Encoding::kUtf8Bom: return "utf-8-bom";
    case Encoding::kUtf16Le: return "utf-16le";
    case Encoding::kUtf16Be: return "utf-16be";
    case Encoding::kLatin1: return "latin-1";
  }
  return "utf-8";
}

Encoding GuessUtf16WithoutBom(std::string_view head) {
  size_t n = std::min<size_t>(head.size(), 4096) & ~size_t{1};
  if (n < 4) return Encoding::kUtf8;
  size_t even_zero = 0, odd_zero = 0;
  for (size_t i = 0; i < n; i += 2) {
    even_zero += head[i] == '\0';
    odd_zero += head[i + 1] == '\0';
  }
  size_t pairs = n / 2;
  // ASCII-heavy text in UTF-16 has a NUL in (nearly) every pair, always on the same side.
  if (odd_zero * 10 >= pairs * 7 && even_zero * 20 <= pairs) return Encoding::kUtf16Le;
  if (even_zero * 10 >= pairs * 7 && odd_zero * 20 <= pairs) return Encoding::kUtf16Be;
  return Encoding::kUtf8;
}

Encoding DetectEncoding(std::string_view head, bool complete) {
  if (StartsWith(head, "\xEF\xBB\xBF")) return Encoding::kUtf8Bom;
  if (StartsWith(head, "\xFF\xFE")) return Encoding::kUtf16Le;
  if (StartsWith(head, "\xFE\xFF")) return Encoding::kUtf16Be;
  Encoding utf16 = GuessUtf16WithoutBom(head);
  if (utf16 != Encoding::kUtf8) return utf16;
  // A head cut at 64 KiB may end inside a UTF-8 sequence: ignore up to 3 trailing bytes.
  std::string_view check = head;
  if (!complete && check.size() > 3) check = TruncateUtf8(check, check.size() - 3);
  return IsValidUtf8(check) ? Encoding::kUtf8 : Encoding::kLatin1;
}

std::string_view Transcoder::Convert(std::string_view in) {
  if (enc_ == Encoding::kUtf8) return in;
  out_.clear();
  if (enc_ == Encoding::kUtf8Bom) {
    if (!bom_checked_) {
      // The BOM itself may arrive split over the first chunks.
      carry_.append(in);
      if (carry_.size() < 3 && std::string_view("\xEF\xBB\xBF").substr(0, carry_.size()) == carry_) return {};
      bom_checked_ = true;
      out_ = StartsWith(carry_, "\xEF\xBB\xBF") ? carry_.substr(3) : carry_;
      carry_.clear();
      return out_;
    }
    return in;
  }
  if (enc_ == Encoding::kLatin1) {
    for (unsigned char c : in) AppendUtf8(c, out_);
    return out_;
  }
  carry_.append(in);
  bool le = enc_ == Encoding::kUtf16Le;
  auto unit_at = [&](size_t i) -> uint32_t {
    auto b0 = static_cast<unsigned char>(carry_[i]), b1 = static_cast<unsigned char>(carry_[i + 1]);
    return le ? static_cast<uint32_t>(b0 | (b1 << 8)) : static_cast<uint32_t>((b0 << 8) | b1);
  };
  size_t i = 0;
  if (!bom_checked_) {
    if (carry_.size() < 2) return {};
    bom_checked_ = true;
    if (unit_at(0) == 0xFEFF) i = 2;
  }
  for (; i + 1 < carry_.size(); i += 2) {
    uint32_t unit = unit_at(i);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      if (i + 3 >= carry_.size()) break;  // wait for the low surrogate
      uint32_t low = unit_at(i + 2);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        AppendUtf8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), out_);
        i += 2;
      } else {
        AppendUtf8(0xFFFD, out_);
      }
    } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
      AppendUtf8(0xFFFD, out_);
    } else {
      AppendUtf8(unit, out_);
    }
  }
  carry_.erase(0, i);
  return out_;
}

}  // namespace lakeqa
