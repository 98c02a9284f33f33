// The one list of benchmarks (src/README.md, "Benchmarks are adapters"): one Register() call each.
#include "cli/benchmarks.h"

#include "lakeqa/cmdbench/cmdbench.h"
#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::cli {

void RegisterBenchmarks() {
  cmdbench::Register();
  kramabench::Register();
}

}  // namespace lakeqa::cli
