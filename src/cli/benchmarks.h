// The benchmarks lakeqa runs, registered with the core before any verb is set up.
#pragma once

namespace lakeqa::cli {

// Calls each benchmark's Register() (its source kind, task format and report section): the one list of
// benchmarks, in benchmarks.cc.
void RegisterBenchmarks();

}  // namespace lakeqa::cli
