// The catalog: every dataset and file of a lake with its metadata and content profile, in SQLite
// (catalog.sqlite in the index directory). Written by the builder (builder.h); read by `catalog` verbs,
// the search index and the tools. The schema is documented in docs/formats.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json.h"
#include "lakeqa/common/status.h"
#include "lakeqa/ingest/metadata.h"
#include "lakeqa/ingest/profile.h"

struct sqlite3;

namespace lakeqa::catalog {

inline constexpr int kSchemaVersion = 2;

struct FileRecord {
  std::string key;         // "datagov/<id>/files/rows.txt"
  std::string ns;          // "datagov"
  std::string dataset_id;  // "<id>"; "" when the key is not inside a <namespace>/<dataset>/ folder
  std::string path;        // relative to the dataset folder: "files/rows.txt"
  uint64_t size = 0;
  std::string etag;
  int64_t mtime_ms = 0;
  std::string format;            // FormatName(), "" when not profiled
  std::optional<Json> profile;   // FileProfile::ToJson()
  std::optional<Json> metadata;  // DatasetMetadata::ToJson() for metadata files
  std::string error;             // why this file could not be read or profiled ("" = fine)
  std::string error_code;        // CodeName() of the error
  bool is_metadata = false;
  std::string profile_mode;  // "none", "head", "full"

  Json ToJson() const;
};

struct DatasetRecord {
  std::string ns;
  std::string dataset_id;
  ingest::DatasetMetadata metadata;
  std::string category;              // one of ingest::ThemeCategories(), or ""
  std::vector<std::string> columns;  // union of declared and profiled column names (bounded)
  uint64_t file_count = 0;
  uint64_t bytes = 0;
  uint64_t error_count = 0;

  std::string FullId() const { return ns + "/" + dataset_id; }
  Json ToJson() const;
};

struct CountBytes {
  uint64_t count = 0;
  uint64_t bytes = 0;
};

struct CatalogStats {
  uint64_t datasets = 0, files = 0, bytes = 0, file_errors = 0, unprofiled = 0;
  std::vector<std::pair<std::string, CountBytes>>
      by_namespace;                                           // datasets per namespace (bytes of their files)
  std::vector<std::pair<std::string, CountBytes>> by_format;  // files per detected format
  std::vector<std::pair<std::string, CountBytes>> by_category;  // datasets per category ("" = uncategorised)
  std::vector<std::pair<std::string, uint64_t>> errors_by_code;
  Json ToJson() const;
};

class Catalog {
 public:
  // Opens (creating and migrating) the catalog database at path.
  static Result<std::unique_ptr<Catalog>> Open(const std::string& path, bool read_only = false);
  ~Catalog();
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  Result<std::vector<DatasetRecord>> ListDatasets(const std::string& prefix, uint64_t limit,
                                                  uint64_t offset = 0);
  // How many datasets ListDatasets(prefix, ∞) would return.
  Result<uint64_t> CountDatasets(const std::string& prefix);
  // "datagov/<id>" (or "wikipedia/<Title>").
  Result<DatasetRecord> GetDataset(const std::string& full_id);
  // As GetDataset, and also a bare "<id>" as the tools take it: the one dataset with that id in any
  // namespace (not_found when none, invalid_argument naming the candidates when several).
  Result<DatasetRecord> ResolveDataset(const std::string& id);
  Result<std::vector<FileRecord>> ListFiles(const std::string& full_id);
  Result<FileRecord> GetFile(const std::string& key);
  Result<CatalogStats> Stats();
  // Every dataset in id order, with its files; stops at the first error the visitor returns.
  Status ForEachDataset(
      const std::function<Status(const DatasetRecord&, const std::vector<FileRecord>&)>& visit);
  // Datasets sharing a title (compared after SQLite's lower(), trimmed), one group of two or more at a
  // time, in title order; ids ("<namespace>/<dataset_id>") in id order. Memory is bounded by one group.
  Status ForEachTitleGroup(
      const std::function<Status(const std::string& title, const std::vector<std::string>& ids)>& visit);
  // A deterministic text dump of every row (for equivalence checks); excludes build bookkeeping.
  // With ignore_etag_mtime, etag and mtime are left out (they differ between a folder and S3).
  Status Dump(const std::function<void(const std::string& line)>& out, bool ignore_etag_mtime = false);

  std::optional<std::string> GetMeta(const std::string& key);
  Status SetMeta(const std::string& key, const std::string& value);

  sqlite3* db() { return db_; }

 private:
  explicit Catalog(sqlite3* db) : db_(db) {}
  sqlite3* db_;
};

// Splits "ns/id/rest" into its parts; keys without a dataset folder get dataset_id "".
void SplitKey(const std::string& key, std::string& ns, std::string& dataset_id, std::string& path);

}  // namespace lakeqa::catalog
