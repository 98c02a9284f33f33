#include "index/segment.h"

#include <algorithm>
#include <bit>

namespace lakeqa::index {

std::string SegmentFile(const std::string& dir, const std::string& name, std::string_view ext) {
  return dir + "/" + name + "." + std::string(ext);
}

Result<std::shared_ptr<Segment>> Segment::Open(const std::string& dir, const std::string& name,
                                               size_t num_fields, bool verify_checksums) {
  auto seg = std::make_shared<Segment>();
  seg->name_ = name;
  LAKEQA_RETURN_IF_ERROR(seg->dict_file_.Open(SegmentFile(dir, name, "tdi"), kDictMagic, verify_checksums));
  LAKEQA_RETURN_IF_ERROR(
      seg->postings_file_.Open(SegmentFile(dir, name, "pst"), kPostingsMagic, verify_checksums));
  LAKEQA_RETURN_IF_ERROR(seg->norms_file_.Open(SegmentFile(dir, name, "nrm"), kNormsMagic, verify_checksums));
  LAKEQA_RETURN_IF_ERROR(
      seg->stored_file_.Open(SegmentFile(dir, name, "sto"), kStoredMagic, verify_checksums));
  LAKEQA_RETURN_IF_ERROR(seg->Validate(num_fields));
  return seg;
}

// Structural checks, so that a file that passed (or skipped) its checksum but is inconsistent fails
// here with a clear message rather than reading out of bounds later.
Status Segment::Validate(size_t num_fields) {
  // Norms: u32 docs, u32 fields, fields x (u64 sum, u64 count), fields x docs bytes.
  const uint8_t* n = norms_file_.body();
  uint64_t nsize = norms_file_.body_size();
  if (nsize < 8) return Corrupt(norms_file_.path() + ": truncated header");
  num_docs_ = GetU32(n);
  if (GetU32(n + 4) != num_fields)
    return Corrupt(norms_file_.path() + ": has " + std::to_string(GetU32(n + 4)) + " fields, schema has " +
                   std::to_string(num_fields));
  if (nsize != 8 + num_fields * 16 + num_fields * static_cast<uint64_t>(num_docs_))
    return Corrupt(norms_file_.path() + ": size does not match its document count");
  norm_stats_ = n + 8;
  norms_ = n + 8 + num_fields * 16;

  // Dictionary: u32 terms, u32 reserved, entries, keys.
  const uint8_t* d = dict_file_.body();
  uint64_t dsize = dict_file_.body_size();
  if (dsize < 8) return Corrupt(dict_file_.path() + ": truncated header");
  num_terms_ = GetU32(d);
  if (dsize < 8 + static_cast<uint64_t>(num_terms_) * kDictEntrySize)
    return Corrupt(dict_file_.path() + ": entries run past the end of the file");
  entries_ = d + 8;
  keys_ = entries_ + static_cast<uint64_t>(num_terms_) * kDictEntrySize;
  keys_size_ = dsize - 8 - static_cast<uint64_t>(num_terms_) * kDictEntrySize;
  std::string_view prev;
  for (uint32_t i = 0; i < num_terms_; ++i) {
    const uint8_t* e = entries_ + static_cast<uint64_t>(i) * kDictEntrySize;
    uint64_t key_off = GetU64(e), post_off = GetU64(e + 8);
    uint32_t key_len = GetU32(e + 16), df = GetU32(e + 20);
    if (key_off + key_len > keys_size_ || key_len == 0)
      return Corrupt(dict_file_.path() + ": term " + std::to_string(i) + " key out of bounds");
    std::string_view key(reinterpret_cast<const char*>(keys_ + key_off), key_len);
    if (i > 0 && !(prev < key))
      return Corrupt(dict_file_.path() + ": terms not sorted at " + std::to_string(i));
    prev = key;
    uint64_t blocks = (static_cast<uint64_t>(df) + kBlockSize - 1) / kBlockSize;
    if (df == 0 || df > num_docs_ || post_off + blocks * kSkipEntrySize > postings_file_.body_size())
      return Corrupt(dict_file_.path() + ": term " + std::to_string(i) + " postings out of bounds");
  }

  // Stored: records, u64 offsets x (docs + 1), u32 docs.
  const uint8_t* s = stored_file_.body();
  uint64_t ssize = stored_file_.body_size();
  if (ssize < 4 || GetU32(s + ssize - 4) != num_docs_)
    return Corrupt(stored_file_.path() + ": document count differs from " + norms_file_.path());
  uint64_t table = (static_cast<uint64_t>(num_docs_) + 1) * 8;
  if (ssize < 4 + table) return Corrupt(stored_file_.path() + ": offset table truncated");
  stored_offsets_ = s + ssize - 4 - table;
  uint64_t records_end = ssize - 4 - table;
  uint64_t prev_off = 0;
  for (uint32_t i = 0; i <= num_docs_; ++i) {
    uint64_t off = GetU64(stored_offsets_ + static_cast<uint64_t>(i) * 8);
    if (off < prev_off || off > records_end) return Corrupt(stored_file_.path() + ": bad record offsets");
    prev_off = off;
  }
  return Status::Ok();
}

std::string_view Segment::Key(uint32_t i) const {
  const uint8_t* e = entries_ + static_cast<uint64_t>(i) * kDictEntrySize;
  return {reinterpret_cast<const char*>(keys_ + GetU64(e)), GetU32(e + 16)};
}

TermInfo Segment::Info(uint32_t i) const {
  const uint8_t* e = entries_ + static_cast<uint64_t>(i) * kDictEntrySize;
  TermInfo t;
  t.postings_off = GetU64(e + 8);
  t.df = GetU32(e + 20);
  t.max_tf = GetU32(e + 24);
  t.min_norm = e[28];
  return t;
}

namespace {
// a < b as std::string_view orders them (bytes as unsigned char), inline: dictionary keys are short and a
// binary search's probes differ within a few bytes, where a libc memcmp call per probe cost a third of
// a query's time (the spelling variants' lookups).
bool KeyLess(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}
}  // namespace

int64_t Segment::Find(std::string_view key, uint32_t lo, uint32_t hi, uint32_t* lower_bound) const {
  const uint32_t end = hi;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (KeyLess(Key(mid), key)) lo = mid + 1;
    else hi = mid;
  }
  if (lower_bound != nullptr) *lower_bound = lo;
  return lo < end && Key(lo) == key ? static_cast<int64_t>(lo) : -1;
}

std::pair<uint32_t, uint32_t> Segment::PrefixRange(std::string_view prefix) const {
  uint32_t lo = 0, hi = num_terms_;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (Key(mid) < prefix) lo = mid + 1;
    else hi = mid;
  }
  uint32_t end = lo;
  hi = num_terms_;
  while (end < hi) {  // first key that does not start with prefix
    uint32_t mid = end + (hi - end) / 2;
    if (Key(mid).substr(0, prefix.size()) <= prefix) end = mid + 1;
    else hi = mid;
  }
  return {lo, end};
}

uint64_t Segment::sum_length(size_t field) const { return GetU64(norm_stats_ + field * 16); }
uint64_t Segment::docs_with_field(size_t field) const { return GetU64(norm_stats_ + field * 16 + 8); }

std::string_view Segment::StoredRecord(uint32_t doc) const {
  uint64_t a = GetU64(stored_offsets_ + static_cast<uint64_t>(doc) * 8);
  uint64_t b = GetU64(stored_offsets_ + static_cast<uint64_t>(doc + 1) * 8);
  return {reinterpret_cast<const char*>(stored_file_.body() + a), b - a};
}

Status Segment::Stored(uint32_t doc, std::string_view* id,
                       std::vector<std::pair<int, std::string_view>>* fields) const {
  if (doc >= num_docs_) return InvalidArgument("document " + std::to_string(doc) + " out of range");
  std::string_view rec = StoredRecord(doc);
  const auto* p = reinterpret_cast<const uint8_t*>(rec.data());
  const uint8_t* end = p + rec.size();
  auto bad = [&] {
    return Corrupt(stored_file_.path() + ": bad record for document " + std::to_string(doc));
  };
  uint64_t len = 0;
  p = GetVarint(p, end, &len);
  if (p == nullptr || len > static_cast<uint64_t>(end - p)) return bad();
  *id = {reinterpret_cast<const char*>(p), len};
  p += len;
  if (fields == nullptr) return Status::Ok();
  fields->clear();
  uint64_t count = 0;
  p = GetVarint(p, end, &count);
  if (p == nullptr) return bad();
  for (uint64_t i = 0; i < count; ++i) {
    if (p >= end) return bad();
    int f = *p++;
    p = GetVarint(p, end, &len);
    if (p == nullptr || len > static_cast<uint64_t>(end - p)) return bad();
    fields->emplace_back(f, std::string_view(reinterpret_cast<const char*>(p), len));
    p += len;
  }
  return Status::Ok();
}

Result<std::string_view> Segment::StoredId(uint32_t doc) const {
  std::string_view id;
  LAKEQA_RETURN_IF_ERROR(Stored(doc, &id, nullptr));
  return id;
}

void EncodeStored(std::string_view id, const std::vector<std::pair<int, std::string_view>>& fields,
                  std::string& out) {
  PutVarint(out, id.size());
  out.append(id);
  PutVarint(out, fields.size());
  for (const auto& [f, v] : fields) {
    out.push_back(static_cast<char>(f));
    PutVarint(out, v.size());
    out.append(v);
  }
}

// --- builder ---

Status SegmentBuilder::Open(const std::string& dir, const std::string& name) {
  dir_ = dir;
  name_ = name;
  LAKEQA_RETURN_IF_ERROR(postings_.Open(SegmentFile(dir, name, "pst"), kPostingsMagic));
  LAKEQA_RETURN_IF_ERROR(stored_.Open(SegmentFile(dir, name, "sto"), kStoredMagic));
  stored_offsets_.push_back(0);
  return Status::Ok();
}

Status SegmentBuilder::AddTerm(std::string_view key, const uint32_t* docs, const uint32_t* tfs, size_t n,
                               const uint32_t* positions, const uint8_t* norms) {
  if (n == 0) return Status::Ok();
  if (num_terms_ > 0 && !(last_key_ < key)) return Internal("segment terms added out of order");
  if (key.size() > UINT32_MAX || n > UINT32_MAX) return ResourceExhausted("term too large");
  last_key_.assign(key);
  uint64_t term_off = postings_.offset() - kMagicSize;
  size_t blocks = (n + kBlockSize - 1) / kBlockSize;
  skips_.clear();
  block_.clear();
  uint32_t term_max_tf = 0;
  uint8_t term_min_norm = 255;
  const uint32_t* pos = positions;
  uint32_t prev_doc = 0;
  for (size_t b = 0; b < blocks; ++b) {
    size_t first = b * kBlockSize, last = std::min(n, first + kBlockSize);
    if (block_.size() > UINT32_MAX) return ResourceExhausted("postings of one term exceed 4 GiB");
    uint32_t data_off = static_cast<uint32_t>(block_.size());
    uint32_t max_tf = 0;
    uint8_t min_norm = 255;
    for (size_t i = first; i < last; ++i) {
      PutVarint(block_, docs[i] - prev_doc);
      prev_doc = docs[i];
      max_tf = std::max(max_tf, tfs[i]);
      if (norms != nullptr) min_norm = std::min(min_norm, norms[docs[i]]);
    }
    if (norms == nullptr) min_norm = 0;
    for (size_t i = first; i < last; ++i) PutVarint(block_, tfs[i]);
    for (size_t i = first; i < last; ++i) {
      uint32_t prev = 0;
      for (uint32_t j = 0; j < tfs[i]; ++j) {
        PutVarint(block_, pos[j] - prev);
        prev = pos[j];
      }
      pos += tfs[i];
    }
    PutU32(skips_, docs[last - 1]);
    PutU32(skips_, data_off);
    PutU32(skips_, max_tf);
    skips_.push_back(static_cast<char>(min_norm));
    skips_.append(3, '\0');
    term_max_tf = std::max(term_max_tf, max_tf);
    term_min_norm = std::min(term_min_norm, min_norm);
  }
  LAKEQA_RETURN_IF_ERROR(postings_.Write(skips_));
  LAKEQA_RETURN_IF_ERROR(postings_.Write(block_));
  PutU64(entries_, keys_.size());
  PutU64(entries_, term_off);
  PutU32(entries_, static_cast<uint32_t>(key.size()));
  PutU32(entries_, static_cast<uint32_t>(n));
  PutU32(entries_, term_max_tf);
  entries_.push_back(static_cast<char>(term_min_norm));
  entries_.append(3, '\0');
  keys_.append(key);
  ++num_terms_;
  return Status::Ok();
}

Status SegmentBuilder::AddStored(std::string_view record) {
  LAKEQA_RETURN_IF_ERROR(stored_.Write(record));
  stored_offsets_.push_back(stored_.offset() - kMagicSize);
  return Status::Ok();
}

Status SegmentBuilder::Finish(uint32_t num_docs, const std::vector<std::vector<uint8_t>>& norms) {
  if (stored_offsets_.size() != static_cast<size_t>(num_docs) + 1)
    return Internal("segment stored records do not match its document count");
  std::string tail;
  for (uint64_t off : stored_offsets_) PutU64(tail, off);
  PutU32(tail, num_docs);
  LAKEQA_RETURN_IF_ERROR(stored_.Write(tail));
  LAKEQA_RETURN_IF_ERROR(stored_.Finish());
  LAKEQA_RETURN_IF_ERROR(postings_.Finish());

  FileWriter dict;
  LAKEQA_RETURN_IF_ERROR(dict.Open(SegmentFile(dir_, name_, "tdi"), kDictMagic));
  std::string head;
  PutU32(head, num_terms_);
  PutU32(head, 0);
  LAKEQA_RETURN_IF_ERROR(dict.Write(head));
  LAKEQA_RETURN_IF_ERROR(dict.Write(entries_));
  LAKEQA_RETURN_IF_ERROR(dict.Write(keys_));
  LAKEQA_RETURN_IF_ERROR(dict.Finish());

  FileWriter nrm;
  LAKEQA_RETURN_IF_ERROR(nrm.Open(SegmentFile(dir_, name_, "nrm"), kNormsMagic));
  head.clear();
  PutU32(head, num_docs);
  PutU32(head, static_cast<uint32_t>(norms.size()));
  for (const auto& f : norms) {
    if (!f.empty() && f.size() != num_docs) return Internal("norms size mismatch");
    uint64_t sum = 0, count = 0;
    for (uint8_t b : f) {
      sum += DecodeLength(b);
      count += b != 0;
    }
    PutU64(head, sum);
    PutU64(head, count);
  }
  LAKEQA_RETURN_IF_ERROR(nrm.Write(head));
  std::string zeros;
  for (const auto& f : norms) {
    if (f.empty()) {
      zeros.assign(num_docs, '\0');
      LAKEQA_RETURN_IF_ERROR(nrm.Write(zeros));
    } else {
      LAKEQA_RETURN_IF_ERROR(nrm.Write(std::string_view(reinterpret_cast<const char*>(f.data()), f.size())));
    }
  }
  return nrm.Finish();
}

// --- deletes ---

bool DeleteBitmap::Set(uint32_t doc) {
  uint64_t bit = uint64_t{1} << (doc & 63);
  if (words_[doc >> 6] & bit) return false;
  words_[doc >> 6] |= bit;
  ++count_;
  return true;
}

Status DeleteBitmap::Write(const std::string& path) const {
  FileWriter w;
  LAKEQA_RETURN_IF_ERROR(w.Open(path, kDeletesMagic));
  std::string body;
  PutU32(body, num_docs_);
  PutU32(body, count_);
  for (uint64_t word : words_) PutU64(body, word);
  LAKEQA_RETURN_IF_ERROR(w.Write(body));
  return w.Finish();
}

Result<DeleteBitmap> DeleteBitmap::Read(const std::string& path, uint32_t num_docs, bool verify_checksum) {
  MappedFile f;
  LAKEQA_RETURN_IF_ERROR(f.Open(path, kDeletesMagic, verify_checksum));
  DeleteBitmap bm(num_docs);
  if (f.body_size() != 8 + bm.words_.size() * 8 || GetU32(f.body()) != num_docs)
    return Corrupt(path + ": size does not match the segment's document count");
  uint32_t count = 0;
  for (size_t i = 0; i < bm.words_.size(); ++i) {
    bm.words_[i] = GetU64(f.body() + 8 + i * 8);
    count += static_cast<uint32_t>(std::popcount(bm.words_[i]));
  }
  if (count != GetU32(f.body() + 4)) return Corrupt(path + ": deleted count does not match the bitmap");
  bm.count_ = count;
  return bm;
}

}  // namespace lakeqa::index
