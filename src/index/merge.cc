#include "index/merge.h"

#include <queue>

#include "index/postings.h"

namespace lakeqa::index {

Status MergeSegments(const std::string& dir, const std::string& name, size_t num_fields,
                     const std::vector<const Segment*>& segs, const std::vector<const DeleteBitmap*>& dels,
                     uint32_t* num_docs) {
  constexpr uint32_t kGone = UINT32_MAX;
  std::vector<std::vector<uint32_t>> maps(segs.size());
  uint64_t n = 0;
  for (size_t s = 0; s < segs.size(); ++s) {
    maps[s].resize(segs[s]->num_docs(), kGone);
    for (uint32_t d = 0; d < segs[s]->num_docs(); ++d) {
      if (!dels[s]->Get(d)) maps[s][d] = static_cast<uint32_t>(n++);
    }
  }
  if (n >= UINT32_MAX) return ResourceExhausted("merged segment would exceed 4 billion documents");
  std::vector<std::vector<uint8_t>> norms(num_fields);
  for (size_t f = 0; f < num_fields; ++f) {
    norms[f].resize(n);
    for (size_t s = 0; s < segs.size(); ++s) {
      const uint8_t* src = segs[s]->norms(f);
      for (uint32_t d = 0; d < segs[s]->num_docs(); ++d) {
        if (maps[s][d] != kGone) norms[f][maps[s][d]] = src[d];
      }
    }
  }
  SegmentBuilder builder;
  LAKEQA_RETURN_IF_ERROR(builder.Open(dir, name));

  // k-way merge of the sorted dictionaries.
  using Item = std::pair<std::string_view, size_t>;  // key, segment
  auto greater = [](const Item& a, const Item& b) {
    return a.first > b.first || (a.first == b.first && a.second > b.second);
  };
  std::priority_queue<Item, std::vector<Item>, decltype(greater)> heap(greater);
  std::vector<uint32_t> next(segs.size(), 0);
  for (size_t s = 0; s < segs.size(); ++s) {
    if (segs[s]->num_terms() > 0) heap.emplace(segs[s]->Key(0), s);
  }
  std::vector<uint32_t> docs, tfs, positions;
  PostingCursor cur;
  while (!heap.empty()) {
    std::string key(heap.top().first);
    docs.clear();
    tfs.clear();
    positions.clear();
    while (!heap.empty() && heap.top().first == key) {  // segments pop in order, so docs stay ascending
      size_t s = heap.top().second;
      heap.pop();
      uint32_t t = next[s]++;
      if (next[s] < segs[s]->num_terms()) heap.emplace(segs[s]->Key(next[s]), s);
      cur.Init(*segs[s], segs[s]->Info(t));
      for (; cur.doc() != PostingCursor::kEnd; cur.Next()) {
        uint32_t nd = maps[s][cur.doc()];
        if (nd == kGone) continue;
        docs.push_back(nd);
        tfs.push_back(cur.tf());
        const auto& pos = cur.Positions();
        positions.insert(positions.end(), pos.begin(), pos.end());
      }
      if (cur.corrupt()) return Corrupt(segs[s]->name() + ".pst: postings of a term do not decode");
    }
    auto field = static_cast<unsigned char>(key[0]);
    const uint8_t* fn = field < 0x40 && field < num_fields ? norms[field].data() : nullptr;
    LAKEQA_RETURN_IF_ERROR(builder.AddTerm(key, docs.data(), tfs.data(), docs.size(), positions.data(), fn));
  }
  for (size_t s = 0; s < segs.size(); ++s) {
    for (uint32_t d = 0; d < segs[s]->num_docs(); ++d) {
      if (maps[s][d] != kGone) LAKEQA_RETURN_IF_ERROR(builder.AddStored(segs[s]->StoredRecord(d)));
    }
  }
  LAKEQA_RETURN_IF_ERROR(builder.Finish(static_cast<uint32_t>(n), norms));
  *num_docs = static_cast<uint32_t>(n);
  return Status::Ok();
}

}  // namespace lakeqa::index
