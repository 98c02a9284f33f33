// Dataset metadata from the files LakeQA datasets carry: `signed-metadata.txt` (the data.gov / CKAN
// record), `files/columns.txt`, `files/*.publisher-view.json` (Socrata views), `files/*.arcgis-layer.json`
// (ArcGIS layer descriptions), and for `wikipedia/<Title>/content.txt` the title and the lead paragraph.
// Each extractor merges what it finds into one DatasetMetadata; none of them fails the dataset.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakeqa/common/json_fwd.h"
#include "lakeqa/common/status.h"

namespace lakeqa::ingest {

struct DatasetMetadata {
  std::string title;
  std::string description;
  std::string publisher;  // publisher or organisation
  std::vector<std::string> tags;
  std::vector<std::string> themes;  // as the source states them (CKAN groups, theme, category)
  std::string temporal;             // temporal coverage as stated ("2001-01-01/2023-12-31")
  std::string spatial;              // spatial coverage as stated (a place name, a bbox, GeoJSON text)
  std::string license;
  std::string source_url;
  std::string modified;                     // last modified as stated
  std::vector<std::string> columns;         // declared column names (columns.txt, Socrata/ArcGIS fields)
  std::vector<std::string> metadata_files;  // keys of the files the above came from

  // Fills empty fields of *this from other and unions the lists (first writer wins for scalars).
  void MergeFrom(const DatasetMetadata& other);
  Json ToJson() const;
  static DatasetMetadata FromJson(const Json& j);
};

// Whether a key (relative to the dataset folder, e.g. "signed-metadata.txt", "files/columns.txt")
// is a metadata file that ParseMetadataFile understands.
bool IsMetadataFile(std::string_view relative_path);

// Parses one metadata file's content; `relative_path` selects the parser. A parse failure is an error
// (the catalog records it on the file) but never affects other files.
Result<DatasetMetadata> ParseMetadataFile(std::string_view relative_path, std::string_view content);

// Wikipedia: title from the folder name (underscores → spaces), description = the lead paragraph.
DatasetMetadata WikipediaMetadata(std::string_view dataset_id, std::string_view content_head);

// The LakeQA paper's 8 theme categories (its Table 10) and the map from free-form themes, tags and
// titles to one of them. Returns "" when nothing matches.
const std::vector<std::string>& ThemeCategories();
std::string CategorizeThemes(const DatasetMetadata& m);

}  // namespace lakeqa::ingest
