// The one binding between the run command and the real tools: tools::ToolSet (opened once, shared by
// every episode) adapted to agent::ToolEnv, one tools::Session per task under <out>/work/sessions.
// Agent loops call tools only through ToolEnv.
#include <atomic>
#include <chrono>
#include <filesystem>

#include "lakeqa/agent/run.h"
#include "lakeqa/agent/tool_env.h"
#include "lakeqa/catalog/index_dir.h"
#include "lakeqa/catalog/lake_check.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/lake/store.h"
#include "lakeqa/tools/model_view.h"
#include "lakeqa/tools/tools.h"

namespace lakeqa::agent {

Json ToolEnv::CallCompact(const std::string& tool, const Json& args) {
  return tools::CompactView(tool, Call(tool, args));
}

namespace {

class ToolSetEnv : public ToolEnv {
 public:
  // `keep` holds the ToolSet open when the env owns a share of it (nullptr when the caller keeps it).
  ToolSetEnv(tools::ToolSet& set, std::shared_ptr<tools::ToolSet> keep,
             std::shared_ptr<tools::Session> session)
      : set_(set), keep_(std::move(keep)), session_(std::move(session)) {}
  std::vector<Json> Schemas() override {
    std::vector<Json> out;
    for (const Json& s : tools::ToolSet::Schemas()) out.push_back(s);
    return out;
  }
  Json Call(const std::string& tool, const Json& args) override { return set_.Call(*session_, tool, args); }
  Json CallCompact(const std::string& tool, const Json& args) override {
    if (!args.is_object()) return Call(tool, args);
    Json a = args;
    a["view"] = "compact";
    return set_.Call(*session_, tool, a);
  }
  Json LastCallDatasets() override {
    const tools::TraceEvent& last = session_->last_event();
    if (last.tool.empty()) return Json();
    return {{"returned", last.returned}, {"accessed", last.accessed}};
  }

 private:
  tools::ToolSet& set_;
  std::shared_ptr<tools::ToolSet> keep_;
  std::shared_ptr<tools::Session> session_;
};

}  // namespace

std::unique_ptr<ToolEnv> MakeToolSetEnv(tools::ToolSet& tools, std::shared_ptr<tools::Session> session) {
  return std::make_unique<ToolSetEnv>(tools, nullptr, std::move(session));
}

Result<ToolEnvFactory> MakeToolEnvFactory(const ToolEnvOptions& options, ToolEnvInfo* info) {
  if (options.index_dir.empty()) return InvalidArgument("lakeqa run: --index is required");
  if (options.lake.empty()) return InvalidArgument("lakeqa run: --lake is required");
  lake::S3Options s3;
  const Json& so = options.store_options;
  if (so.is_object()) {
    s3.endpoint = so.value("endpoint", "");
    if (!so.value("region", "").empty()) s3.region = so.value("region", "");
    s3.anonymous = so.value("anonymous", false);
    s3.max_retries = so.value("retries", s3.max_retries);
  }
  LAKEQA_ASSIGN_OR_RETURN(auto store, lake::OpenStore(options.lake, s3));
  LAKEQA_ASSIGN_OR_RETURN(catalog::LakeCheck check, catalog::CheckLake(*store, options.index_dir, true));
  if (check.differs && !options.force_lake) {
    return InvalidArgument(
        "--lake " + check.lake + " is not the lake the index " + options.index_dir + " was built from (" +
        check.index_lake +
        "): point --lake at that lake, rebuild the index, or pass --force to use it anyway");
  }
  if (info != nullptr) {
    info->lake = {{"uri", check.lake}, {"forced", check.differs}, {"moved", check.moved}};
    Json manifest;
    if (auto text = ReadFile(catalog::IndexDir(options.index_dir).Manifest(), 16 << 20); text.ok())
      manifest = Json::parse(*text, nullptr, false);
    info->index = {{"dir", std::filesystem::absolute(options.index_dir).lexically_normal().string()},
                   {"lake", check.index_lake.empty() ? Json() : Json(check.index_lake)},
                   {"manifest", manifest.is_discarded() ? Json() : manifest}};
    if (check.differs) info->warnings.push_back(check.Warning());
  }
  // Absolute: code the agent runs has the sandbox as its working directory, so a relative --out would
  // make every local_path the tools return point nowhere.
  std::error_code ec;
  std::string work = std::filesystem::absolute(options.work_dir, ec).lexically_normal().string();
  if (ec) return IoError(options.work_dir + ": " + ec.message());
  tools::ToolSetOptions to;
  to.index_dir = options.index_dir;
  to.cache_dir = work + "/cache";
  LAKEQA_RETURN_IF_ERROR(MakeDirs(work + "/sessions"));
  LAKEQA_ASSIGN_OR_RETURN(auto set, tools::ToolSet::Open(std::move(store), to));
  std::shared_ptr<tools::ToolSet> shared(std::move(set));
  if (info != nullptr) info->namespaces = shared->namespaces();
  std::string root = work + "/sessions";
  auto counter = std::make_shared<std::atomic<uint64_t>>(0);
  return ToolEnvFactory([shared, root, counter](const eval::Task& task) -> Result<std::unique_ptr<ToolEnv>> {
    // A fresh session per attempt: a resumed run never reuses the sandbox of an interrupted one.
    std::string id =
        TraceFileName(task.id).substr(0, 40) + "-" +
        std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 1000000000) + "-" +
        std::to_string(counter->fetch_add(1));
    for (char& c : id)
      if (c == '.') c = '_';
    LAKEQA_ASSIGN_OR_RETURN(auto session, tools::Session::Create(root, id));
    return std::unique_ptr<ToolEnv>(std::make_unique<ToolSetEnv>(*shared, shared, std::move(session)));
  });
}

}  // namespace lakeqa::agent
