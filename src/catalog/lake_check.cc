// Opening a lake at start-up and matching it with the index's manifest.
#include "lakeqa/catalog/lake_check.h"

#include <filesystem>

#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::catalog {
namespace {

// file:///a/b/../c → /a/c with symlinks resolved as far as the path exists; other URIs as they are.
std::string Canonical(std::string uri) {
  while (uri.size() > 1 && uri.back() == '/') uri.pop_back();
  if (!StartsWith(uri, "file://")) return uri;
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(uri.substr(7), ec);
  return ec ? uri : "file://" + p.string();
}

}  // namespace

std::string LakeCheck::Warning() const {
  return "the index was built from " + index_lake + ", not from the lake in use (" + lake +
         "); used anyway because of --force";
}

Result<LakeCheck> CheckLake(lake::Store& store, const std::string& index_dir, bool require_objects) {
  LakeCheck out;
  out.lake = store.Uri();
  lake::ListOptions lo;
  lo.delimiter = '/';
  lo.max_keys = 1;
  auto page = store.List(lo);
  if (!page.ok()) return page.status().WithContext("opening the lake " + out.lake);
  if (require_objects && page->objects.empty() && page->common_prefixes.empty()) {
    return NotFound("the lake " + out.lake + " holds no objects (does it exist?)");
  }
  std::string manifest = index_dir + "/manifest.json";
  if (index_dir.empty() || !PathExists(manifest)) return out;
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(manifest, 16 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json m, ParseJson(text, manifest));
  if (m.is_object() && m.contains("lake") && m["lake"].is_string()) out.index_lake = m["lake"].get<std::string>();
  out.differs = !out.index_lake.empty() && Canonical(out.index_lake) != Canonical(out.lake);
  return out;
}

}  // namespace lakeqa::catalog
