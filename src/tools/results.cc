// Typed reads of the search and download results (tools/results.h).
#include "lakeqa/tools/results.h"

#include "lakeqa/common/json.h"

namespace lakeqa::tools {
namespace {

std::string Field(const Json& entry, const char* key) {
  auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : "";
}

// A full entry's namespace and id, or a compact view's line "datagov/abc | title | ...".
ResultDataset DatasetOf(const Json& entry) {
  ResultDataset d;
  if (entry.is_string()) {
    const std::string& line = entry.get_ref<const std::string&>();
    d.id = line.substr(0, line.find(" | "));
  } else if (entry.is_object()) {
    d.ns = Field(entry, "namespace");
    d.id = entry.contains("dataset_id") ? Field(entry, "dataset_id") : Field(entry, "id");
  }
  return d;
}

const Json* ListOf(const Json& result, const char* key) {
  if (!result.is_object()) return nullptr;
  auto it = result.find(key);
  return it != result.end() && it->is_array() ? &*it : nullptr;
}

}  // namespace

std::string ResultDataset::Qualified() const {
  if (!ns.empty() && id.find('/') == std::string::npos) return ns + "/" + id;
  return id;
}

std::vector<ResultDataset> SearchHits(const Json& result) {
  std::vector<ResultDataset> out;
  if (const Json* list = ListOf(result, "results"))
    for (const Json& e : *list) out.push_back(DatasetOf(e));
  return out;
}

std::optional<std::vector<DownloadedFile>> DownloadedFiles(const Json& result) {
  const Json* list = ListOf(result, "downloaded");
  if (list == nullptr) return std::nullopt;
  std::vector<DownloadedFile> out;
  for (const Json& e : *list) {
    if (e.is_object()) out.push_back({DatasetOf(e), Field(e, "local_path"), Field(e, "file_path")});
    else out.push_back({DatasetOf(e), "", ""});
  }
  return out;
}

std::vector<std::string> ListedFiles(const Json& result) {
  std::vector<std::string> out;
  if (const Json* list = ListOf(result, "files")) {
    for (const Json& e : *list) {
      if (!e.is_object()) continue;
      out.push_back(e.contains("path") ? Field(e, "path") : Field(e, "file_path"));
    }
  }
  return out;
}

}  // namespace lakeqa::tools
