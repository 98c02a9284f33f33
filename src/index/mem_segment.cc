#include "index/mem_segment.h"

#include <algorithm>
#include <numeric>

#include "lakeqa/index/index.h"
#include "lakeqa/text/normalize.h"

namespace lakeqa::index {
namespace {
constexpr size_t kMaxIdBytes = 4096;
constexpr size_t kTermOverhead = 128;  // map node, key string and three vectors, roughly
}  // namespace

MemSegment::MemSegment(const Schema& schema, const text::AnalyzerOptions& analyzer)
    : schema_(schema), analyzer_(analyzer), norms_(schema.fields().size()) {}

MemSegment::Postings& MemSegment::Intern(std::string_view key) {
  auto it = term_ids_.find(key);
  if (it != term_ids_.end()) return postings_[it->second];
  uint32_t id = static_cast<uint32_t>(keys_.size());
  term_ids_.emplace(std::string(key), id);
  keys_.emplace_back(key);
  postings_.emplace_back();
  bytes_ += kTermOverhead + 2 * key.size();
  return postings_.back();
}

Status MemSegment::Add(const Document& doc) {
  if (doc.id.empty()) return InvalidArgument("document has an empty id");
  if (doc.id.size() > kMaxIdBytes) return InvalidArgument("document id longer than 4096 bytes");
  const auto& fields = schema_.fields();
  for (const auto& [name, value] : doc.fields) {
    if (schema_.Find(name) < 0) return InvalidArgument("document '" + doc.id + "': unknown field '" + name + "'");
  }
  if (num_docs_ == UINT32_MAX - 1) return ResourceExhausted("segment document limit reached");
  uint32_t d = num_docs_;
  base_.assign(fields.size(), 0);
  length_.assign(fields.size(), 0);
  stored_fields_.clear();
  auto add = [&](std::string_view key, uint32_t position) {
    Postings& p = Intern(key);
    if (p.docs.empty() || p.docs.back() != d) {
      p.docs.push_back(d);
      p.tfs.push_back(0);
      bytes_ += 8;
    }
    ++p.tfs.back();
    p.positions.push_back(position);
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
      if (p.docs.empty() || p.docs.back() != d) {  // a repeated value counts once
        p.docs.push_back(d);
        p.tfs.push_back(1);
        p.positions.push_back(0);
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
  auto it = term_ids_.find(std::string_view(key_));
  if (it == term_ids_.end()) return 0;
  uint32_t n = 0;
  for (uint32_t d : postings_[it->second].docs) {
    if (!deleted_[d]) {
      deleted_[d] = true;
      ++n;
    }
  }
  return n;
}

Status MemSegment::Write(const std::string& dir, const std::string& name, DeleteBitmap* deletes) const {
  std::vector<uint32_t> order(keys_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
  SegmentBuilder builder;
  LAKEQA_RETURN_IF_ERROR(builder.Open(dir, name));
  for (uint32_t t : order) {
    const std::string& key = keys_[t];
    const Postings& p = postings_[t];
    auto field = static_cast<unsigned char>(key[0]);
    const uint8_t* norms = field < 0x40 ? norms_[field].data() : nullptr;
    LAKEQA_RETURN_IF_ERROR(
        builder.AddTerm(key, p.docs.data(), p.tfs.data(), p.docs.size(), p.positions.data(), norms));
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
