// The source kind registry: the built-in kinds, then the ones benchmarks add.
#include "lakeqa/ingest/source_kind.h"

#include "ingest/build_internal.h"
#include "lakeqa/common/named_registry.h"

namespace lakeqa::ingest {
namespace {

NamedRegistry<SourceKindSpec>& Registry() {
  static NamedRegistry<SourceKindSpec> kinds({{"enwiki", "wikipedia", BuildEnwiki, ""},
                                              {"datagov", "datagov", BuildDatagov, ""},
                                              {"dir", "dir", BuildDir, ""}});
  return kinds;
}

}  // namespace

void RegisterSourceKind(SourceKindSpec spec) {
  std::string before = spec.listed_before;
  Registry().Add(std::move(spec), before);
}

const SourceKindSpec* FindSourceKind(std::string_view name) { return Registry().Find(name); }

const std::deque<SourceKindSpec>& SourceKinds() { return Registry().All(); }

}  // namespace lakeqa::ingest
