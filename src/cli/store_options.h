// The --s3-* flags every verb that opens a lake shares, in one place.
#pragma once

#include <memory>
#include <string>

#include "cli/command.h"
#include "lakeqa/lake/store.h"

namespace lakeqa::cli {

struct StoreFlags {
  std::string endpoint;
  std::string region;
  bool anonymous = false;
  int retries = 5;
};

void AddStoreFlags(CLI::App* cmd, StoreFlags& flags);
lake::S3Options ToS3Options(const StoreFlags& flags);
Result<std::unique_ptr<lake::Store>> OpenFromFlags(const std::string& uri, const StoreFlags& flags);
// The same flags as the JSON store options of agent::ToolEnvOptions (run, tasks verify).
Json StoreFlagsJson(const StoreFlags& flags);

}  // namespace lakeqa::cli
