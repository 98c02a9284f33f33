#include "lakeqa/graph/lake_graph.h"

#include <algorithm>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::graph {

Json LakeGraphReport::ToJson() const {
  Json p = Json::array();
  for (const auto& x : schema.problems) p.push_back(x.ToJson());
  Json e = Json::array();
  for (const auto& x : errors) e.push_back({{"file", x.file}, {"code", x.code}, {"error", x.message}});
  return {{"node_files", node_files},
          {"relation_files", relation_files},
          {"nodes", nodes},
          {"edges", edges},
          {"labels", schema.nodes.size()},
          {"relation_types", schema.relations.size()},
          {"problems_total", schema.problems_total},
          {"problems", p},
          {"errors", e}};
}

Result<LakeGraphReport> BuildLakeGraph(catalog::Catalog& catalog, lake::Store& store,
                                       const std::string& graph_dir, const LakeGraphOptions& options) {
  struct Found {
    std::string key, stem;
    FileKind kind;
    uint64_t size;
  };
  std::vector<Found> found;
  LakeGraphReport report;
  auto left_out = [&](const std::string& key, const Status& st) {
    report.errors.push_back({key, std::string(CodeName(st.code())), st.message()});
  };
  Status s = catalog.ForEachDataset([&](const catalog::DatasetRecord&,
                                        const std::vector<catalog::FileRecord>& files) {
    for (const auto& f : files) {
      if (f.is_metadata || !EndsWith(ToLowerAscii(f.path), ".csv")) continue;
      std::vector<std::string> header;
      if (f.profile && f.profile->contains("columns") && (*f.profile)["columns"].is_array()) {
        for (const auto& c : (*f.profile)["columns"]) header.push_back(c.value("name", ""));
      } else {
        auto head = store.ReadRange(f.key, 0, 64 << 10);
        if (!head.ok()) {
          left_out(f.key, head.status().WithContext("reading the header of " + f.key));
          continue;
        }
        header = CsvHeaderOf(*head);
      }
      FileKind k = ClassifyHeader(header);
      if (k == FileKind::kNone) continue;
      std::string name = f.path.substr(f.path.rfind('/') == std::string::npos ? 0 : f.path.rfind('/') + 1);
      found.push_back({f.key, name.substr(0, name.size() - 4), k, f.size});
    }
    return Status::Ok();
  });
  LAKEQA_RETURN_IF_ERROR(s);
  if (found.empty()) {
    if (PathExists(graph_dir)) LAKEQA_RETURN_IF_ERROR(RemoveAll(graph_dir));
    return report;
  }
  // Node files first: relation rows are checked against every node id.
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return (a.kind == FileKind::kNodes) > (b.kind == FileKind::kNodes);
  });
  GraphBuilder builder;
  for (const auto& f : found) {
    if (f.size > options.max_file_bytes) {
      left_out(f.key,
               ResourceExhausted(f.key + ": graph file of " + std::to_string(f.size) + " bytes is over the " +
                                 std::to_string(options.max_file_bytes) + "-byte limit"));
      continue;
    }
    auto data = store.ReadRange(f.key, 0, 0);
    if (!data.ok()) {
      left_out(f.key, data.status().WithContext("reading " + f.key));
      continue;
    }
    if (Status added = builder.AddFile(f.key, f.stem, *data); !added.ok()) {
      left_out(f.key, added);
      continue;
    }
    (f.kind == FileKind::kNodes ? report.node_files : report.relation_files)++;
  }
  if (report.node_files + report.relation_files == 0) {
    // Every graph file was left out: no graph, rather than an empty one (the errors say why).
    if (PathExists(graph_dir)) LAKEQA_RETURN_IF_ERROR(RemoveAll(graph_dir));
    return report;
  }
  LAKEQA_RETURN_IF_ERROR(MakeDirs(graph_dir));
  LAKEQA_RETURN_IF_ERROR(builder.Write(graph_dir));
  report.schema = builder.schema();
  for (const auto& n : report.schema.nodes) report.nodes += n.count;
  for (const auto& r : report.schema.relations) report.edges += r.count;
  return report;
}

}  // namespace lakeqa::graph
