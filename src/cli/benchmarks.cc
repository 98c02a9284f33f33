// The one list of benchmarks (src/README.md, "Adding a benchmark"): one Register() call each.
#include "cli/benchmarks.h"

#include "lakeqa/kramabench/kramabench.h"

namespace lakeqa::cli {

void RegisterBenchmarks() { kramabench::Register(); }

}  // namespace lakeqa::cli
