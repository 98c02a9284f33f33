// The kinds of raw source `lake build` reads: the built-in ones (enwiki, datagov, dir) and those a benchmark
// registers from its own folder (its Register(), called from src/cli/benchmarks.cc). A kind is a name, the
// reader that turns a source of that kind into lake files, and what --namespace means for it.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"
#include "lakeqa/ingest/build_context.h"

namespace lakeqa::ingest {

struct SourceKindSpec {
  std::string name;  // the "<kind>" of --source <kind>:<path>
  // --namespace's help for this kind: its default namespace ("datagov"), or "<name>: <how it is used>"
  // when the option means something else for it.
  std::string namespace_help;
  // Reads the source at `path` into the lake through the context; an error only when the source as a whole
  // cannot be read (item-level problems go to the context).
  Status (*build)(BuildContext& ctx, const std::string& path) = nullptr;
  // The kind it is listed before in help and errors ("" = after every other): the lists keep the order
  // they had when every kind was built in.
  std::string listed_before;
};

// Adds a kind, or replaces the one of the same name (registering twice is harmless). Kinds are registered at
// start-up (src/cli/benchmarks.cc), before any build: the registry has no lock.
void RegisterSourceKind(SourceKindSpec spec);
// The kind named `name`, or nullptr.
const SourceKindSpec* FindSourceKind(std::string_view name);
// Every kind, the built-in ones first, then in registration order (common/named_registry.h).
const std::deque<SourceKindSpec>& SourceKinds();

}  // namespace lakeqa::ingest
