#include "ingest/zip_ranges.h"

#include <zlib.h>

#include <algorithm>

#include "ingest/documents.h"
#include "lakeqa/common/strings.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::ingest {
namespace {

constexpr uint64_t kEocdBytes = 22;
constexpr uint64_t kTailBytes =
    kEocdBytes + 0xFFFF + 20;  // the record, its longest comment, the ZIP64 locator
constexpr uint32_t kMax32 = 0xFFFFFFFFu;
constexpr uint16_t kMax16 = 0xFFFF;

uint16_t U16(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b[at]) | static_cast<uint8_t>(b[at + 1]) << 8);
}
uint32_t U32(std::string_view b, size_t at) {
  return U16(b, at) | static_cast<uint32_t>(U16(b, at + 2)) << 16;
}
uint64_t U64(std::string_view b, size_t at) {
  return U32(b, at) | static_cast<uint64_t>(U32(b, at + 4)) << 32;
}

// The ZIP64 extended information extra field (id 1) holds, in this order, each of the three values whose
// 32-bit field is all ones.
void ApplyZip64Extra(std::string_view extra, ZipEntry& e, bool big_uncompressed, bool big_compressed,
                     bool big_offset) {
  size_t p = 0;
  while (p + 4 <= extra.size()) {
    uint16_t id = U16(extra, p), len = U16(extra, p + 2);
    if (p + 4 + len > extra.size()) return;
    if (id == 1) {
      size_t q = p + 4, end = q + len;
      if (big_uncompressed && q + 8 <= end) {
        e.uncompressed = U64(extra, q);
        q += 8;
      }
      if (big_compressed && q + 8 <= end) {
        e.compressed = U64(extra, q);
        q += 8;
      }
      if (big_offset && q + 8 <= end) e.offset = U64(extra, q);
      return;
    }
    p += 4 + len;
  }
}

}  // namespace

Result<std::string> RangedZip::Range(uint64_t offset, uint64_t length) {
  ++requests_;
  LAKEQA_ASSIGN_OR_RETURN(std::string b, store_->ReadRange(key_, offset, length));
  bytes_read_ += b.size();
  return b;
}

Result<RangedZip> RangedZip::Open(lake::Store& store, std::string_view key, uint64_t size,
                                  uint64_t max_directory_bytes) {
  RangedZip z(store, key, size);
  if (size < kEocdBytes) return ParseError("zip: " + std::to_string(size) + " bytes is too short for a zip");
  uint64_t tail_at = size - std::min(size, kTailBytes);
  LAKEQA_ASSIGN_OR_RETURN(std::string tail, z.Range(tail_at, size - tail_at));
  if (tail.size() < kEocdBytes) return ParseError("zip: the object is shorter than its listed size");
  // The end record is the last "PK\5\6" whose comment fits in what follows it.
  size_t eocd = std::string::npos;
  for (size_t p = tail.size() - kEocdBytes + 1; p-- > 0;) {
    if (tail.compare(p, 4, "PK\x05\x06") == 0 && p + kEocdBytes + U16(tail, p + 20) <= tail.size()) {
      eocd = p;
      break;
    }
  }
  if (eocd == std::string::npos)
    return ParseError("zip: no end of central directory record in the last 64 KiB");
  uint64_t count = U16(tail, eocd + 10);
  uint64_t dir_size = U32(tail, eocd + 12);
  uint64_t dir_at = U32(tail, eocd + 16);
  if (count == kMax16 || dir_size == kMax32 || dir_at == kMax32) {
    // ZIP64: the locator just before the end record gives the ZIP64 end record's offset.
    if (eocd < 20 || tail.compare(eocd - 20, 4, "PK\x06\x07") != 0)
      return ParseError("zip: ZIP64 end record expected but its locator is missing");
    uint64_t rec_at = U64(tail, eocd - 20 + 8);
    if (rec_at + 56 > size)
      return ParseError("zip: ZIP64 end record offset " + std::to_string(rec_at) + " is past the end");
    std::string rec;
    if (rec_at >= tail_at && rec_at - tail_at + 56 <= tail.size()) {
      rec = tail.substr(rec_at - tail_at, 56);
    } else {
      LAKEQA_ASSIGN_OR_RETURN(rec, z.Range(rec_at, 56));
    }
    if (rec.size() < 56 || rec.compare(0, 4, "PK\x06\x06") != 0)
      return ParseError("zip: ZIP64 end record is not valid");
    count = U64(rec, 32);
    dir_size = U64(rec, 40);
    dir_at = U64(rec, 48);
  }
  if (dir_at > size || dir_size > size - dir_at)
    return ParseError("zip: central directory (" + std::to_string(dir_size) + " bytes at " +
                      std::to_string(dir_at) + ") lies outside the " + std::to_string(size) + "-byte object");
  if (dir_size > max_directory_bytes)
    return ResourceExhausted("zip: central directory of " + std::to_string(dir_size) + " bytes exceeds the " +
                             std::to_string(max_directory_bytes) + "-byte cap");
  std::string dir;
  if (dir_at >= tail_at && dir_at - tail_at + dir_size <= tail.size()) {
    dir = tail.substr(dir_at - tail_at, dir_size);
  } else {
    LAKEQA_ASSIGN_OR_RETURN(dir, z.Range(dir_at, dir_size));
    if (dir.size() < dir_size) return ParseError("zip: central directory cut short");
  }
  size_t p = 0;
  while (p + 46 <= dir.size() && z.entries_.size() < count) {
    if (dir.compare(p, 4, "PK\x01\x02") != 0)
      return ParseError("zip: central directory entry " + std::to_string(z.entries_.size()) + " at offset " +
                        std::to_string(dir_at + p) + " has no signature");
    ZipEntry e;
    e.method = U16(dir, p + 10);
    uint32_t comp = U32(dir, p + 20), uncomp = U32(dir, p + 24), off = U32(dir, p + 42);
    size_t name_len = U16(dir, p + 28), extra_len = U16(dir, p + 30), comment_len = U16(dir, p + 32);
    if (p + 46 + name_len + extra_len + comment_len > dir.size())
      return ParseError("zip: central directory entry " + std::to_string(z.entries_.size()) +
                        " runs past the directory");
    e.name = SanitizeUtf8(dir.substr(p + 46, name_len));
    e.compressed = comp;
    e.uncompressed = uncomp;
    e.offset = off;
    e.extra = static_cast<uint16_t>(extra_len);
    ApplyZip64Extra(std::string_view(dir).substr(p + 46 + name_len, extra_len), e, uncomp == kMax32,
                    comp == kMax32, off == kMax32);
    z.entries_.push_back(std::move(e));
    p += 46 + name_len + extra_len + comment_len;
  }
  if (z.entries_.empty()) return ParseError("zip has no entries in its central directory");
  return z;
}

const ZipEntry* RangedZip::Find(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::string> RangedZip::Read(const ZipEntry& e, uint64_t max_in, size_t max_out, bool* complete,
                                    std::string* damage) {
  *complete = false;
  if (e.method != 0 && e.method != 8)
    return Unsupported("zip entry " + e.name + ": compression method " + std::to_string(e.method) +
                       " is not read");
  if (e.offset >= size_) return ParseError("zip entry " + e.name + ": local header offset past the end");
  uint64_t want = std::min(e.compressed, max_in);
  // The local header is 30 bytes, the name and an extra field that is often the directory's, sometimes
  // longer (writers put more timestamps there): some slack saves a second request.
  uint64_t guess = 30 + e.name.size() + e.extra + 256 + want;
  LAKEQA_ASSIGN_OR_RETURN(std::string b, Range(e.offset, guess));
  if (b.size() < 30 || b.compare(0, 4, "PK\x03\x04") != 0)
    return ParseError("zip entry " + e.name + ": no local header at offset " + std::to_string(e.offset));
  uint64_t data_at = 30 + static_cast<uint64_t>(U16(b, 26)) + U16(b, 28);
  if (b.size() < data_at + want && b.size() == guess) {
    LAKEQA_ASSIGN_OR_RETURN(std::string more, Range(e.offset + b.size(), data_at + want - b.size()));
    b += more;
  }
  if (b.size() < data_at) return ParseError("zip entry " + e.name + ": local header runs past the end");
  std::string_view data = std::string_view(b).substr(data_at, want);
  bool all_input = data.size() == e.compressed;
  if (e.method == 0) {
    *complete = all_input && data.size() <= max_out;
    return std::string(data.substr(0, max_out));
  }
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return Internal("zlib: inflateInit2 failed");
  std::string out;
  char buf[65536];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());  // at most max_in, which callers keep far below 4 GiB
  int r = Z_OK;
  while (out.size() < max_out) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    r = inflate(&zs, Z_NO_FLUSH);
    size_t got = sizeof buf - zs.avail_out;
    out.append(buf, std::min(got, max_out - out.size()));
    if (r == Z_STREAM_END) break;
    if (r == Z_BUF_ERROR || (r == Z_OK && got == 0)) break;  // input used up: a prefix was read
    if (r != Z_OK) break;
  }
  std::string msg = zs.msg ? zs.msg : "";
  uint64_t total_out = zs.total_out;
  inflateEnd(&zs);
  if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) {
    std::string why = "zip entry " + e.name + ": corrupt deflate data" + (msg.empty() ? "" : ": " + msg);
    if (out.empty()) return ParseError(why);
    if (damage) *damage = why + " after " + std::to_string(out.size()) + " bytes";
    return out;  // what inflated before the damage
  }
  *complete = r == Z_STREAM_END && total_out == out.size();
  return out;
}

Status ProfileZipByRanges(lake::Store& store, std::string_view key, uint64_t size,
                          const ProfileOptions& options, FileProfile& out, uint64_t* requests) {
  // Each part costs at most one cap of compressed bytes; sheets and shared strings compress about tenfold,
  // so a 64 KiB cap reaches the header row and the first hundreds of rows of any ordinary sheet.
  uint64_t cap_in =
      options.max_bytes == UINT64_MAX ? (4u << 20) : std::max<uint64_t>(options.max_bytes, 4096);
  size_t cap_out = static_cast<size_t>(std::min<uint64_t>(cap_in * 16, 16u << 20));
  auto zip = RangedZip::Open(store, key, size);
  if (!zip.ok()) return zip.status();
  auto part = [&](const ZipEntry* e, bool* complete) -> std::string {
    *complete = e == nullptr;
    if (!e) return "";
    std::string damage;
    auto r = zip->Read(*e, cap_in, cap_out, complete, &damage);
    if (!damage.empty()) out.warnings.push_back(damage);
    if (r.ok()) return std::move(*r);
    out.warnings.push_back(r.status().message());
    return "";
  };
  const ZipEntry* workbook = zip->Find("xl/workbook.xml");
  const ZipEntry* document = zip->Find("word/document.xml");
  out.encoding = "binary";
  if (workbook) {
    // The first sheet as the full profile takes it: sheet1.xml, else the first worksheet in the directory.
    const ZipEntry* sheet = zip->Find("xl/worksheets/sheet1.xml");
    for (const auto& e : zip->entries()) {
      if (sheet) break;
      if (StartsWith(e.name, "xl/worksheets/") && EndsWith(e.name, ".xml") &&
          e.name.find('/', 14) == std::string::npos)
        sheet = &e;
    }
    bool wb_done = false, shared_done = false, sheet_done = false;
    std::string wb = part(workbook, &wb_done);
    std::string shared = part(zip->Find("xl/sharedStrings.xml"), &shared_done);
    std::string sh = part(sheet, &sheet_done);
    ProfileXlsxParts(wb, shared, sh, options, out);
    out.rows_exact = sheet_done && sheet != nullptr;
    if (!shared_done)
      out.warnings.push_back("shared strings read in part (" + std::to_string(shared.size()) +
                             " bytes): cells whose text lies beyond are empty");
  } else if (document) {
    bool done = false;
    std::string doc = part(document, &done);
    ProfileDocxPart(doc, options, out);
  } else {
    out.format = Format::kZip;
    for (const auto& e : zip->entries()) {
      if (out.json_paths.size() >= options.max_json_paths) break;
      out.json_paths.push_back(e.name);
    }
  }
  out.bytes_read = zip->bytes_read();
  if (requests) *requests = zip->requests();
  return Status::Ok();
}

}  // namespace lakeqa::ingest
