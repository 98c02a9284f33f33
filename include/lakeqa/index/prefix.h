// Dataset-id prefix search with S3 ListObjectsV2 semantics over the catalog's datasets: keys are full
// dataset ids "<namespace>/<dataset_id>"; a prefix selects them; with a delimiter, every key whose rest
// (after the prefix) holds the delimiter is rolled up into one common prefix (up to and including the
// first delimiter), returned once. Results are bounded (max_keys keys and common prefixes together) and
// paginated with an opaque continuation token. Keys come in (namespace, dataset_id) order, which is
// the byte order of full ids for namespaces made of characters above '/' (all lakeqa namespaces).
// This is what the agent's `search` tool calls for listing by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lakeqa/catalog/catalog_fwd.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::index {

inline constexpr uint64_t kMaxPrefixKeys = 1000;

struct PrefixRequest {
  std::string prefix;        // "", "cmdbench", "cmdbench/", "cmdbench/t_1_"
  std::string delimiter;     // "" (flat listing) or e.g. "/", "_"
  uint64_t max_keys = 100;   // 1..kMaxPrefixKeys
  std::string continuation;  // next_token of the previous page, or ""
};

struct PrefixEntry {
  std::string id;  // full id
  std::string title;
  uint64_t file_count = 0;
  uint64_t bytes = 0;
};

struct PrefixResult {
  std::vector<PrefixEntry> keys;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  std::string next_token;  // set when truncated
  Json ToJson() const;
};

Result<PrefixResult> ListPrefix(catalog::Catalog& catalog, const PrefixRequest& request);

}  // namespace lakeqa::index
