// The catalog's types by name only, for headers that take them by reference: catalog.h brings the whole
// of nlohmann/json (its records hold profiles as Json), which a header that only passes a Catalog& on
// should not impose on every file that includes it.
#pragma once

namespace lakeqa::catalog {

class Catalog;
struct DatasetRecord;
struct FileRecord;

}  // namespace lakeqa::catalog
