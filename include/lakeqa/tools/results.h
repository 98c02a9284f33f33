// Typed reads of tool results for code inside the process (the agents). A result's field names belong to
// the tools module, so they are read here once instead of in every agent. A result stays JSON at the
// HTTP, MCP and trace boundaries and in replayed cassettes, so these read JSON, in the full or the compact
// view (tools/model_view.h), and skip entries a capped or replayed result lacks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lakeqa/common/json_fwd.h"

namespace lakeqa::tools {

// A dataset a result entry names.
struct ResultDataset {
  std::string ns;  // the entry's namespace; "" when it gives none
  std::string id;  // its dataset_id (else its id), or a compact hit line's leading "<namespace>/<id>"
  // "<namespace>/<id>"; `id` as given when the namespace is unknown or `id` is qualified already.
  std::string Qualified() const;
};

// The datasets a search or search_keyword result lists, in rank order; empty for an error.
std::vector<ResultDataset> SearchHits(const Json& result);

struct DownloadedFile {
  ResultDataset dataset;
  std::string local_path;  // as the sandbox's code opens it
  std::string file_path;   // the path inside the dataset, as the download asked for it
};
// The files a download result lists as downloaded, in order; nullopt when it has no such list (an error).
std::optional<std::vector<DownloadedFile>> DownloadedFiles(const Json& result);

// The paths a list_files result lists ("path", else "file_path"), in order; empty for an error.
std::vector<std::string> ListedFiles(const Json& result);

}  // namespace lakeqa::tools
