#include "index/manifest.h"

#include "index/codec.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/index/ranking.h"

namespace lakeqa::index {

std::string DeletesFile(const std::string& dir, const SegmentInfo& info) {
  return dir + "/" + info.name + "_" + std::to_string(info.del_gen) + ".del";
}

Result<Manifest> ReadManifest(const std::string& dir) {
  std::string path = dir + "/" + std::string(kManifestName);
  auto text = ReadFile(path, 64u << 20);
  if (!text.ok()) {
    if (text.status().code() == ErrorCode::kNotFound) return NotFound(path + ": no text index here");
    return text.status();
  }
  auto j = ParseJson(*text, path);
  if (!j.ok()) return Corrupt(j.status().message());
  auto bad = [&](const std::string& what) { return Corrupt(path + ": " + what); };
  try {
    if (!j->is_object() || j->value("format", "") != "lakeqa-textindex")
      return bad("not a lakeqa text index manifest");
    if (j->value("version", 0) != kFormatVersion)
      return Unsupported(path + ": format version " + std::to_string(j->value("version", 0)) +
                         " (this build reads " + std::to_string(kFormatVersion) + ")");
    Manifest m;
    m.generation = (*j)["generation"].get<uint64_t>();
    m.next_segment = (*j)["next_segment"].get<uint64_t>();
    auto schema = Schema::FromJson((*j)["schema"]);
    if (!schema.ok()) return bad(schema.status().message());
    m.schema = std::move(*schema);
    m.analysis = j->value("analysis", 1);
    if (auto r = j->find("ranking"); r != j->end() && !r->is_null()) {
      auto ranking = RankingParams::FromJson(*r, m.schema, RankingParams::FromSchema(m.schema));
      if (!ranking.ok()) return bad(ranking.status().message());
      m.ranking = *r;
    }
    for (const Json& s : (*j)["segments"]) {
      SegmentInfo info;
      info.name = s["name"].get<std::string>();
      info.docs = s["docs"].get<uint32_t>();
      info.deleted = s["deleted"].get<uint32_t>();
      info.del_gen = s["del_gen"].get<uint64_t>();
      if (info.name.empty() || info.name.find('/') != std::string::npos ||
          info.name.find("..") != std::string::npos)
        return bad("bad segment name '" + info.name + "'");
      m.segments.push_back(std::move(info));
    }
    return m;
  } catch (const std::exception& e) {
    return bad(std::string("malformed: ") + e.what());
  }
}

Status WriteManifest(const std::string& dir, const Manifest& m) {
  Json segs = Json::array();
  for (const SegmentInfo& s : m.segments) {
    segs.push_back({{"name", s.name}, {"docs", s.docs}, {"deleted", s.deleted}, {"del_gen", s.del_gen}});
  }
  Json j = {{"format", "lakeqa-textindex"},
            {"version", kFormatVersion},
            {"generation", m.generation},
            {"next_segment", m.next_segment},
            {"analysis", m.analysis},
            {"schema", m.schema.ToJson()},
            {"segments", segs}};
  if (!m.ranking.is_null()) j["ranking"] = m.ranking;
  LAKEQA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/" + std::string(kManifestName), DumpJson(j, 1) + "\n"));
  return SyncDir(dir);
}

}  // namespace lakeqa::index
