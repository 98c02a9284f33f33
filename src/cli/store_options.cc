#include "cli/store_options.h"

namespace lakeqa::cli {

void AddStoreFlags(CLI::App* cmd, StoreFlags& flags) {
  cmd->add_option("--s3-endpoint", flags.endpoint, "S3-compatible endpoint URL (implies path-style requests)")
      ->envname("AWS_ENDPOINT_URL");
  cmd->add_option("--s3-region", flags.region, "S3 region (default: AWS_REGION or us-east-1)");
  cmd->add_flag("--s3-anonymous", flags.anonymous, "Send unsigned requests (public buckets)");
  cmd->add_option("--s3-retries", flags.retries, "Retries on throttling, 5xx and timeouts")
      ->capture_default_str();
}

lake::S3Options ToS3Options(const StoreFlags& flags) {
  lake::S3Options opts;
  opts.endpoint = flags.endpoint;
  if (!flags.region.empty()) opts.region = flags.region;
  opts.anonymous = flags.anonymous;
  opts.max_retries = flags.retries;
  return opts;
}

Result<std::unique_ptr<lake::Store>> OpenFromFlags(const std::string& uri, const StoreFlags& flags) {
  return lake::OpenStore(uri, ToS3Options(flags));
}

Json StoreFlagsJson(const StoreFlags& flags) {
  return {{"endpoint", flags.endpoint},
          {"region", flags.region},
          {"anonymous", flags.anonymous},
          {"retries", flags.retries}};
}

}  // namespace lakeqa::cli
