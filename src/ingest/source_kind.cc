// The source kind registry: the built-in kinds, then the ones benchmarks add.
#include "lakeqa/ingest/source_kind.h"

#include "ingest/build_internal.h"

namespace lakeqa::ingest {
namespace {

std::deque<SourceKindSpec>& Registry() {
  static std::deque<SourceKindSpec> kinds{{"enwiki", "wikipedia", BuildEnwiki, ""},
                                          {"datagov", "datagov", BuildDatagov, ""},
                                          {"dir", "dir", BuildDir, ""}};
  return kinds;
}

}  // namespace

void RegisterSourceKind(SourceKindSpec spec) {
  for (auto& k : Registry()) {
    if (k.name == spec.name) {
      k = std::move(spec);
      return;
    }
  }
  auto& kinds = Registry();
  auto at = kinds.end();
  for (auto it = kinds.begin(); it != kinds.end() && !spec.listed_before.empty(); ++it)
    if (it->name == spec.listed_before) at = it;
  kinds.insert(at, std::move(spec));
}

const SourceKindSpec* FindSourceKind(std::string_view name) {
  for (const auto& k : Registry())
    if (k.name == name) return &k;
  return nullptr;
}

const std::deque<SourceKindSpec>& SourceKinds() { return Registry(); }

}  // namespace lakeqa::ingest
