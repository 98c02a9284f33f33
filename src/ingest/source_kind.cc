// The source kind registry: the built-in kinds, then the ones benchmarks add.
#include "lakeqa/ingest/source_kind.h"

#include <deque>
#include <mutex>

#include "ingest/build_internal.h"

namespace lakeqa::ingest {
namespace {

struct Registry {
  std::mutex mu;
  // A deque: FindSourceKind's pointers survive later registrations.
  std::deque<SourceKindSpec> kinds{{"enwiki", "wikipedia", BuildEnwiki},
                                   {"datagov", "datagov", BuildDatagov},
                                   {"cmdbench", "cmdbench", BuildCmdbench},
                                   {"dir", "dir", BuildDir}};
};

Registry& TheRegistry() {
  static Registry r;
  return r;
}

}  // namespace

void RegisterSourceKind(SourceKindSpec spec) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& k : r.kinds) {
    if (k.name == spec.name) {
      k = std::move(spec);
      return;
    }
  }
  r.kinds.push_back(std::move(spec));
}

const SourceKindSpec* FindSourceKind(std::string_view name) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& k : r.kinds)
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<SourceKindSpec> SourceKinds() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  return {r.kinds.begin(), r.kinds.end()};
}

}  // namespace lakeqa::ingest
