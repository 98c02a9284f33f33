// KramaBench (github.com/mitdbg/Kramabench) as a lake: how its data/<domain>/input/ trees map to lake
// namespaces and datasets, and how a task's data_sources entry names files in them. The lake builder
// (kramabench/source.cc) and the task loader (which turns data_sources into gold dataset ids) share these
// rules. data_sources name single files (often deep in a folder), folders and glob patterns, so each input
// file is one dataset and an entry naming a folder or a pattern stands for every file it matches:
// discovery is measured at the level KramaBench names. docs/kramabench.md states the rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/status.h"

namespace lakeqa::ingest {
class BuildContext;  // ingest/build_context.h
}  // namespace lakeqa::ingest

namespace lakeqa::kramabench {

// The `kramabench:<checkout>` source kind (source.cc): every data/<domain>/input/ tree of the checkout
// becomes the namespace "<--namespace or kramabench>-<domain>", one dataset per input file.
Status BuildKramaBench(ingest::BuildContext& ctx, const std::string& path);

// The default prefix of KramaBench namespaces: domain "legal" → namespace "kramabench-legal".
inline constexpr std::string_view kKramaBenchPrefix = "kramabench";

// "<prefix>-<domain>"; an empty prefix means kKramaBenchPrefix.
std::string KramaBenchNamespace(std::string_view domain, std::string_view prefix = {});

// The dataset folder of one input file, from its path relative to data/<domain>/input/
// ("SILSO/SN_y_tot_V2.0.csv" → "SILSO%2FSN_y_tot_V2.0.csv", NameToFolder's encoding).
std::string KramaBenchDatasetFolder(std::string_view relative_path);

// Files a data_sources entry names, among `files` (paths relative to input/, '/'-separated), in the
// order of `files`. "./" and "data/<domain>/input/" prefixes are dropped; an entry may name a path by its
// last components ("Florida.csv", "State MSA Fraud and Other data/Florida.csv"). Tried in turn, the first
// rule that matches anything wins:
//   1. a file path: every file whose path ends with it;
//   2. a folder ("X/", "X/*", "X/*.csv", or "X" when X is a folder): the files under it (directly in it
//      when a pattern follows);
//   3. a glob pattern (* ? [...], '/' matched only by '/');
//   4. rules 1–3 again ignoring ASCII case ("State MSA Identity Theft Data/" for "... data/").
// An empty result means the entry names no file of the lake (a missing file, or prose such as
// "all csv in X/"): the loader reports it per task.
std::vector<std::string> ResolveKramaBenchSource(std::string_view entry, std::string_view domain,
                                                 const std::vector<std::string>& files);

}  // namespace lakeqa::kramabench
