// Near-duplicate datasets: the same title and nearly the same schema and rows (WikiSQL's t_1_X / t_2_X
// copies of one Wikipedia table, data.gov's re-published versions). Found at index time from the
// catalog and written to <index>/near_duplicates.json; search results name the other members of a
// hit's group with what differs (rows, columns), and can show one hit per group (collapse). The
// difference is never hidden: two copies that disagree are what a reader must be told.
//
// Two datasets with the same title (case-insensitive) are near-duplicates when
//   - their column names (folded) overlap: |A ∩ B| / |A ∪ B| >= min_column_overlap, and
//   - their sampled values agree: over the columns they share (with samples on both sides), the mean of
//     |values(A) ∩ values(B)| / min(|values(A)|, |values(B)|) is >= min_value_overlap
//     (values trimmed and folded, so 13 and "13" agree);
// groups are the connected components of that relation. Different months of one team's game log share
// title and schema but not values, and stay apart.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/catalog/catalog_fwd.h"
#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"
#include "lakeqa/index/searcher.h"

namespace lakeqa::index {

struct NearDuplicateOptions {
  double min_column_overlap = 0.5;
  double min_value_overlap = 0.6;
  size_t max_group = 200;  // title groups larger than this are compared on their first max_group members
};

struct DuplicateMember {
  std::string id;
  std::optional<uint64_t> rows;  // data rows; unset when unknown
  bool rows_exact = true;        // false: at least `rows`
  std::vector<std::string> columns;
};

struct NearDuplicateGroup {
  std::string title;
  std::vector<DuplicateMember> members;  // id order
};

struct NearDuplicateReport {
  uint64_t title_groups = 0;  // titles shared by two or more datasets
  uint64_t groups = 0;        // near-duplicate groups found
  uint64_t datasets = 0;      // datasets in them
  Json ToJson() const;
};

// Reads the catalog, writes <index_dir>/near_duplicates.json atomically.
Result<NearDuplicateReport> BuildNearDuplicates(catalog::Catalog& catalog, const std::string& index_dir,
                                                const NearDuplicateOptions& options = {});

class NearDuplicates {
 public:
  // An index without the file (built before near-duplicates existed) has no groups.
  static Result<NearDuplicates> Load(const std::string& index_dir);

  const NearDuplicateGroup* GroupOf(const std::string& id) const;
  // The other members of id's group with what differs from id: [{"id", "rows", "rows_exact",
  // "differs": ["rows 12 vs 14", "columns: only here no.; only there years"]...}], [] when id has none.
  Json Differences(const std::string& id) const;
  size_t size() const { return groups_.size(); }

 private:
  std::vector<NearDuplicateGroup> groups_;
  std::map<std::string, size_t> by_id_;
};

// One hit per group: runs `search` with a growing k until options.offset + options.k hits of distinct
// groups are seen (or the ranking ends), keeps the best-ranked member of each group, then applies the
// offset and k. Totals and facets are those of the last run.
Result<SearchResult> SearchCollapsed(const NearDuplicates& groups, const SearchOptions& options,
                                     const std::function<Result<SearchResult>(const SearchOptions&)>& search);

}  // namespace lakeqa::index
