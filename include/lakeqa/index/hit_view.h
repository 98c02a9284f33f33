// What a search hit shows, the same for `lakeqa search --json` and the search_keyword tool: enough to tell
// hits apart without opening them (issue: nine hits with one title, the month only in a hidden field).
#pragma once

#include <string>
#include <string_view>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/index/near_duplicates.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {

struct HitViewOptions {
  size_t max_columns = 12;
  size_t max_description = 300;  // bytes of the first sentence
};

// The first sentence of a description (up to ". ", "! ", "? " or a line break), at most max_bytes
// (cut at a UTF-8 boundary with "…").
std::string FirstSentence(std::string_view text, size_t max_bytes);

// {"id", "dataset_id", "namespace", "title", "description", "columns" (first max_columns),
//  "columns_total", "rows" (null when unknown), "rows_exact", "years" ("" when unknown), "months",
//  "score", "matched": {field: [query words]}, "matched_columns", "snippet" {field, text, highlights},
//  "near_duplicates": [...] (NearDuplicates::Differences), "explanation" (when the hit has one)}.
Json HitJson(const Hit& hit, const NearDuplicates* duplicates, const HitViewOptions& options = {});

// The value of a stored field, "" when absent (the first one for multi-valued fields).
std::string StoredField(const Hit& hit, std::string_view name);

}  // namespace lakeqa::index
