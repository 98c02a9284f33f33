// The layout of an index folder, the one place that spells its file names: `lakeqa index build` writes
// it and every reader (tools, routers, the workbench, the CLI) opens its parts through this type.
//   catalog.sqlite (+ -wal, -shm)  the catalog of datasets and files (catalog.h)
//   manifest.json                  what was built, from which lake (lake_check.h reads it)
//   text/ chunks/ paragraphs/      full-text indexes of datasets, chunks and prose paragraphs (index/)
//   vectors/                       the vector index of the datasets (vectors/manifest.json: its embedder)
//   graph/                         the property graph (graph/schema.json when the lake has one)
//   sources.json                   the datasets of each source kind (index/sources.h)
//   near_duplicates.json           groups of near-identical datasets (index/near_duplicates.h)
//   .partial-build/                an interrupted first build's catalog, kept aside (builder.h)
// It lives in catalog/, the lowest module every user of an index folder sees.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace lakeqa::catalog {

class IndexDir {
 public:
  // File names inside the folder, for code that walks it (the first build's cleanup) or writes them.
  static constexpr std::string_view kCatalogName = "catalog.sqlite";
  // The catalog and SQLite's write-ahead log and shared-memory files beside it.
  static constexpr std::array<std::string_view, 3> kCatalogFiles = {"catalog.sqlite", "catalog.sqlite-wal",
                                                                    "catalog.sqlite-shm"};
  // The graph folder's own schema file and the vector folder's manifest, named here so that "is there a
  // graph / vector index" and the modules that write them agree.
  static constexpr std::string_view kPartialBuildName = ".partial-build";
  static constexpr std::string_view kGraphSchemaName = "schema.json";
  static constexpr std::string_view kVectorsManifestName = "manifest.json";

  explicit IndexDir(std::string dir) : dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }
  std::string Catalog() const { return Join(kCatalogName); }
  std::string Manifest() const { return Join("manifest.json"); }
  std::string Text() const { return Join("text"); }
  std::string Chunks() const { return Join("chunks"); }
  std::string Paragraphs() const { return Join("paragraphs"); }
  std::string Vectors() const { return Join("vectors"); }
  std::string VectorsManifest() const { return Vectors() + "/" + std::string(kVectorsManifestName); }
  std::string Graph() const { return Join("graph"); }
  std::string GraphSchema() const { return Graph() + "/" + std::string(kGraphSchemaName); }
  std::string Sources() const { return Join("sources.json"); }
  std::string NearDuplicates() const { return Join("near_duplicates.json"); }
  std::string PartialBuild() const { return Join(kPartialBuildName); }

 private:
  std::string Join(std::string_view name) const { return dir_ + "/" + std::string(name); }
  std::string dir_;
};

}  // namespace lakeqa::catalog
