#include "index/segment.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {

Status ForEachStoredDocument(const IndexReader& reader, const std::function<Status(const Hit&)>& visit) {
  const Schema& schema = reader.schema();
  std::string_view id;
  std::vector<std::pair<int, std::string_view>> stored;
  for (size_t s = 0; s < reader.num_segments(); ++s) {
    const Segment& seg = reader.segment(s);
    const DeleteBitmap& del = reader.deletes(s);
    for (uint32_t d = 0; d < seg.num_docs(); ++d) {
      if (del.Get(d)) continue;
      stored.clear();
      LAKEQA_RETURN_IF_ERROR(
          seg.Stored(d, &id, &stored).WithContext(reader.dir() + ": segment " + seg.name()));
      Hit h;
      h.id = std::string(id);
      for (const auto& [f, v] : stored) {
        if (f < 0 || static_cast<size_t>(f) >= schema.fields().size())
          return Corrupt(reader.dir() + "/" + seg.name() + ".sto: field number out of range");
        h.fields.emplace_back(schema.fields()[f].name, std::string(v));
      }
      LAKEQA_RETURN_IF_ERROR(visit(h));
    }
  }
  return Status::Ok();
}

}  // namespace lakeqa::index
