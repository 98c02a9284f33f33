#include "index/mem_segment.h"

#include <algorithm>
#include <numeric>

#include "lakeqa/index/index.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {
constexpr size_t kMaxIdBytes = 4096;
constexpr size_t kTermOverhead = 64;  // table slots, postings header and vector slack, roughly
constexpr size_t kInitialSlots = 1 << 16;

uint64_t HashKey(std::string_view key) { return std::hash<std::string_view>{}(key); }
uint32_t SlotHash(uint64_t h) { return static_cast<uint32_t>(h >> 32); }
}  // namespace

MemSegment::MemSegment(const Schema& schema, const text::AnalyzerOptions& analyzer)
    : schema_(schema), analyzer_(analyzer), slots_(kInitialSlots), norms_(schema.fields().size()) {}

int64_t MemSegment::Find(std::string_view key, uint64_t hash) const {
  size_t mask = slots_.size() - 1;
  uint32_t sh = SlotHash(hash);
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.id == 0) return -1;
    if (s.hash == sh && Key(s.id - 1) == key) return s.id - 1;
  }
}

void MemSegment::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  size_t mask = slots_.size() - 1;
  for (uint32_t id = 0; id < postings_.size(); ++id) {
    uint64_t h = HashKey(Key(id));
    size_t i = h & mask;
    while (slots_[i].id != 0) i = (i + 1) & mask;
    slots_[i] = {SlotHash(h), id + 1};
  }
  bytes_ += old.size() * sizeof(Slot);
}

MemSegment::Postings& MemSegment::Intern(std::string_view key) {
  uint64_t h = HashKey(key);
  size_t mask = slots_.size() - 1;
  uint32_t sh = SlotHash(h);
  size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.id == 0) break;
    if (s.hash == sh && Key(s.id - 1) == key) return postings_[s.id - 1];
  }
  auto id = static_cast<uint32_t>(postings_.size());
  slots_[i] = {sh, id + 1};
  arena_.append(key);
  key_offsets_.push_back(arena_.size());
  postings_.emplace_back();
  bytes_ += kTermOverhead + key.size();
  if (2 * postings_.size() > slots_.size()) {
    Grow();
  }
  return postings_.back();
}

Status MemSegment::Add(const Document& doc) {
  if (doc.id.empty()) return InvalidArgument("document has an empty id");
  if (doc.id.size() > kMaxIdBytes) return InvalidArgument("document id longer than 4096 bytes");
  const auto& fields = schema_.fields();
  for (const auto& [name, value] : doc.fields) {
    if (schema_.Find(name) < 0)
      return InvalidArgument("document '" + doc.id + "': unknown field '" + name + "'");
  }
  if (num_docs_ == UINT32_MAX - 1) return ResourceExhausted("segment document limit reached");
  uint32_t d = num_docs_;
  base_.assign(fields.size(), 0);
  length_.assign(fields.size(), 0);
  stored_fields_.clear();
  auto add = [&](std::string_view key, uint32_t position) {
    Postings& p = Intern(key);
    if (p.last_doc != d) {
      p.last_doc = d;
      p.data.push_back(d);
      p.tf_at = static_cast<uint32_t>(p.data.size());
      p.data.push_back(0);
      ++p.docs;
      bytes_ += 8;
    }
    ++p.data[p.tf_at];
    p.data.push_back(position);
    bytes_ += 4;
  };
  key_.assign(1, kIdFieldByte);
  key_.append(doc.id);
  add(key_, 0);
  for (const auto& [name, value] : doc.fields) {
    int f = schema_.Find(name);
    const FieldSpec& spec = fields[f];
    if (spec.stored) stored_fields_.emplace_back(f, value);
    if (spec.text) {
      uint32_t base = base_[f];
      const auto& toks = analyzer_.Analyze(value, base);
      for (const text::Token& t : toks) {
        key_.assign(1, TextFieldByte(f));
        key_.append(analyzer_.Term(t));
        add(key_, t.position);
      }
      length_[f] += analyzer_.length();
      base_[f] = base + analyzer_.positions_used() + kValuePositionGap;
    }
    if (spec.keyword) {
      std::string folded = text::FoldKeyword(value);
      if (folded.empty() || folded.size() > kMaxIdBytes) continue;
      key_.assign(1, KeywordFieldByte(f));
      key_.append(folded);
      Postings& p = Intern(key_);
      if (p.last_doc != d) {  // a repeated value counts once
        p.last_doc = d;
        p.data.insert(p.data.end(), {d, 1u, 0u});
        p.tf_at = static_cast<uint32_t>(p.data.size() - 2);
        ++p.docs;
        bytes_ += 12;
      }
    }
  }
  for (size_t f = 0; f < fields.size(); ++f) {
    if (fields[f].text) {
      norms_[f].resize(d + 1, 0);
      norms_[f][d] = EncodeLength(length_[f]);
    }
  }
  EncodeStored(doc.id, stored_fields_, stored_);
  stored_offsets_.push_back(stored_.size());
  deleted_.push_back(false);
  bytes_ += stored_.size() - stored_offsets_[stored_offsets_.size() - 2] + 8 + fields.size();
  ++num_docs_;
  return Status::Ok();
}

uint32_t MemSegment::Delete(std::string_view id) {
  key_.assign(1, kIdFieldByte);
  key_.append(id);
  int64_t t = Find(key_, HashKey(key_));
  if (t < 0) return 0;
  uint32_t n = 0;
  const std::vector<uint32_t>& data = postings_[t].data;
  for (size_t i = 0; i < data.size(); i += 2 + data[i + 1]) {
    uint32_t d = data[i];
    if (!deleted_[d]) {
      deleted_[d] = true;
      ++n;
    }
  }
  return n;
}

Status MemSegment::Write(const std::string& dir, const std::string& name, DeleteBitmap* deletes) const {
  // Sorted by the keys' first 8 bytes (big-endian, so integer order is byte order) and only on a tie by
  // the whole key: most comparisons then touch no key bytes in the arena.
  struct Order {
    uint64_t prefix;
    uint32_t id;
  };
  std::vector<Order> sorted(postings_.size());
  for (uint32_t t = 0; t < sorted.size(); ++t) {
    std::string_view k = Key(t);
    uint64_t p = 0;
    for (size_t i = 0; i < 8; ++i) p = (p << 8) | (i < k.size() ? static_cast<unsigned char>(k[i]) : 0u);
    sorted[t] = {p, t};
  }
  std::sort(sorted.begin(), sorted.end(), [&](const Order& a, const Order& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return Key(a.id) < Key(b.id);
  });
  std::vector<uint32_t> order(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) order[i] = sorted[i].id;
  sorted = {};
  SegmentBuilder builder;
  LAKEQA_RETURN_IF_ERROR(builder.Open(dir, name));
  std::vector<uint32_t> docs, tfs, positions;
  for (uint32_t t : order) {
    std::string_view key = Key(t);
    const Postings& p = postings_[t];
    docs.clear();
    tfs.clear();
    positions.clear();
    for (size_t i = 0; i < p.data.size(); i += 2 + p.data[i + 1]) {
      docs.push_back(p.data[i]);
      tfs.push_back(p.data[i + 1]);
      positions.insert(positions.end(), p.data.begin() + static_cast<ptrdiff_t>(i + 2),
                       p.data.begin() + static_cast<ptrdiff_t>(i + 2 + p.data[i + 1]));
    }
    auto field = static_cast<unsigned char>(key[0]);
    const uint8_t* norms = field < 0x40 ? norms_[field].data() : nullptr;
    LAKEQA_RETURN_IF_ERROR(
        builder.AddTerm(key, docs.data(), tfs.data(), docs.size(), positions.data(), norms));
  }
  for (uint32_t d = 0; d < num_docs_; ++d) {
    LAKEQA_RETURN_IF_ERROR(builder.AddStored(
        std::string_view(stored_).substr(stored_offsets_[d], stored_offsets_[d + 1] - stored_offsets_[d])));
  }
  LAKEQA_RETURN_IF_ERROR(builder.Finish(num_docs_, norms_));
  *deletes = DeleteBitmap(num_docs_);
  for (uint32_t d = 0; d < num_docs_; ++d) {
    if (deleted_[d]) deletes->Set(d);
  }
  return Status::Ok();
}

}  // namespace lakeqa::index
